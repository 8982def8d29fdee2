package ownership

import (
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// A worker loop that calls wg.Done once per item (for { ...; work();
// wg.Done() }) orders each item's work before Wait returns: Wait waits
// for every Done, and each item's Done comes after its work. The graph
// lets an event in a loop precede only the edges that leave after the
// loop, since the next iteration runs after the edge; but an access
// followed, on every path of its iteration, by a Done is ordered by
// that Done, as the Done of the last iteration is.

// doneAfter reports whether event x of trace t (access a) happens
// before event y of trace u through a WaitGroup Done that follows x in
// its loop iteration on every path.
func (q *Query) doneAfter(t *shb.Trace, x int32, a pointer.Access, u *shb.Trace, y int32) bool {
	k := touchKey{t, x, a.Instr, a.Write}
	edges, ok := q.dones[k]
	if !ok {
		edges = q.doneEdges(t, x, a)
		if q.dones == nil {
			q.dones = make(map[touchKey][]shb.Edge)
		}
		q.dones[k] = edges
	}
	for _, e := range edges {
		if e.To == u && e.At <= y || int(e.At) < len(e.To.Events) && q.order.HappensBefore(e.To, e.At, u, y, false) {
			return true
		}
	}
	return false
}

// doneEdges returns the Wait edges that a Done following event x of t
// on every path of its iteration orders x before.
func (q *Query) doneEdges(t *shb.Trace, x int32, a pointer.Access) []shb.Edge {
	ev := &t.Events[x]
	if ev.Loop < 0 {
		return nil
	}
	end := t.Loops[ev.Loop].End
	frames, ok := t.Frames(x)
	if !ok {
		return nil
	}
	for d := x + 1; d <= end; d++ {
		done := &t.Events[d]
		if done.Kind != shb.WGDone || done.Loop != ev.Loop {
			continue
		}
		at := callIn(frames, a.Instr, done.Instr.Parent())
		if at == nil || !postDominates(done.Instr, at) {
			continue
		}
		// The Wait edge leaves from the trace's last Done on the group,
		// at or after d in the loop: Wait waits for that one too.
		var edges []shb.Edge
		for _, e := range t.Out {
			if e.Before < d || e.Before > end || e.From > x {
				continue
			}
			if src := &t.Events[e.Before]; src.Kind == shb.WGDone && src.Obj == done.Obj {
				edges = append(edges, e)
			}
		}
		return edges
	}
	return nil
}

// callIn returns the instruction of fn on the chain of frames that leads
// to instr: instr itself, or the call that fn makes on the way.
func callIn(frames []pointer.Frame, instr ssa.Instruction, fn *ssa.Function) ssa.Instruction {
	if instr.Parent() == fn {
		return instr
	}
	for k := len(frames) - 1; k > 0; k-- {
		if frames[k-1].Fn == fn && frames[k].Site != nil {
			return frames[k].Site
		}
	}
	return nil
}

// postDominates reports whether every path from instr to the end of
// its function passes d, of the same function.
func postDominates(d, instr ssa.Instruction) bool {
	if d.Parent() != instr.Parent() {
		return false
	}
	db, ib := d.Block(), instr.Block()
	if db == ib && indexOf(instr) < indexOf(d) {
		return true
	}
	if len(ib.Succs) == 0 {
		return false // instr's block returns without passing d after it
	}
	// No exit is reachable from instr's block without passing d's.
	for b := range walkBlocks(ib, db, func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Succs }) {
		if len(b.Succs) == 0 {
			return false
		}
	}
	return true
}
