package shb

import (
	"cmp"
	"math"
	"slices"

	"github.com/origo-dev/origo/passes/pointer"
)

// Order answers happens-before queries on a graph. The walk behind a
// query is memoized, per Order: the memo is the asker's, so Order is not
// safe for concurrent use, and each analyzer makes its own with
// Result.NewOrder. The Result itself is never written after its Run,
// since go vet runs the analyzers of one package concurrently.
type Order struct {
	r       *Result
	reaches map[reachKey]reached
	excl    map[uint64]bool // see Exclusive: by the two locksets
	// first, scanned and touched are reach's scratch: by trace index,
	// the first event reached so far (noEvent for none) and the first of
	// its edges fired so far (len(Out) for none), and the traces reached.
	first   []int32
	scanned []int32
	touched []int32
	work    []hop
	// spans are, by trace index, the spans a walk reached through edges
	// into select case bodies (Edge.Body), and spanned the traces that
	// have some.
	spans   [][]Span
	spanned []int32

	spawns   map[spawnKey][]int32                // see spawnsOf
	runWaits map[*pointer.Origin]*pointer.Origin // see waitedIn
	starters map[*pointer.Origin]*pointer.Origin // see starter
}

type reachKey struct {
	t     *Trace
	first int   // index in t.Out of the first edge that fires
	from  int32 // the event, when edges with a larger From do not fire; -1 when all do
}

// reached lists the traces a walk reached, by index, with the first of
// their events it reached (from which on it reached every event);
// sorted by trace. A package's tests reach a few hundred traces from
// each of thousands of places, and a slice costs a tenth of a map to
// build, hold and collect. spans are the events it reached only in
// spans, through edges into select case bodies, sorted by trace.
type reached struct {
	first []traceAt
	spans []traceSpan
}

type traceAt struct{ trace, at int32 }

type traceSpan struct{ trace, start, end int32 }

// at returns the first event of t in r from which on r has every event
// of t, if there is one.
func (r reached) at(t *Trace) (int32, bool) {
	i, ok := slices.BinarySearchFunc(r.first, t.index, func(x traceAt, t int32) int { return cmp.Compare(x.trace, t) })
	if !ok {
		return 0, false
	}
	return r.first[i].at, true
}

// has reports whether r has event id of t.
func (r reached) has(t *Trace, id int32) bool {
	if at, ok := r.at(t); ok && at <= id {
		return true
	}
	i, _ := slices.BinarySearchFunc(r.spans, t.index, func(x traceSpan, t int32) int { return cmp.Compare(x.trace, t) })
	for ; i < len(r.spans) && r.spans[i].trace == t.index; i++ {
		if r.spans[i].start <= id && id <= r.spans[i].end {
			return true
		}
	}
	return false
}

const noEvent = math.MaxInt32

// NewOrder returns an Order for queries on r.
func (r *Result) NewOrder() *Order {
	return &Order{r: r, reaches: make(map[reachKey]reached)}
}

// HappensBefore reports whether event e1 of trace a happens before
// event e2 of trace b, through the edges between traces. perIteration
// says the events access a location made anew in each iteration of
// the loops around e1, so that the next iteration of e1 does not touch
// it again after an edge leaves the loop.
func (o *Order) HappensBefore(a *Trace, e1 int32, b *Trace, e2 int32, perIteration bool) bool {
	return o.reach(a, e1, a.Last(e1, perIteration)).has(b, e2)
}

// FirstAfter returns the first event of b that event e1 of a happens
// before, and every later one, and whether there is one (not the spans
// of select case bodies that it happens before). The edges
// into b land just after the operation that receives them (a Wait, a
// receive), so the event before it is that operation.
func (o *Order) FirstAfter(a *Trace, e1 int32, b *Trace) (int32, bool) {
	return o.reach(a, e1, a.Last(e1, false)).at(b)
}

// reach returns, for each trace, the first ID of its events that event
// id of t, or the events of t from id up to last, happen before.
func (o *Order) reach(t *Trace, id, last int32) reached {
	first, _ := slices.BinarySearchFunc(t.Out, last, func(e Edge, id int32) int {
		if e.Before <= id {
			return -1
		}
		return 1
	})
	from := int32(-1) // every edge from first on fires
	if id < t.maxFrom {
		from = id // not those that leave a Once callback after id
	}
	k := reachKey{t, first, from}
	if r, ok := o.reaches[k]; ok {
		return r
	}
	if o.first == nil {
		o.first = make([]int32, len(o.r.Traces))
		o.scanned = make([]int32, len(o.r.Traces))
		o.spans = make([][]Span, len(o.r.Traces))
		for i := range o.first {
			o.first[i] = noEvent
			o.scanned[i] = int32(len(o.r.Traces[i].Out))
		}
	}
	// The walk fires the edges of t from first on, those of them that
	// leave no Once callback after id, and of each trace an edge reaches
	// every edge after where it lands. Those of u from scanned[u] on
	// have fired already in this walk: reached again, at an earlier
	// event, u fires only the edges before them.
	work := o.fire(t, t.Out[first:], from, o.work[:0])
	for len(work) > 0 {
		h := work[len(work)-1]
		work = work[:len(work)-1]
		end := &o.scanned[h.t.index]
		if h.end >= 0 {
			// A span: its edges up to end, but for those fired already.
			if last := min(h.end, *end); h.next < last {
				work = o.fire(h.t, h.t.Out[h.next:last], -1, work)
			}
			continue
		}
		if h.next >= *end {
			continue
		}
		out := h.t.Out[h.next:*end]
		*end = h.next
		work = o.fire(h.t, out, -1, work)
	}
	o.work = work
	var r reached
	if len(o.spanned) > 0 {
		slices.Sort(o.spanned)
		for _, x := range o.spanned {
			for _, sp := range o.spans[x] {
				if sp.Start < o.first[x] {
					r.spans = append(r.spans, traceSpan{x, sp.Start, sp.End})
				}
			}
			o.spans[x] = o.spans[x][:0]
		}
		o.spanned = o.spanned[:0]
	}
	slices.Sort(o.touched)
	r.first = make([]traceAt, len(o.touched))
	for i, x := range o.touched {
		r.first[i] = traceAt{x, o.first[x]}
		o.first[x] = noEvent
		o.scanned[x] = int32(len(o.r.Traces[x].Out))
	}
	o.touched = o.touched[:0]
	o.reaches[k] = r
	return r
}

// hop is a trace that a walk reached, with the first of its edges
// that fire from there, and, for a span it reached, the end of those
// edges (-1 for all that follow).
type hop struct {
	t         *Trace
	next, end int32
}

// fire follows edges, those with From up to from unless from is -1: it
// lowers the first event reached of each target, and pushes a target
// so lowered, to fire its edges after that event. An edge into a
// select case body reaches its spans.
func (o *Order) fire(src *Trace, out []Edge, from int32, work []hop) []hop {
	for _, e := range out {
		if from >= 0 && e.From > from {
			continue
		}
		if e.Body == 0 {
			work = o.land(src, e.To, e.At, work)
			continue
		}
		for _, sp := range e.To.bodySpans[e.Body-1] {
			switch lo := max(sp.Start, e.At); {
			case lo > sp.End:
			case sp.End == noEvent:
				work = o.land(src, e.To, lo, work)
			default:
				work = o.landSpan(e.To, lo, sp.End, work)
			}
		}
	}
	return work
}

// land reaches the events of t from at on; for an edge from src, a
// goroutine that is neither t nor one t started, in a root whose runs
// are calls in no order (see runsApart), up to the end of the run: one
// caller's calls follow each other, another caller's do not.
func (o *Order) land(src, t *Trace, at int32, work []hop) []hop {
	if t.runsApart() && src != t && !descends(src.Origin, t.Origin) {
		return o.landSpan(t, at, t.runEnd(at)-1, work)
	}
	cur := &o.first[t.index]
	if *cur <= at {
		return work
	}
	if *cur == noEvent {
		o.touched = append(o.touched, t.index)
	}
	*cur = at
	return append(work, hop{t, firstEdge(t, at), -1})
}

// landSpan reaches the events of t from lo to hi.
func (o *Order) landSpan(t *Trace, lo, hi int32, work []hop) []hop {
	if o.first[t.index] <= lo {
		return work
	}
	spans := o.spans[t.index]
	for _, sp := range spans {
		if sp.Start <= lo && hi <= sp.End {
			return work
		}
	}
	if len(spans) == 0 {
		o.spanned = append(o.spanned, t.index)
	}
	o.spans[t.index] = append(spans, Span{lo, hi})
	return append(work, hop{t, firstEdge(t, lo), firstEdge(t, hi+1)})
}

// firstEdge returns the index of the first edge of t that leaves at
// event at or later.
func firstEdge(t *Trace, at int32) int32 {
	i, _ := slices.BinarySearchFunc(t.Out, at, func(x Edge, at int32) int {
		if x.Before < at {
			return -1
		}
		return 1
	})
	return int32(i)
}

// OnceOrdered reports whether an event holding lockset held runs inside
// a sync.Once.Do callback and event y of trace b comes after a return of
// Do on the same Once: the callback runs once, and every Do returns
// after it, wherever the callback's events are (in a loop or not).
func (r *Result) OnceOrdered(held LocksetID, b *Trace, y int32) bool {
	for _, e := range r.Locks.sets[held] {
		if !e.once || len(e.locs) != 1 {
			continue // the edge needs the one Once (see walker.onceDo)
		}
		for _, id := range b.onceAfter[e.locs[0]] {
			if id <= y {
				return true
			}
		}
	}
	return false
}

// runsApart reports whether t is a root whose runs are calls in no
// order: a copy of the presumed callers of a library's concurrent
// methods (pointer.MethodsRoot). What one caller's call receives from
// another caller's close or send happens before the rest of that call,
// not before the calls the walk put after it in the copy, which the
// caller may have made before the receive. (The edges that leave a run
// still fire from the runs after it, in the walk's order: a caller's
// Configure before its Start, whose goroutine reads what Configure
// wrote, is how such types are used.)
func (t *Trace) runsApart() bool {
	return t.Entries != nil && t.Origin.Parent == nil && t.Origin.Root == pointer.MethodsRoot
}

// runEnd returns the first event after the run of event id of t (the
// next run's first, or the end of the trace).
func (t *Trace) runEnd(id int32) int32 {
	if r := t.Run(id); r >= 0 && r+1 < len(t.Entries) {
		return t.Entries[r+1]
	}
	return int32(len(t.Events))
}
