package shb

import (
	"github.com/origo-dev/origo/passes/pointer"
	"golang.org/x/tools/go/ssa"
)

// The walk inlines calls into a trace; each event notes the chain of
// calls it was made in, from the function the origin runs, so that the
// race analysis can ask what an access touches there (see Trace.Frames):
// the pointer analysis merges, in a function called from several
// places, what each caller gives it (Init of the notifier one test made
// and of the one another test made), but tells apart the objects of a
// constructor by call site, and each caller's own values. An event that
// stands for several chains (an access merged with the same access of
// another chain, a call skipped as the same walk as an earlier one) has
// none.

// chainLink is one call of a chain: the chain of its caller, the call
// site and the function called.
type chainLink struct {
	parent int32
	site   ssa.CallInstruction
	fn     *ssa.Function
}

// link returns the number of the chain that the walk's chain continues
// with a call of fn at site.
func (w *walker) link(site ssa.CallInstruction, fn *ssa.Function) int32 {
	l := chainLink{w.chain, site, fn}
	if id, ok := w.links[l]; ok {
		return id
	}
	id := int32(len(w.tr.chains))
	w.tr.chains = append(w.tr.chains, l)
	w.links[l] = id
	return id
}

// severalChains marks the events from up to to as standing for several
// chains.
func (w *walker) severalChains(from, to int32) {
	for id := from; id < to && int(id) < len(w.tr.Events); id++ {
		w.tr.Events[id].Chain = -1
	}
}

// Frames returns the chain of calls that event id was made in, from the
// function the trace's origin runs; false when the event stands for
// several chains.
func (t *Trace) Frames(id int32) ([]pointer.Frame, bool) {
	c := t.Events[id].Chain
	if c < 0 {
		return nil, false
	}
	var frames []pointer.Frame
	for ; c >= 0; c = t.chains[c].parent {
		l := t.chains[c]
		frames = append(frames, pointer.Frame{Site: l.site, Fn: l.fn})
	}
	for i, j := 0, len(frames)-1; i < j; i, j = i+1, j-1 {
		frames[i], frames[j] = frames[j], frames[i]
	}
	return frames, true
}
