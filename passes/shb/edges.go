package shb

import (
	"cmp"
	"go/constant"
	"go/token"
	"go/types"
	"iter"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/dataflow"
	"github.com/origo-dev/origo/passes/internal/loops"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/syncapi"
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

// ops are the events of one trace on one object, by kind, in ID order.
type ops [numKinds][]int32

// link adds the happens-before edges between traces. Matching works on
// the events of each object grouped by trace, so that a channel used at
// thousands of inlined places costs a pass per trace, not per pair.
func (res *Result) link(objs *objects) {
	deadCases(res.Traces, objs)
	l := newLinker(res, objs, nil)
	l.initEdges()
	l.spawnEdges()
	l.parallelTestEdges()
	l.timerEdges()
	l.syncEdges()
	res.linkWide(objs)
	for _, t := range res.Traces {
		t.Out = prune(t.Out)
		for _, e := range t.Out {
			t.maxFrom = max(t.maxFrom, e.From)
		}
	}
}

// linkWide links again, as the sets they were before, the channels and
// WaitGroups that a chain narrowed (see walker.syncObj): an operation
// on a set links with the other operations on the set, and narrowing
// one of them must not lose that edge, only add those of its narrower
// object.
func (res *Result) linkWide(objs *objects) {
	wide := make(map[int32]bool)
	for _, t := range res.Traces {
		for id, w := range t.wide {
			t.Events[id].Obj, t.wide[id] = w, t.Events[id].Obj
			wide[w] = true
		}
	}
	if len(wide) == 0 {
		return
	}
	l := newLinker(res, objs, wide)
	l.syncEdges()
	for _, t := range res.Traces {
		for id, narrow := range t.wide {
			t.Events[id].Obj, t.wide[id] = narrow, t.Events[id].Obj
		}
	}
}

// newLinker indexes the synchronization events of the traces by object;
// only those on the objects of only, when it is not nil.
func newLinker(res *Result, objs *objects, only map[int32]bool) *linker {
	l := &linker{res: res, objs: objs, byObj: make(map[int32]map[*Trace]*ops), spawnedAt: make(map[*pointer.Origin]ref), only: only}
	for _, t := range res.Traces {
		for i := range t.Events {
			ev := &t.Events[i]
			if ev.Obj >= 0 && ev.Kind != Access && ev.Kind != Acquire && l.linked(ev.Obj) {
				m := l.byObj[ev.Obj]
				if m == nil {
					m = make(map[*Trace]*ops)
					l.byObj[ev.Obj] = m
				}
				if m[t] == nil {
					m[t] = new(ops)
					l.traces = append(l.traces, objTrace{ev.Obj, t})
				}
				m[t][ev.Kind] = append(m[t][ev.Kind], ev.ID)
			}
			if ev.Kind == Spawn {
				for _, o := range t.Spawned(ev.ID) {
					if _, ok := l.spawnedAt[o]; !ok && res.byOrig[o] != nil {
						l.spawnedAt[o] = ref{t, ev.ID}
					}
				}
			}
		}
	}
	return l
}

// linked reports whether the linker links the events on obj.
func (l *linker) linked(obj int32) bool { return l.only == nil || l.only[obj] }

// syncEdges adds the edges of channels, WaitGroups, Conds, spinning
// atomics and Onces.
func (l *linker) syncEdges() {
	for _, t := range l.res.Traces {
		for i := range t.Events {
			ev := &t.Events[i]
			if ev.Obj < 0 || !l.linked(ev.Obj) {
				continue
			}
			r := ref{t, ev.ID}
			switch ev.Kind {
			case Recv:
				l.recvEdges(r)
			case Send:
				l.sendEdges(r)
				l.drainEdges(r)
			case WGWait:
				l.waitEdges(r)
			case CondWait:
				l.condEdges(r)
			case SpinWait:
				l.spinEdges(r)
			case OnceAfter:
				l.onceEdges(r)
			}
		}
	}
}

type objTrace struct {
	obj int32
	t   *Trace
}

type linker struct {
	res       *Result
	objs      *objects
	byObj     map[int32]map[*Trace]*ops
	traces    []objTrace // the keys of byObj's maps, in a deterministic order
	spawnedAt map[*pointer.Origin]ref
	doners    map[int32]map[*pointer.Origin]bool // by WaitGroup: the origins that call Done, with their ancestors (see waitedFor)
	only      map[int32]bool                     // see newLinker
}

// each calls f for every trace other than r's with events on r's object
// that may happen before r: not in a goroutine r's trace starts after r.
func (l *linker) each(r ref, f func(*Trace, *ops)) {
	m := l.byObj[r.ev().Obj]
	for _, ot := range l.traces {
		if ot.obj != r.ev().Obj || ot.t == r.t || l.startedAfter(ot.t.Origin, r.t, r.id) {
			continue
		}
		f(ot.t, m[ot.t])
	}
}

// own returns the events of kind k on r's object in r's trace up to r.
func (l *linker) own(r ref, k Kind) []int32 {
	o := l.byObj[r.ev().Obj][r.t]
	ids := o[k]
	n, _ := slices.BinarySearch(ids, r.id+1)
	return ids[:n]
}

// edge records that events of from below id happen before events of to
// at or above at.
func (l *linker) edge(from *Trace, id int32, to *Trace, at int32) {
	from.Out = append(from.Out, Edge{Before: id, To: to, At: at, Body: to.bodyAt(at)})
}

// prune sorts edges by Before and drops those another edge to the same
// trace implies: one that orders more events (a larger Before, and a
// From no larger) before more of the target (a smaller At).
func prune(edges []Edge) []Edge {
	slices.SortFunc(edges, func(x, y Edge) int {
		return cmp.Or(cmp.Compare(y.Before, x.Before), cmp.Compare(x.At, y.At), cmp.Compare(x.From, y.From), cmp.Compare(x.To.index, y.To.index), cmp.Compare(x.Body, y.Body))
	})
	type span struct {
		to   *Trace
		from int32
	}
	best := make(map[*Trace]int32) // by target, the least At of the edges from 0 so far
	bestFrom := make(map[span]int32)
	bestBody := make(map[span]int32) // by target and Body, for edges from 0
	var out []Edge
	for _, e := range edges {
		if at, ok := best[e.To]; ok && at <= e.At {
			continue
		}
		if e.Body > 0 { // from 0: see linker.edge
			// An edge into a case body orders the spans of its body only.
			k := span{e.To, e.Body}
			if at, ok := bestBody[k]; ok && at <= e.At {
				continue
			}
			bestBody[k] = e.At
			out = append(out, e)
			continue
		}
		if e.From > 0 {
			// Edges from the same From leave the same callback, with
			// the same Before.
			k := span{e.To, e.From}
			if at, ok := bestFrom[k]; ok && at <= e.At {
				continue
			}
			bestFrom[k] = e.At
		} else {
			best[e.To] = e.At
		}
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(x, y Edge) int { return cmp.Compare(x.Before, y.Before) })
	return out
}

// initEdges: package initialization happens before main and the tests,
// and so before every goroutine it does not start itself: one whose
// start the walk cannot tie to its starter (a context.AfterFunc
// callback, a goroutine of another package's) still starts after init
// has returned.
func (l *linker) initEdges() {
	for _, init := range l.res.Traces {
		if init.Origin.Parent != nil || init.Origin.Root != "init" {
			continue
		}
		// The goroutines a walked spawn event starts: an edge from
		// their starter orders them after init already.
		tied := make(map[*pointer.Origin]bool)
		for _, t := range l.res.Traces {
			for _, started := range t.spawned {
				for _, o := range started {
					tied[o] = true
				}
			}
		}
		for _, t := range l.res.Traces {
			if t != init && (t.Origin.Parent == nil || !tied[t.Origin]) && t.Origin.Ancestor() != init.Origin {
				l.edge(init, int32(len(init.Events)), t, 0)
			}
		}
	}
}

// spawnEdges: a goroutine starts after the first event that may start
// it (a helper that starts it may be inlined at several places); a
// subtest without t.Parallel started at one place ends before t.Run
// returns.
func (l *linker) spawnEdges() {
	type pair struct{ parent, child *Trace }
	first := make(map[pair]int32)
	sites := make(map[pair]int)
	var pairs []pair
	for _, t := range l.res.Traces {
		for _, ev := range t.Events {
			if ev.Kind != Spawn {
				continue
			}
			for _, o := range t.Spawned(ev.ID) {
				child := l.res.byOrig[o]
				if child == nil || child == t {
					continue
				}
				p := pair{t, child}
				if _, ok := first[p]; !ok {
					first[p] = ev.ID
					pairs = append(pairs, p)
				}
				sites[p]++
			}
		}
	}
	// The copies of a subtest that runs without t.Parallel in a loop run
	// one after the other: each ends before the next t.Run starts one.
	for _, t := range l.res.Traces {
		for _, ev := range t.Events {
			spawned := t.Spawned(ev.ID)
			if len(spawned) < 2 {
				continue
			}
			for _, a := range spawned {
				for _, b := range spawned {
					ta, tb := l.res.byOrig[a], l.res.byOrig[b]
					if a != b && ta != nil && tb != nil && a.Kind == facts.SpawnSubtest && b.Kind == facts.SpawnSubtest && a.Flags&facts.Sync != 0 && b.Flags&facts.Sync != 0 {
						l.edge(ta, int32(len(ta.Events)), tb, 0)
					}
				}
			}
		}
	}
	for _, p := range pairs {
		id := first[p]
		l.edge(p.parent, id, p.child, 0)
		if p.child.Origin.Flags&facts.Sync != 0 && sites[p] == 1 {
			l.edge(p.child, int32(len(p.child.Events)), p.parent, id+1)
			if p.child.Origin.Kind == facts.SpawnBubble {
				l.bubbleEdges(p.child, p.parent, id+1)
			}
		}
		// A parallel subtest runs on its own until it calls t.Parallel,
		// which t.Run waits for before it returns: what it did until
		// then (tt := tt, the loop variable copied) happens before the
		// next statement of its parent.
		if c := p.child.Origin; c.Kind == facts.SpawnSubtest && c.Flags&facts.Parallel != 0 && sites[p] == 1 && p.child.ParallelAt > 0 {
			l.edge(p.child, p.child.ParallelAt, p.parent, id+1)
		}
	}
}

// parallelTestEdges: go test runs the top-level tests that call
// t.Parallel on from that call only once every test that does not has
// returned (their parent, the test runner, releases them when its loop
// over the tests ends, through the testing package's channels). The
// sequential tests' root, up to the end of its last Test (benchmarks
// and fuzz targets run later), happens before what each parallel test
// does after its t.Parallel: an edge into the spans of the parallel
// tests' roots from those calls to the ends of their runs, not into what
// a parallel test does before it calls t.Parallel, which runs among the
// sequential tests.
func (l *linker) parallelTestEdges() {
	var seq *Trace
	var par []*Trace
	for _, t := range l.res.Traces {
		switch o := t.Origin; {
		case o.Parent != nil:
		case o.Root == sequentialTests:
			seq = t
		case o.Root == parallelTests && len(t.parallelCalls) > 0:
			par = append(par, t)
		}
	}
	if seq == nil || len(par) == 0 {
		return
	}
	end, ok := lastTestEnd(seq, l.objs.ptr.RootFuncs(seq.Origin))
	if !ok {
		return
	}
	for _, t := range par {
		var spans []Span
		for _, at := range t.parallelCalls {
			runEnd := int32(len(t.Events)) - 1
			if r := t.Run(at); r >= 0 && r+1 < len(t.Entries) {
				runEnd = t.Entries[r+1] - 1
			}
			if at <= runEnd {
				spans = append(spans, Span{at, runEnd})
			}
		}
		if len(spans) == 0 {
			continue
		}
		t.bodySpans = append(t.bodySpans, spans)
		t.bodyOthers = append(t.bodyOthers, nil)
		seq.Out = append(seq.Out, Edge{Before: end, To: t, At: spans[0].Start, Body: int32(len(t.bodySpans))})
	}
}

// lastTestEnd returns the event of the tests' root t after its last
// Test run (whose functions are fns, by run), or its end.
func lastTestEnd(t *Trace, fns []*ssa.Function) (int32, bool) {
	runs := t.Entries
	if runs == nil {
		runs = []int32{0}
	}
	if len(fns) != len(runs) {
		return 0, false
	}
	last := -1
	for i, fn := range fns {
		if strings.HasPrefix(fn.Name(), "Test") {
			last = i
		}
	}
	if last < 0 {
		return 0, false
	}
	if last+1 < len(runs) {
		return runs[last+1], true
	}
	return int32(len(t.Events)), true
}

// bubbleEdges: synctest.Test returns only after every goroutine of its
// bubble has exited, those that the bubble's function starts and those
// they start in turn: each ends before event id of the trace that called
// Test.
func (l *linker) bubbleEdges(bubble, caller *Trace, id int32) {
	for _, t := range l.res.Traces {
		if t != bubble && descends(t.Origin, bubble.Origin) {
			l.edge(t, int32(len(t.Events)), caller, id)
		}
	}
}

// descends reports whether o was started, directly or not, by a
// goroutine that anc started, or by anc.
func descends(o, anc *pointer.Origin) bool {
	for p := o.Parent; p != nil; p = p.Parent {
		if p == anc {
			return true
		}
	}
	return false
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

// count returns how many times the events ids of t may happen, capped
// at many.
func count(t *Trace, ids []int32) int {
	if len(ids) > 0 && t.Origin.Multi {
		return many
	}
	for _, id := range ids {
		if t.Events[id].Loop >= 0 {
			return many
		}
	}
	return len(ids)
}

// startedAfter reports whether origin o is started, directly or through
// its ancestors, by an event of t after ID id: then it cannot have done
// anything before that event.
func (l *linker) startedAfter(o *pointer.Origin, t *Trace, id int32) bool {
	for s := range l.spawns(o) {
		if s.t == t {
			return s.id > id
		}
	}
	return false
}

// spawns yields the events that started o, then its parent, and so on
// up the chain of ancestors this package starts.
func (l *linker) spawns(o *pointer.Origin) iter.Seq[ref] {
	return func(yield func(ref) bool) {
		for seen := 0; o != nil && seen < 64; seen++ {
			s, ok := l.spawnedAt[o]
			if !ok || !yield(s) {
				return
			}
			o = s.t.Origin
		}
	}
}

// earliest returns where the first of the events ids of t, or the loop
// around it, starts; len(t.Events) when there are none.
func earliest(t *Trace, ids []int32) int32 {
	first := int32(len(t.Events))
	for _, id := range ids {
		start := id
		if ev := &t.Events[id]; ev.Loop >= 0 {
			start = t.Loops[ev.Loop].Start
		}
		first = min(first, start)
	}
	return first
}

// peer sums up what the other traces do on a channel before r.
type peer struct {
	t      *Trace
	last   int32 // the last of its operations of the kind matched
	first  int32 // where the first one, or the loop around it, starts
	closes []int32
}

// matched reports whether the peer does operations of the kind matched,
// not only closes.
func (p peer) matched() bool { return p.first < int32(len(p.t.Events)) }

// peers returns the traces that do operations of kind k on r's object
// before r, how many such operations they may do in all, and whether a
// trace other than r's does operations of the kind r does.
func (l *linker) peers(r ref, k Kind) (ps []peer, n int, rivals bool) {
	l.each(r, func(x *Trace, o *ops) {
		if len(o[r.ev().Kind]) > 0 {
			rivals = true
		}
		if len(o[k]) == 0 && len(o[Close]) == 0 {
			return
		}
		p := peer{t: x, first: earliest(x, o[k]), closes: o[Close]}
		if len(o[k]) > 0 {
			p.last = o[k][len(o[k])-1] // in ID order
		}
		n = min(many, n+count(x, o[k]))
		ps = append(ps, p)
	})
	return ps, n, rivals
}

// recvEdges adds the edges into receive r: from every send that r's
// receives up to now must have consumed, when no other goroutine
// receives on the channel; from a sole sender's first send; from a
// close that a receive loop observes.
func (l *linker) recvEdges(r ref) {
	if r.ev().Select {
		return
	}
	senders, sends, rivals := l.peers(r, Send)
	ownSends := l.own(r, Send)
	recvs := count(r.t, l.own(r, Recv))
	sends = min(many, sends+count(r.t, ownSends))
	at := after(r)
	if !rivals && sends <= recvs {
		for _, p := range senders {
			if p.matched() {
				l.edge(p.t, p.last, r.t, at)
			}
		}
	}
	if len(senders) == 1 && len(ownSends) == 0 && senders[0].matched() {
		l.edge(senders[0].t, senders[0].first, r.t, r.id+1)
	}
	if r.ev().Loop >= 0 || recvs > sends || r.t.ObservesClose(r.id) {
		exit := r.t.ExitOf(r.id) // the receive that observes the close ends its own loop
		for _, p := range senders {
			if len(p.closes) > 0 {
				l.edge(p.t, p.t.LastReplay(p.closes[0]), r.t, exit)
			}
		}
	}
	l.perRunEdges(r)
}

// perRunEdges adds the edges into a receive r from a channel that each
// run of r's loop makes and hands to a goroutine the same run starts:
//
//	for ... {
//		done := make(chan struct{})
//		go func() { work(); close(done) }()
//		<-done
//	}
//
// The pointer analysis gives the loop's runs two copies of the channel
// (see pointer's iteration tags), and r, which stands for every run,
// names the set of both, while each goroutine names its own copy alone:
// as a set and a member, they would not link. But the receive of one
// run gets what that run's goroutine sent on that run's channel, or its
// close, and the goroutine sends on no other run's channel: so the edge
// goes from the goroutine to right after r, not to the end of the loop.
// For a run before the goroutine's, the edge orders what already was:
// the spawn comes after that run.
func (l *linker) perRunEdges(r ref) {
	ev := r.ev()
	if ev.Loop < 0 || !l.objs.isGroup[ev.Obj] || len(l.own(r, Send)) > 0 {
		return
	}
	members := l.objs.members[ev.Obj]
	made := l.objs.loopCopies(members)
	if made == nil || made.Block() == nil || made.Parent() != ev.Instr.Parent() || !made.Block().Dominates(ev.Instr.Block()) {
		return
	}
	for _, m := range members {
		var peer *Trace
		for _, ot := range l.traces {
			if ot.obj != m || ot.t == r.t {
				continue
			}
			if peer != nil || len(l.byObj[m][ot.t][Recv]) > 0 {
				peer = nil // two goroutines on one run's channel, or another receiver
				break
			}
			peer = ot.t
		}
		if peer == nil || !l.startedEachRun(peer.Origin, r.t, made) {
			continue
		}
		o := l.byObj[m][peer]
		switch {
		case len(o[Send]) > 0:
			l.edge(peer, earliest(peer, o[Send]), r.t, r.id+1)
		case len(o[Close]) > 0:
			l.edge(peer, peer.LastReplay(o[Close][0]), r.t, r.id+1)
		}
	}
}

// startedEachRun reports whether o is a goroutine that t starts once in
// each run of the loop that makes made: at a go statement of made's
// function that made dominates, and that no cycle reaches again
// without passing through made.
func (l *linker) startedEachRun(o *pointer.Origin, t *Trace, made ssa.Instruction) bool {
	s, ok := l.spawnedAt[o]
	if !ok || s.t != t || o.Parent != t.Origin {
		return false
	}
	spawn := s.ev().Instr
	if spawn.Parent() != made.Parent() || !made.Block().Dominates(spawn.Block()) {
		return false
	}
	return spawn.Block() == made.Block() || !cycles(spawn.Block(), made.Block())
}

// cycles reports whether a path of one or more edges leads from block b
// back to b without going through block avoid.
func cycles(b, avoid *ssa.BasicBlock) bool { return dataflow.Reaches(b, b, avoid) }

// sendEdges adds the edges into send s: the k-th receive on a channel
// of capacity C happens before the (k+C)-th send completes (for an
// unbuffered channel, the receive before the send returns). When s is
// at least the C-th send past every receive the other goroutines may
// do, and no one else sends, every one of those receives precedes it.
func (l *linker) sendEdges(s ref) {
	c, ok := l.objs.capacity(s.ev().Obj)
	if s.ev().Select || !ok {
		return
	}
	receivers, recvs, rivals := l.peers(s, Recv)
	sends := count(s.t, l.own(s, Send))
	enough := recvs <= sends // unbuffered: a loop of sends meets a loop of receives, as in recvEdges
	if c > 0 {
		enough = recvs < many && sends < many && int64(sends)-c >= int64(recvs)
	}
	if !rivals && len(l.own(s, Recv)) == 0 && enough {
		for _, p := range receivers {
			if p.matched() {
				l.edge(p.t, p.last, s.t, after(s))
			}
		}
	}
}

// drainEdges adds the edges into the end of a loop that fills a
// semaphore channel, for i := 0; i < cap(ch); i++ { ch <- v }, from
// the releases of its holders. The k-th receive on a channel of
// capacity C happens before the (k+C)-th send completes: the loop's
// last send, its own C-th, completes only once as many receives have
// completed as there were other sends before it. Where every receive on
// the channel releases a token that its function (or the function that
// started its goroutine) took with a send, no receive takes one of the
// loop's tokens before every holder has released: each holder's release
// happens before the loop ends, whatever C is (asynq's processor waits
// so for its workers in shutdown).
func (l *linker) drainEdges(s ref) {
	ev := s.ev()
	if ev.Select || ev.Loop < 0 || len(l.byObj[ev.Obj][s.t][Recv]) > 0 {
		return
	}
	send, ok := ev.Instr.(*ssa.Send)
	if !ok {
		return
	}
	field := fillsCapacity(send)
	if field == nil {
		return
	}
	receivers, _, _ := l.peers(s, Recv)
	for _, p := range receivers {
		if len(p.closes) > 0 {
			return // a close is no release
		}
		for _, id := range l.byObj[ev.Obj][p.t][Recv] {
			if !releases(p.t.Events[id].Instr, field) {
				return
			}
		}
	}
	// The loop's body is its send: the next event is past the loop,
	// where the loop ends in this run of any loop around it (after(s)
	// would be past the outermost: a test's loop over its cases).
	for _, p := range receivers {
		if p.matched() {
			l.edge(p.t, p.last, s.t, s.id+1)
		}
	}
}

// fillsCapacity returns the field of the channel that send fills, when
// send is the only operation of a loop that runs cap(ch) times from
// zero: for i := 0; i < cap(x.ch); i++ { x.ch <- v }, or for range
// cap(x.ch) { x.ch <- v }.
func fillsCapacity(send *ssa.Send) chanVar {
	field := chanField(send.Chan)
	b := send.Block()
	if field == nil || len(b.Succs) == 0 {
		return nil
	}
	for _, instr := range b.Instrs {
		switch instr.(type) {
		case *ssa.Send, *ssa.UnOp, *ssa.FieldAddr, *ssa.BinOp, *ssa.Jump, *ssa.If, *ssa.Phi, *ssa.DebugRef:
		default:
			return nil
		}
	}
	// A range over an int tests the next count at the end of its body;
	// a three-clause loop jumps to its post statement (i++), which
	// jumps to its condition.
	post, h := b, b
	if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); !ok {
		post, h = b, b.Succs[0]
		if _, jump := h.Instrs[len(h.Instrs)-1].(*ssa.Jump); jump && len(h.Preds) == 1 {
			post, h = h, h.Succs[0]
		}
	}
	br, ok := h.Instrs[len(h.Instrs)-1].(*ssa.If)
	if !ok || br.Block().Succs[0] != b {
		return nil // the loop's body is the send's block
	}
	cmp, ok := br.Cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.LSS {
		return nil
	}
	capCall, ok := cmp.Y.(*ssa.Call)
	if !ok || len(capCall.Call.Args) != 1 {
		return nil
	}
	if bi, ok := capCall.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "cap" || chanField(capCall.Call.Args[0]) != field {
		return nil
	}
	phi, ok := cmp.X.(*ssa.Phi)
	if !ok {
		// for range: the condition tests the next count, phi + 1.
		if inc, isInc := cmp.X.(*ssa.BinOp); isInc && inc.Op == token.ADD {
			if one, isConst := loops.IntConst(inc.Y); isConst && one == 1 {
				phi, ok = inc.X.(*ssa.Phi)
			}
		}
	}
	if !ok || phi.Block() != h || len(phi.Edges) != 2 {
		return nil
	}
	// A counter from zero, one more each time the body's run ends.
	start, back, ok := loops.Counter(phi)
	if !ok || start != 0 || len(back) != 1 || back[0][0] != post.Index {
		return nil
	}
	return field
}

// A chanVar is where a channel value is loaded from: a struct field
// (*types.Var, x.ch) or a local variable (*ssa.Alloc, also as the
// function literals that capture it see it: sem := make(chan T, n); go
// func() { ...; <-sem }()).
type chanVar any

// chanField returns the field or the local variable a channel value is
// loaded from, or nil.
func chanField(v ssa.Value) chanVar {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	if f := lockset.FieldOf(load.X); f != nil {
		return f
	}
	if cell := variableOf(load.X, 0); cell != nil {
		return cell
	}
	return nil
}

// releases reports whether instr, a receive from a channel of field,
// gives back a token: its value is dropped, and its function, or a
// function around the literal it is, sends on a channel of that field
// (the token taken: exec's "case p.sema <- struct{}{}" before the
// worker it starts does "<-p.sema").
func releases(instr ssa.Instruction, field chanVar) bool {
	recv, ok := instr.(*ssa.UnOp)
	if !ok || recv.Op != token.ARROW || chanField(recv.X) != field {
		return false
	}
	if refs := recv.Referrers(); refs != nil && slices.ContainsFunc(*refs, func(r ssa.Instruction) bool {
		_, debug := r.(*ssa.DebugRef)
		return !debug
	}) {
		return false
	}
	for fn := recv.Parent(); fn != nil; fn = fn.Parent() {
		if sendsOn(fn, field) {
			return true
		}
	}
	return false
}

// sendsOn reports whether fn sends on a channel of field, in a send
// statement or a select's send case.
func sendsOn(fn *ssa.Function, field chanVar) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Send:
				if chanField(x.Chan) == field {
					return true
				}
			case *ssa.Select:
				for _, st := range x.States {
					if st.Dir == types.SendOnly && chanField(st.Chan) == field {
						return true
					}
				}
			}
		}
	}
	return false
}

// spinEdges adds the edge into a loop that spins on an atomic read until
// a write shows: when every atomic write of the location comes from one
// other goroutine, what it did before its first write happens before
// the loop ends (atomics are sequentially consistent).
func (l *linker) spinEdges(r ref) {
	var writers []peer
	l.each(r, func(x *Trace, o *ops) {
		ids := append(slices.Clone(o[AtomicWrite]), o[SpinWait]...) // a spinning CompareAndSwap writes too
		if len(ids) == 0 {
			return
		}
		writers = append(writers, peer{t: x, first: earliest(x, ids)})
	})
	if len(writers) == 1 && len(l.own(r, AtomicWrite)) == 0 {
		l.edge(writers[0].t, writers[0].first, r.t, after(r))
	}
}

// waitEdges adds the edges into a WaitGroup's Wait: from the Done of
// each goroutine whose Add happened before it started (an Add inside the
// goroutine may come after Wait has returned), and from the end of each
// goroutine the group started itself (WaitGroup.Go, errgroup).
func (l *linker) waitEdges(w ref) {
	obj := w.ev().Obj
	for _, ot := range l.traces {
		// A goroutine that w's trace starts after the Wait is not
		// waited for there (a later test's, on the set of every test's
		// WaitGroups).
		if ot.obj != obj || l.startedAfter(ot.t.Origin, w.t, w.id) {
			continue
		}
		o := l.byObj[obj][ot.t]
		for _, id := range o[Spawn] {
			if ot.t == w.t && id > w.id {
				continue
			}
			for _, sp := range ot.t.Spawned(id) {
				if c := l.res.byOrig[sp]; c != nil && c != w.t {
					l.edge(c, int32(len(c.Events)), w.t, w.id+1)
				}
			}
		}
		dones := o[WGDone]
		if ot.t == w.t || len(dones) == 0 {
			continue
		}
		switch adds := o[WGAdd]; {
		case l.addedBeforeStart(ot.t.Origin, obj):
			l.edge(ot.t, dones[len(dones)-1], w.t, w.id+1)
		case len(adds) > 0 && adds[0] < dones[0] && ot.t.Origin.Parent != nil:
			l.res.LateAdds = append(l.res.LateAdds, LateAdd{Trace: ot.t, Add: adds[0], Waiter: w.t, Wait: w.id})
		}
	}
	l.makerEdges(w)
	l.perRunWaitEdges(w)
}

// makerEdges adds the edges into a Wait, w, from the goroutines that
// make the WaitGroup it waits on, add to it before anything else can
// reach it, and call Done on it themselves (see makersGroup): the Wait
// found it where its maker put it, after the Add. Each goroutine's own
// object may be a different one (what an origin allocates is its own),
// and the Wait may be on any of them.
func (l *linker) makerEdges(w ref) {
	obj := w.ev().Obj
	for _, ot := range l.traces {
		if ot.t == w.t || ot.obj != obj && !(l.objs.isGroup[obj] && slices.Contains(l.objs.members[obj], ot.obj)) || l.startedAfter(ot.t.Origin, w.t, w.id) {
			continue
		}
		o := l.byObj[ot.obj][ot.t]
		if len(o[WGAdd]) == 0 || len(o[WGDone]) == 0 {
			continue
		}
		if add, done, ok := makersGroup(ot.t, o[WGAdd], o[WGDone]); ok {
			ot.t.Out = append(ot.t.Out, Edge{From: add, Before: done, To: w.t, At: w.id + 1})
		}
	}
}

// makersGroup finds, in trace t, an Add and the Done after it on a
// WaitGroup that the function calling them makes (a field of an object
// it allocates) and adds to before anything else can reach it: no store,
// send, call or return hands the object on before the Add (singleflight's
// call: c := new(call); c.wg.Add(1); g.m[key] = c; ...; c.wg.Done()).
// Another goroutine's Wait on it found the object where the maker put it,
// after the Add, so it returns only after the maker's Done: what the
// maker did from its Add to its Done happens before what the waiter does
// after Wait. It returns the Add's and the Done's event IDs.
func makersGroup(t *Trace, adds, dones []int32) (add, done int32, ok bool) {
	addCall, ok := t.Events[adds[0]].Instr.(ssa.CallInstruction)
	if !ok {
		return 0, 0, false
	}
	alloc, cell, ok := madeGroup(addCall)
	if !ok || escapesBefore(alloc, cell, addCall) {
		return 0, 0, false
	}
	for _, d := range dones {
		if doneCall, ok := t.Events[d].Instr.(ssa.CallInstruction); ok && d > adds[0] {
			if a, _, ok := madeGroup(doneCall); ok && a == alloc {
				return adds[0], d, true
			}
		}
	}
	return 0, 0, false
}

// madeGroup returns the allocation, in call's function, of the object
// whose field is the WaitGroup call operates on (c.wg.Add(1) with c :=
// new(call)), and the variable that holds it when a function literal
// captures it (go/ssa keeps such a variable in a cell of its own).
func madeGroup(call ssa.CallInstruction) (alloc, cell *ssa.Alloc, ok bool) {
	_, wg, ok := syncKind(call.Common())
	if !ok {
		return nil, nil, false
	}
	fa, ok := wg.(*ssa.FieldAddr)
	if !ok {
		return nil, nil, false
	}
	x := fa.X
	if load, ok := x.(*ssa.UnOp); ok && load.Op == token.MUL {
		if cell, ok = load.X.(*ssa.Alloc); !ok {
			return nil, nil, false
		}
		if x = syncapi.OnlyStore(cell); x == nil {
			return nil, nil, false
		}
	}
	alloc, ok = x.(*ssa.Alloc)
	return alloc, cell, ok && alloc.Heap && alloc.Parent() == call.Parent()
}

// escapesBefore reports whether the object alloc makes may reach
// another function or goroutine before instr: a use of it (or of the
// variable cell that holds it, or of the address of one of its fields)
// other than a load or a store through that address or a call of a sync
// method on it, that instr does not come before.
func escapesBefore(alloc, cell *ssa.Alloc, instr ssa.Instruction) bool {
	uses := func(v ssa.Value) []ssa.Instruction {
		if r := v.Referrers(); r != nil {
			return *r
		}
		return nil
	}
	ptrs := []ssa.Value{alloc}
	if cell != nil {
		for _, u := range uses(cell) {
			switch u := u.(type) {
			case *ssa.UnOp:
				ptrs = append(ptrs, u) // a load of the variable: the object again
			case *ssa.Store, *ssa.DebugRef:
			default:
				if !dataflow.Precedes(instr, u) {
					return true // a closure binding the variable
				}
			}
		}
	}
	for _, p := range ptrs {
		for _, u := range uses(p) {
			switch u := u.(type) {
			case *ssa.DebugRef:
			case *ssa.Store:
				if u.Addr == cell {
					continue // the variable's one value
				}
				if !dataflow.Precedes(instr, u) {
					return true
				}
			case *ssa.FieldAddr:
				for _, fu := range uses(u) {
					switch fu := fu.(type) {
					case *ssa.UnOp, *ssa.DebugRef:
					case *ssa.Store:
						if fu.Val == u && !dataflow.Precedes(instr, fu) {
							return true
						}
					case ssa.CallInstruction:
						if _, _, ok := syncKind(fu.Common()); !ok && !dataflow.Precedes(instr, fu) {
							return true
						}
					default:
						if !dataflow.Precedes(instr, fu) {
							return true
						}
					}
				}
			default:
				if !dataflow.Precedes(instr, u) {
					return true
				}
			}
		}
	}
	return false
}

// perRunWaitEdges adds the edges into a Wait, w, on a WaitGroup that
// each run of a loop makes (var wg sync.WaitGroup in the loop's body):
// a goroutine that the run starts after making it, and that calls Done
// on one run's copy while the Wait names another or the copies of every
// run (the pointer analysis tells two runs apart), is the run's own
// and is waited for by the run's Wait when no path from its go
// statement runs the loop again or leaves the function without passing
// the Wait (for _, u := range users { go ... }; wg.Wait(), inside the
// loop that made wg).
func (l *linker) perRunWaitEdges(w ref) {
	obj := w.ev().Obj
	wait := w.ev().Instr
	for _, ot := range l.traces {
		if ot.t == w.t || ot.obj == obj {
			continue
		}
		var made ssa.Instruction
		switch {
		case l.objs.isGroup[obj] && slices.Contains(l.objs.members[obj], ot.obj):
			made = l.objs.loopCopies(l.objs.members[obj])
		case l.objs.isGroup[ot.obj] && slices.Contains(l.objs.members[ot.obj], obj):
			made = l.objs.loopCopies(l.objs.members[ot.obj])
		case !l.objs.isGroup[obj] && !l.objs.isGroup[ot.obj]:
			made = l.objs.loopCopies([]int32{obj, ot.obj})
		}
		if made == nil || made.Block() == nil || wait == nil || made.Parent() != wait.Parent() || !made.Block().Dominates(wait.Block()) {
			continue
		}
		dones := l.byObj[ot.obj][ot.t][WGDone]
		s, ok := l.spawnedAt[ot.t.Origin]
		if len(dones) == 0 || !ok || s.t != w.t || ot.t.Origin.Parent != w.t.Origin || s.id > w.id {
			continue
		}
		spawn := s.ev().Instr
		if spawn.Parent() != made.Parent() || !made.Block().Dominates(spawn.Block()) ||
			escapesRun(spawn.Block(), wait.Block(), func(n *ssa.BasicBlock) bool { return n == made.Block() }) || !l.addedBeforeStart(ot.t.Origin, obj) {
			continue
		}
		l.edge(ot.t, dones[len(dones)-1], w.t, w.id+1)
	}
}

// escapesRun reports whether a path from block b, the go statement's,
// runs the loop again (reaches a block that again says starts another
// run) or leaves the function without going through block wait (b
// itself excepted when it is wait's block: what follows the go
// statement there passes it).
func escapesRun(b, wait *ssa.BasicBlock, again func(*ssa.BasicBlock) bool) bool {
	if b == wait {
		return false
	}
	seen := map[*ssa.BasicBlock]bool{b: true}
	work := []*ssa.BasicBlock{b}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if len(x.Succs) == 0 {
			return true // a return or a panic
		}
		for _, n := range x.Succs {
			if again(n) {
				return true
			}
			if n != wait && !seen[n] {
				seen[n] = true
				work = append(work, n)
			}
		}
	}
	return false
}

// onceEdges adds the edges into the return of a Once.Do, r: the
// completion of the callback happens before the return of every Do on
// the Once, so the events of every callback of the Once in another trace
// happen before it (the one that ran, whichever it was). What that trace
// did before its Do is not ordered: its Do may not be the one that ran
// the callback.
//
// The edges of a trace into its first return of Do on the Once imply
// those into its later ones (prune would drop them): a later return
// gets the edges of the traces that its trace starts in between only.
func (l *linker) onceEdges(r ref) {
	first := l.own(r, OnceAfter)[0]
	l.each(r, func(x *Trace, o *ops) {
		if first < r.id && !l.startedAfter(x.Origin, r.t, first) {
			return // as into first
		}
		for _, end := range o[OnceEnd] {
			if start, ok := x.callback[end]; ok && start < end {
				x.Out = append(x.Out, Edge{From: start, Before: end, To: r.t, At: r.id})
			}
		}
	})
}

// condEdges adds the edge into a Cond.Wait from the one goroutine that
// signals the Cond: Wait returns after a Signal or Broadcast, and both
// run under the Cond's lock, so what the signaller did before its first
// Signal happens before what the waiter does after Wait (and after the
// wait loop, which exits on what the signaller set under the lock). With
// two signallers, or one started in a loop, the Wait may have been woken
// by any: no edge.
func (l *linker) condEdges(w ref) {
	var from *Trace
	var first int32
	n := 0
	l.each(w, func(x *Trace, o *ops) {
		if sigs := o[CondSignal]; len(sigs) > 0 {
			from, first = x, sigs[0]
			n++
		}
	})
	if n != 1 || from.Origin.Multi || len(l.own(w, CondSignal)) > 0 {
		return
	}
	l.edge(from, first, w.t, w.id+1)
}

// addedBeforeStart reports whether an ancestor of o called Add on the
// WaitGroup obj before starting the goroutine that leads to o, and
// enough to cover it (see covered).
func (l *linker) addedBeforeStart(o *pointer.Origin, obj int32) bool {
	for s := range l.spawns(o) {
		if l.covered(s, obj) {
			return true
		}
	}
	return false
}

// covered reports whether the Adds on the WaitGroup obj that spawn s's
// trace made before s leave a count for the goroutine s starts. Counted
// in ID order: a constant Add(n) adds n, a Done of the trace's own takes
// one, and so does each earlier go statement whose goroutine, or one it
// starts, calls Done on obj (WaitGroup.Go adds for its own). After
// wg.Add(1); go a(); go b(), with a and b each calling Done, a's Done
// may bring the count to zero before b runs: Wait may return then, and
// b is not covered. Where the count is unknown (an Add of a value that
// is not a constant, an Add, Done or go statement in a loop, a goroutine
// that may run many times) the goroutine is taken to be covered.
func (l *linker) covered(s ref, obj int32) bool {
	o := l.byObj[obj][s.t]
	if o == nil || len(o[WGAdd]) == 0 || o[WGAdd][0] >= s.id {
		return false
	}
	n := int64(0)
	for id := range s.id {
		ev := &s.t.Events[id]
		switch {
		case ev.Kind == WGAdd && ev.Obj == obj:
			d, ok := addDelta(ev)
			if !ok || ev.Loop >= 0 {
				return true
			}
			n += d
		case ev.Kind == WGDone && ev.Obj == obj:
			if ev.Loop >= 0 {
				return true
			}
			n--
		case ev.Kind == Spawn && ev.Obj != obj && l.waitedFor(s.t.Spawned(id), obj):
			if ev.Loop >= 0 {
				return true
			}
			for _, sp := range s.t.Spawned(id) {
				if sp.Multi {
					return true
				}
			}
			n--
		}
	}
	return n > 0
}

// addDelta returns the constant that an Add event adds, if it is one.
func addDelta(ev *Event) (int64, bool) {
	c, ok := ev.Instr.(ssa.CallInstruction)
	if !ok || ev.Imported != 0 {
		return 0, false
	}
	call := c.Common()
	if op, _ := syncapi.WaitGroup(call); op != syncapi.WaitGroupAdd || len(call.Args) != 2 {
		return 0, false
	}
	k, ok := call.Args[1].(*ssa.Const)
	if !ok || k.Value == nil {
		return 0, false
	}
	d, exact := constant.Int64Val(constant.ToInt(k.Value))
	return d, exact
}

// waitedFor reports whether one of the goroutines a spawn event starts
// (spawned), or one of their descendants, calls Done on the WaitGroup
// obj.
func (l *linker) waitedFor(spawned []*pointer.Origin, obj int32) bool {
	if l.doners == nil {
		l.doners = make(map[int32]map[*pointer.Origin]bool)
	}
	m, ok := l.doners[obj]
	if !ok {
		m = make(map[*pointer.Origin]bool)
		for t, o := range l.byObj[obj] {
			if len(o[WGDone]) == 0 {
				continue
			}
			m[t.Origin] = true
			for s := range l.spawns(t.Origin) {
				m[s.t.Origin] = true
			}
		}
		l.doners[obj] = m
	}
	for _, sp := range spawned {
		if m[sp] {
			return true
		}
	}
	return false
}

// deadCases finds the cases of blocking selects that can never be
// chosen: a receive from a channel made here that nothing sends on or
// closes, a send on an unbuffered one that nothing receives from, a
// receive from the Done channel of a context that is never canceled
// (neverDone). A select left with one live case performs it for sure,
// and its event is no longer a "maybe".
func deadCases(traces []*Trace, objs *objects) {
	type use struct{ sends, recvs, closes bool }
	uses := make(map[int32]*use)
	for _, t := range traces {
		for _, ev := range t.Events {
			if ev.Obj < 0 {
				continue
			}
			// An operation on a set of channels may be on each of them.
			for _, obj := range append([]int32{ev.Obj}, objs.members[ev.Obj]...) {
				u := uses[obj]
				if u == nil {
					u = new(use)
					uses[obj] = u
				}
				switch ev.Kind {
				case Send:
					u.sends = true
				case Recv:
					u.recvs = true
				case Close:
					u.closes = true
				}
			}
		}
	}
	dead := func(ev *Event) bool {
		if ev.Obj < 0 {
			return false
		}
		c, ok := objs.capacity(ev.Obj) // made here: no code we cannot see has it
		if !ok {
			return false
		}
		u := uses[ev.Obj]
		if ev.Kind == Recv {
			return !u.sends && !u.closes
		}
		return c == 0 && !u.recvs
	}
	for _, t := range traces {
		t.unboundDead(dead)
		for i := 0; i < len(t.Events); {
			sel, ok := t.Events[i].Instr.(*ssa.Select)
			if !ok || !t.Events[i].Select {
				i++
				continue
			}
			j := i
			for j < len(t.Events) && t.Events[j].Instr == t.Events[i].Instr && t.Events[j].Select {
				j++
			}
			live := -1
			n := 0
			for k := i; k < j; k++ {
				if !dead(&t.Events[k]) && (j-i != len(sel.States) || !neverDone(objs, t.Origin, sel.States[k-i])) {
					live, n = k, n+1
				}
			}
			if sel.Blocking && n == 1 && j-i == len(sel.States) {
				t.Events[live].Select = false
			}
			i = j
		}
	}
}

// neverDone reports whether st receives from ctx.Done() where ctx, in
// origin o, holds only contexts that are never canceled (rule
// never-canceled): context.Background() and context.TODO(), whose Done
// returns nil, on which a receive never proceeds, and
// context.WithoutCancel(parent), whose Done is nil whatever the parent.
// select { case err = <-wait: case <-ctx.Done(): } with such a ctx
// waits for wait.
func neverDone(objs *objects, o *pointer.Origin, st *ssa.SelectState) bool {
	call, ok := st.Chan.(*ssa.Call)
	if st.Dir != types.RecvOnly || !ok || !call.Call.IsInvoke() || call.Call.Method.Name() != "Done" || !isContext(call.Call.Value.Type()) {
		return false
	}
	locs := objs.ptr.UnboxedIn(o, call.Call.Value)
	if len(locs) == 0 {
		return false
	}
	for _, l := range locs {
		made, ok := l.Obj.MadeAt().(*ssa.Call)
		if !ok {
			return false
		}
		fn := made.Call.StaticCallee()
		if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "context" || fn.Signature.Recv() != nil {
			return false
		}
		switch fn.Name() {
		case "Background", "TODO", "WithoutCancel":
		default:
			return false
		}
	}
	return true
}

// isContext reports whether t is context.Context.
func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}
