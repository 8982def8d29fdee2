package shb

import (
	"go/constant"
	"slices"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/pointer"
	"golang.org/x/tools/go/ssa"
)

// ref is an event of a trace.
type ref struct {
	t  *Trace
	id int32
}

func (r ref) ev() *Event { return &r.t.Events[r.id] }

// many stands for "any number of times": an event in a loop or in a
// goroutine that may run several times.
const many = 1 << 30

// link adds the happens-before edges between traces.
func (res *Result) link(objs *objects) {
	byObj := make(map[int32][]ref)
	spawnedAt := make(map[*pointer.Origin]ref)
	for _, t := range res.Traces {
		for i := range t.Events {
			ev := &t.Events[i]
			if ev.Obj >= 0 && ev.Kind != Access {
				byObj[ev.Obj] = append(byObj[ev.Obj], ref{t, ev.ID})
			}
			if ev.Kind == Spawn {
				for _, o := range ev.Spawned {
					if _, ok := spawnedAt[o]; !ok && res.byOrig[o] != nil {
						spawnedAt[o] = ref{t, ev.ID}
					}
				}
			}
		}
	}
	l := &linker{res: res, byObj: byObj, spawnedAt: spawnedAt, objs: objs}
	l.initEdges()
	for _, t := range res.Traces {
		for i := range t.Events {
			ev := &t.Events[i]
			switch ev.Kind {
			case Spawn:
				l.spawnEdges(ref{t, ev.ID})
			case Recv:
				l.recvEdges(ref{t, ev.ID})
			case Send:
				l.unbufferedEdges(ref{t, ev.ID})
			case WGWait:
				l.waitEdges(ref{t, ev.ID})
			case SpinWait:
				l.spinEdges(ref{t, ev.ID})
			case OnceAfter:
				for _, end := range byObj[ev.Obj] {
					if end.ev().Kind == OnceEnd && end.t != t {
						l.edge(end.t, end.id, t, ev.ID)
					}
				}
			}
		}
	}
	for _, t := range res.Traces {
		slices.SortFunc(t.Out, func(x, y Edge) int { return int(x.Before - y.Before) })
	}
}

type linker struct {
	res       *Result
	byObj     map[int32][]ref
	spawnedAt map[*pointer.Origin]ref
	objs      *objects
}

// initEdges: package initialization happens before main and the tests.
func (l *linker) initEdges() {
	for _, init := range l.res.Traces {
		if init.Origin.Parent != nil || init.Origin.Root != "init" {
			continue
		}
		for _, t := range l.res.Traces {
			if t.Origin.Parent == nil && t != init {
				l.edge(init, int32(len(init.Events)), t, 0)
			}
		}
	}
}

// edge records that events of from below id happen before events of to
// at or above at.
func (l *linker) edge(from *Trace, id int32, to *Trace, at int32) {
	from.Out = append(from.Out, Edge{Before: id, To: to, At: at})
}

// spawnEdges: the spawn happens before the goroutine starts; a subtest
// that does not call t.Parallel ends before t.Run returns.
func (l *linker) spawnEdges(s ref) {
	for _, o := range s.ev().Spawned {
		child := l.res.byOrig[o]
		if child == nil || child == s.t {
			continue
		}
		l.edge(s.t, s.id, child, 0)
		if o.Flags&facts.Sync != 0 {
			l.edge(child, int32(len(child.Events)), s.t, s.id+1)
		}
	}
}

// after returns the first ID that comes after event r on every path:
// the end of its loop when it is in one.
func after(r ref) int32 {
	ev := r.ev()
	if ev.Loop >= 0 {
		return r.t.Loops[ev.Loop].End + 1
	}
	return ev.ID + 1
}

// count returns how many times the events rs may happen, capped at many.
func count(rs []ref) int {
	n := 0
	for _, r := range rs {
		if r.ev().Loop >= 0 || r.t.Origin.Multi {
			return many
		}
		n++
	}
	return n
}

// startedAfter reports whether origin o is started, directly or through
// its ancestors, by an event of t after ID id: then it cannot have done
// anything before that event.
func (l *linker) startedAfter(o *pointer.Origin, t *Trace, id int32) bool {
	for seen := 0; o != nil && seen < 64; seen++ {
		s, ok := l.spawnedAt[o]
		if !ok {
			return false
		}
		if s.t == t {
			return s.id > id
		}
		o = s.t.Origin
	}
	return false
}

// matching splits the events of kind k on r's object into those of r's
// trace up to r, and those of other traces that may happen before r.
func (l *linker) matching(r ref, k Kind) (own, others []ref, otherTraces int) {
	var traces []*Trace
	for _, x := range l.byObj[r.ev().Obj] {
		if x.ev().Kind != k {
			continue
		}
		switch {
		case x.t == r.t:
			if x.id <= r.id {
				own = append(own, x)
			}
		case !l.startedAfter(x.t.Origin, r.t, r.id):
			others = append(others, x)
			if !slices.Contains(traces, x.t) {
				traces = append(traces, x.t)
			}
		}
	}
	return own, others, len(traces)
}

// recvEdges adds the edges into receive r: from every send that r's
// receives up to now must have consumed, when no other goroutine
// receives on the channel; from a close that a receive loop observes.
func (l *linker) recvEdges(r ref) {
	if r.ev().Obj < 0 || r.ev().Select {
		return
	}
	ownRecvs, otherRecvs, _ := l.matching(r, Recv)
	ownSends, sends, _ := l.matching(r, Send)
	at := after(r)
	if len(otherRecvs) == 0 && count(sends)+count(ownSends) <= count(ownRecvs) {
		for _, s := range sends {
			l.edge(s.t, s.id, r.t, at)
		}
	}
	if from, ok := l.soleSender(r, sends, ownSends); ok {
		l.edge(sends[0].t, from, r.t, r.id+1)
	}
	if r.ev().Loop >= 0 || count(ownRecvs) > count(sends)+count(ownSends) {
		for _, c := range l.byObj[r.ev().Obj] {
			if c.ev().Kind == Close && c.t != r.t {
				l.edge(c.t, c.id, r.t, at)
			}
		}
	}
}

// soleSender reports whether every send (and close) that receive r may
// complete comes from one other goroutine: then whatever r receives,
// that goroutine did before its first send happens before r returns.
// It returns where the first send, or the loop around it, starts.
func (l *linker) soleSender(r ref, sends, ownSends []ref) (int32, bool) {
	if len(sends) == 0 || len(ownSends) > 0 {
		return 0, false
	}
	t := sends[0].t
	from := int32(len(t.Events))
	for _, s := range sends {
		if s.t != t {
			return 0, false
		}
		start := s.id
		if ev := s.ev(); ev.Loop >= 0 {
			start = t.Loops[ev.Loop].Start
		}
		from = min(from, start)
	}
	for _, c := range l.byObj[r.ev().Obj] {
		if c.ev().Kind == Close && c.t != t {
			return 0, false
		}
	}
	return from, true
}

// spinEdges adds the edge into a loop that spins on an atomic read until
// a write shows: when every atomic write of the location comes from one
// other goroutine, what it did before its first write happens before
// the loop ends (atomics are sequentially consistent).
func (l *linker) spinEdges(r ref) {
	if r.ev().Obj < 0 {
		return
	}
	_, writes, _ := l.matching(r, AtomicWrite)
	_, spins, _ := l.matching(r, SpinWait) // a CompareAndSwap that spins writes too
	writes = append(writes, spins...)
	if from, ok := l.soleSender(r, writes, nil); ok {
		l.edge(writes[0].t, from, r.t, after(r))
	}
}

// unbufferedEdges adds the edges into send s on an unbuffered channel:
// the receive that completes it happened before the send returns.
func (l *linker) unbufferedEdges(s ref) {
	if s.ev().Obj < 0 || s.ev().Select || !l.unbuffered(s.ev().Obj) {
		return
	}
	ownSends, otherSends, _ := l.matching(s, Send)
	ownRecvs, recvs, _ := l.matching(s, Recv)
	if len(otherSends) == 0 && len(ownRecvs) == 0 && count(recvs) <= count(ownSends) {
		for _, r := range recvs {
			l.edge(r.t, r.id, s.t, after(s))
		}
	}
}

// unbuffered reports whether the channel obj was made without a buffer.
func (l *linker) unbuffered(obj int32) bool {
	mc, ok := l.objs.locs[obj].Obj.Site.(*ssa.MakeChan)
	if !ok {
		return false
	}
	c, ok := mc.Size.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Int && constant.Sign(c.Value) == 0
}

// waitEdges adds the edges into a WaitGroup's Wait: from each Done of
// a goroutine whose Add happened before it started (an Add inside the
// goroutine may come after Wait returned), and from the end of each
// goroutine the group started itself (WaitGroup.Go, errgroup).
func (l *linker) waitEdges(w ref) {
	obj := w.ev().Obj
	if obj < 0 {
		return
	}
	for _, x := range l.byObj[obj] {
		ev := x.ev()
		switch {
		case ev.Kind == Spawn:
			for _, o := range ev.Spawned {
				if c := l.res.byOrig[o]; c != nil && c != w.t {
					l.edge(c, int32(len(c.Events)), w.t, w.id+1)
				}
			}
		case ev.Kind == WGDone && x.t != w.t && l.addedBeforeStart(x.t.Origin, obj):
			l.edge(x.t, x.id, w.t, w.id+1)
		}
	}
}

// addedBeforeStart reports whether an ancestor of o called Add on the
// WaitGroup obj before starting the goroutine that leads to o.
func (l *linker) addedBeforeStart(o *pointer.Origin, obj int32) bool {
	for seen := 0; o != nil && seen < 64; seen++ {
		s, ok := l.spawnedAt[o]
		if !ok {
			return false
		}
		for _, x := range l.byObj[obj] {
			if x.t == s.t && x.ev().Kind == WGAdd && x.id < s.id {
				return true
			}
		}
		o = s.t.Origin
	}
	return false
}
