package shb

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A receive in a select case with a body happens where the body starts
// (walker.selectCase), and orders only what follows it on every path:
// the blocks of the body's region (caseRegion), and the caller's events
// after the call when the function returns only through that region.
// Where another case goes on to the code after the select too, that
// code may run without the receive ("case <-done: ... case
// <-timeout:"), and an edge into the receive does not order it. The
// trace is one sequence per goroutine, so the events a receive orders
// are a few spans of it (Trace.bodySpans), and an edge into such a
// receive lands in those spans only (Edge.Body).

// openBody is a case body whose receive a function walk added, with the
// spans of its region walked so far; the last is open (End -1) while
// the walk is in the region.
type openBody struct {
	recv   int32
	region *caseRegion
	spans  []Span
	others []caseOp // the other cases of a blocking select; nil for one with a default
}

// caseOp is the operation of a select case: its kind and object.
type caseOp struct {
	kind Kind
	obj  int32
}

// enter notes that the walk starts block b at event next: it leaves the
// body's region, or enters it again.
func (o *openBody) enter(b *ssa.BasicBlock, next int32) {
	last := &o.spans[len(o.spans)-1]
	switch in := o.region.in[b.Index]; {
	case in && last.End >= 0:
		o.spans = append(o.spans, Span{next, -1})
	case !in && last.End < 0:
		last.End = next - 1
	}
}

// closeBody records the spans of a body whose function's walk ended
// at event next: the last span goes on past the function where the
// function returns only through the region.
func (t *Trace) closeBody(o *openBody, next int32) {
	if last := &o.spans[len(o.spans)-1]; last.End < 0 {
		last.End = next - 1
		if o.region.tail {
			last.End = noEvent
		}
	}
	spans := slices.DeleteFunc(o.spans, func(s Span) bool { return s.End < s.Start })
	if t.bodyOf == nil {
		t.bodyOf = make(map[int32]int32)
	}
	t.bodyOf[o.recv] = int32(len(t.bodySpans))
	t.bodySpans = append(t.bodySpans, spans)
	t.bodyOthers = append(t.bodyOthers, o.others)
}

// openBody starts the region of case i of sel, whose receive is event
// recv, noting the operations of the other cases for deadCases.
func (w *walker) openBody(sel *ssa.Select, i int, recv int32, region *caseRegion) *openBody {
	o := &openBody{recv: recv, region: region, spans: []Span{{recv, -1}}}
	if sel.Blocking {
		o.others = []caseOp{}
		for j, st := range sel.States {
			if j == i || neverDone(w.objs, w.o, st) {
				continue // it is never chosen
			}
			k := Recv
			if st.Dir == types.SendOnly {
				k = Send
			}
			obj, _ := w.syncObj(st.Chan)
			o.others = append(o.others, caseOp{k, obj})
		}
	}
	return o
}

// unboundDead makes the receive of a case body whose select's other
// cases are all dead (deadCases) order all that follows it: the select
// performs that case for sure.
func (t *Trace) unboundDead(dead func(*Event) bool) {
	for recv, i := range t.bodyOf {
		others := t.bodyOthers[i]
		if others == nil {
			continue
		}
		if !slices.ContainsFunc(others, func(c caseOp) bool { return !dead(&Event{Kind: c.kind, Obj: c.obj}) }) {
			delete(t.bodyOf, recv)
		}
	}
}

// bodyAt returns, for an edge that lands at event at, the number of
// the spans it lands in (see Edge.Body): 1 + the index in bodySpans
// when the event before at is a case body's receive, 0 otherwise.
func (t *Trace) bodyAt(at int32) int32 {
	if i, ok := t.bodyOf[at-1]; ok {
		return i + 1
	}
	return 0
}
