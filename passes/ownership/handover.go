package ownership

import (
	"cmp"
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// beforeRunStarts reports whether event x of a root trace t that runs
// several functions one after the other (the tests) happens before the
// goroutine of trace u that x's own run starts, when obj is made by t.
// Each test makes its own objects: a goroutine that an earlier test
// started (and left running) works on that test's objects, not on the
// ones x touches, though both are one abstract object. So x races only
// with the goroutine its own run starts, as one test run alone would;
// a goroutine that only other runs start does not reach an object that
// x's run makes (see maker), however deep the constructors that make it
// merge every run's.
func (q *Query) beforeRunStarts(obj *pointer.Object, t *shb.Trace, x int32, u *shb.Trace, perIter bool) bool {
	if t.Entries == nil || obj.Ctx == nil || obj.Ctx.Origin != t.Origin {
		return false
	}
	child := u.Origin
	for child.Parent != nil && child.Parent != t.Origin {
		child = child.Parent
	}
	if child.Parent != t.Origin {
		return false
	}
	start, ok := q.runStarts(t)[runStart{child, t.Run(x)}]
	if !ok {
		// u is started by other runs only: it works on their objects,
		// and obj is one that x's run makes.
		_, j := q.maker(t, x, obj)
		return j >= 0
	}
	return t.Last(x, perIter) < start
}

// handedOver reports whether event x of trace t accesses obj before t
// sends a value that carries obj on a channel, and event y of trace u
// comes after u receives from that channel, directly or through
// goroutines that pass obj on the same way: obj was handed over. The Go
// memory model orders a send before the receive that gets its value,
// and u reaches obj through the value it received, so the receive that
// matters is the one that got the send of obj, whichever it was: the
// fresh objects a worker builds and sends one after the other are all
// published, not only the first.
func (q *Query) handedOver(obj *pointer.Object, t *shb.Trace, x int32, u *shb.Trace, y int32, perIter bool) bool {
	// from holds, for each trace obj has reached, the first event that
	// comes after a receive of it: the hand-overs go on from there.
	from := q.handed.reset(len(q.ptr.Origins))
	from.set(t, t.Last(x, perIter)+1)
	work := []*shb.Trace{t}
	for hops := 0; len(work) > 0 && hops < maxHandOvers; hops++ {
		var next []*shb.Trace
		for _, h := range work {
			sends, carrying := q.sendsOf(h), q.sendsCarrying(h, obj)
			start, _ := from.get(h)
			i, _ := slices.BinarySearchFunc(carrying, start, func(k int32, id int32) int { return cmp.Compare(sends[k].id, id) })
			for _, k := range carrying[i:] {
				for _, rc := range q.receiversOf(h, &sends[k]) {
					r, rv := rc.t, rc.id
					if r == u && rv < y {
						return true
					}
					if at, ok := from.get(r); !ok || rv+1 < at {
						from.set(r, rv+1)
						next = append(next, r)
					}
				}
			}
		}
		work = next
	}
	return false
}

// handOvers is, for one question of handedOver, the first event of each
// trace that the hand-overs go on from, by origin ID: a slice stamped
// with the question's number, as a map for each question cost seconds.
type handOvers struct {
	first []int32
	stamp []uint32
	gen   uint32
}

func (h *handOvers) reset(n int) *handOvers {
	if len(h.first) < n {
		h.first, h.stamp, h.gen = make([]int32, n), make([]uint32, n), 0
	}
	if h.gen++; h.gen == 0 {
		clear(h.stamp)
		h.gen = 1
	}
	return h
}

func (h *handOvers) get(t *shb.Trace) (int32, bool) {
	id := t.Origin.ID
	return h.first[id], h.stamp[id] == h.gen
}

func (h *handOvers) set(t *shb.Trace, first int32) {
	id := t.Origin.ID
	h.first[id], h.stamp[id] = first, h.gen
}

// receivedInLoop reports whether acc reaches its object, by fields and
// elements, from a value that a receive in a loop around acc gives in
// each iteration (for job := range jobs { job.n = 1; out <- job }): the
// next iteration's access is to what the next receive gives, so a send
// after acc in the same iteration hands over what acc touched.
func (q *Query) receivedInLoop(acc pointer.Access) bool {
	if acc.Imported != nil {
		return false
	}
	v, ok := q.inLoop[acc.Instr]
	if !ok {
		v = receivedInLoop(acc)
		if q.inLoop == nil {
			q.inLoop = make(map[ssa.Instruction]bool)
		}
		q.inLoop[acc.Instr] = v
	}
	return v
}

func receivedInLoop(acc pointer.Access) bool {
	addr := accessedAddr(acc)
	if addr == nil {
		return false
	}
	v := selected(addr)
	if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
		v = ex.Tuple
	}
	recv, ok := v.(*ssa.UnOp)
	if !ok || recv.Op != token.ARROW || recv.Block() == nil {
		return false
	}
	succs := func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Succs }
	rb, ab := recv.Block(), acc.Instr.Block()
	return walkBlocks(rb, nil, succs)[ab] && walkBlocks(ab, nil, succs)[rb]
}

// maxHandOvers bounds the goroutines a hand-over passes through.
const maxHandOvers = 4

// receiversOf returns the other traces that receive from a channel of
// send s of trace h, each with its first such receive, in the order of
// the traces; memoized: hand-overs ask it at every send, and asking each
// trace of each send, pair after pair, was all of database/sql's time
// (its tests start 150 goroutines).
func (q *Query) receiversOf(h *shb.Trace, s *sent) []sendKey {
	if s.received {
		return s.receivers
	}
	chans := q.channels(h, s.id)
	for _, r := range q.hb.Traces {
		if r == h {
			continue
		}
		if id := q.firstRecv(r, chans); id >= 0 {
			s.receivers = append(s.receivers, sendKey{r, id})
		}
	}
	s.received = true
	return s.receivers
}

// firstRecv returns the first receive of trace t from one of the
// channels chans, or -1. A receive from a set of channels, or a send
// on one, may get the value of a send on any of them.
func (q *Query) firstRecv(t *shb.Trace, chans map[*pointer.Object]bool) int32 {
	ids, ok := q.recvs[t]
	if !ok {
		for _, ev := range t.Events {
			if ev.Kind == shb.Recv {
				ids = append(ids, ev.ID)
			}
		}
		if q.recvs == nil {
			q.recvs = make(map[*shb.Trace][]int32)
		}
		q.recvs[t] = ids
	}
	for _, id := range ids {
		for obj := range q.channels(t, id) {
			if chans[obj] {
				return id
			}
		}
	}
	return -1
}

// channels returns the channels that event id of trace t, a send or a
// receive, may operate on: the object the walk found, or the members
// of the set it found, or, when they were too many for it, those the
// channel operand points to (w.ch of every watcher); nil when unknown.
func (q *Query) channels(t *shb.Trace, id int32) map[*pointer.Object]bool {
	k := sendKey{t, id}
	if m, ok := q.chans[k]; ok {
		return m
	}
	var m map[*pointer.Object]bool
	ev := &t.Events[id]
	// A select names one channel per case: only its one case of the
	// event's direction tells which.
	if ops := shb.ChanOperands(ev); ev.Obj >= 0 {
		m = make(map[*pointer.Object]bool)
		for _, obj := range q.hb.Objects(ev.Obj) {
			m[obj] = true
		}
	} else if len(ops) == 1 {
		locs := q.ptr.PointsToIn(t.Origin, ops[0])
		if len(locs) <= maxChannels {
			m = make(map[*pointer.Object]bool)
			for _, l := range locs {
				m[l.Obj] = true
			}
		}
	}
	if q.chans == nil {
		q.chans = make(map[sendKey]map[*pointer.Object]bool)
	}
	q.chans[k] = m
	return m
}

// maxChannels bounds the channels that one operation may be on for it
// to hand over what it sends.
const maxChannels = 64

// sent is a send of a trace on a channel it knows: its event and, once
// asked, what its value carries.
type sent struct {
	id      int32
	done    bool
	carries map[*pointer.Object]bool

	received  bool      // receivers is filled
	receivers []sendKey // see receiversOf
}

// carrying lists, for one object, the sends of each trace that carry
// it, as indices in sendsOf, by origin ID: found once for each trace,
// as the pairs of the object's locations ask handedOver of the same
// traces many times. The lists of a trace are valid when its stamp is
// gen.
type carrying struct {
	obj   *pointer.Object
	sends [][]int32
	stamp []uint32
	gen   uint32
}

// sendsCarrying returns the sends of trace t that carry obj, as indices
// in sendsOf(t), in order.
func (q *Query) sendsCarrying(t *shb.Trace, obj *pointer.Object) []int32 {
	cr := &q.carrying
	if cr.sends == nil {
		n := len(q.ptr.Origins)
		cr.sends, cr.stamp = make([][]int32, n), make([]uint32, n)
	}
	if cr.obj != obj {
		cr.obj = obj
		if cr.gen++; cr.gen == 0 {
			clear(cr.stamp)
			cr.gen = 1
		}
	}
	id := t.Origin.ID
	if cr.stamp[id] != cr.gen {
		cr.stamp[id] = cr.gen
		sends, list := q.sendsOf(t), cr.sends[id][:0]
		for k := range sends {
			if q.carried(t, &sends[k])[obj] {
				list = append(list, int32(k))
			}
		}
		cr.sends[id] = list
	}
	return cr.sends[id]
}

// sendsOf returns the sends of trace t on channels it knows, in the
// order of their events.
func (q *Query) sendsOf(t *shb.Trace) []sent {
	if q.sends == nil {
		q.sends = make([][]sent, len(q.ptr.Origins))
	}
	if ss := q.sends[t.Origin.ID]; ss != nil {
		return ss
	}
	ss := []sent{}
	for _, ev := range t.Events {
		if ev.Kind == shb.Send && sentValue(ev.Instr) != nil && q.channels(t, ev.ID) != nil {
			ss = append(ss, sent{id: ev.ID})
		}
	}
	q.sends[t.Origin.ID] = ss
	return ss
}

// Bounds on what a sent value carries: the objects it points to and
// those reached through a few pointers (a metric and its descriptor).
const (
	carriedDepth = 3
	carriedLimit = 256
)

// carried returns the objects that the value of send s of trace t
// carries.
func (q *Query) carried(t *shb.Trace, s *sent) map[*pointer.Object]bool {
	if !s.done {
		if v := sentValue(t.Events[s.id].Instr); v != nil {
			s.carries = q.ptr.Reachable(t.Origin, v, carriedDepth, carriedLimit)
		}
		s.done = true
	}
	return s.carries
}

// sentValue returns the value that a send, or the one send case of a
// select, sends; nil for a select of several send cases.
func sentValue(instr ssa.Instruction) ssa.Value {
	switch x := instr.(type) {
	case *ssa.Send:
		return x.X
	case *ssa.Select:
		var v ssa.Value
		for _, st := range x.States {
			if st.Dir == types.SendOnly {
				if v != nil {
					return nil
				}
				v = st.Send
			}
		}
		return v
	}
	return nil
}

// sendKey is an event of a trace: a send, or, in the lists of
// receiversOf, a receive.
type sendKey struct {
	t  *shb.Trace
	id int32
}

// runStart names the first start of a goroutine in one run of a root.
type runStart struct {
	child *pointer.Origin
	run   int
}

// runStarts returns, for a root trace of several runs, the event that
// first starts each child goroutine in each run.
func (q *Query) runStarts(t *shb.Trace) map[runStart]int32 {
	if m, ok := q.starts[t]; ok {
		return m
	}
	m := make(map[runStart]int32)
	for _, ev := range t.Events {
		if ev.Kind != shb.Spawn {
			continue
		}
		for _, o := range t.Spawned(ev.ID) {
			k := runStart{o, t.Run(ev.ID)}
			if _, ok := m[k]; !ok {
				m[k] = ev.ID
			}
		}
	}
	if q.starts == nil {
		q.starts = make(map[*shb.Trace]map[runStart]int32)
	}
	q.starts[t] = m
	return m
}
