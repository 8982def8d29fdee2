package shb

import (
	"slices"

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
	return t.frames(c), true
}

// frames returns chain c, from its first call.
func (t *Trace) frames(c int32) []pointer.Frame {
	var frames []pointer.Frame
	for ; c >= 0; c = t.chains[c].parent {
		l := t.chains[c]
		frames = append(frames, pointer.Frame{Site: l.site, Fn: l.fn})
	}
	slices.Reverse(frames)
	return frames
}

// callees returns the functions that the dynamic call c may call in the
// chain being walked: of those the pointer analysis finds in the origin,
// the ones that the function value may be there, followed back through
// the chain's parameters (withRetry(op) calls the op its caller passed,
// not every op given to withRetry anywhere).
func (w *walker) callees(c ssa.CallInstruction) []*ssa.Function {
	all := w.ptr.Callees(w.o, c)
	common := c.Common()
	if len(all) < 2 || common.IsInvoke() || common.StaticCallee() != nil || w.chain < 0 {
		return all
	}
	if _, ok := common.Value.(*ssa.Parameter); !ok {
		if _, ok := common.Value.(*ssa.FreeVar); !ok {
			return all // made here: the analysis of this function is as precise
		}
	}
	frames := w.tr.frames(w.chain)
	if len(frames) == 0 || frames[len(frames)-1].Fn != c.Parent() {
		return all
	}
	locs, ok := w.ptr.PointsToAlong(w.o, frames, common.Value)
	if !ok {
		return all
	}
	var fns []*ssa.Function
	for _, l := range locs {
		fn := l.Obj.Func()
		if fn == nil {
			return all // not only functions: not known here
		}
		if !slices.Contains(fns, fn) {
			fns = append(fns, fn)
		}
	}
	var out []*ssa.Function
	for _, fn := range all {
		if slices.Contains(fns, fn) {
			out = append(out, fn)
		}
	}
	if len(out) == 0 {
		return all
	}
	if len(out) < len(all) {
		w.narrowed++
	}
	return out
}
