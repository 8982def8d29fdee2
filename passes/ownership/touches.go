package ownership

import (
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// The pointer analysis merges what the callers of a function give it,
// so an access in a helper seems to touch every object that any caller
// passes: Init, called on the notifier of a lessor literal in one test,
// meets the runLoop of another test's lessor. Each event of a trace
// notes the chain of calls the walk made it in (shb.Trace.Frames); there
// the access's address is followed from the caller's own argument, in
// the context where a constructor's objects are told apart by call site.
// An event that cannot touch the object of a pair is no part of it, and
// neither is one that, along its chain, touches an object a caller made
// and has not published yet (see freshAlong).

// touches reports whether event x of trace t, an execution of acc, may
// touch obj: true unless its chain shows it cannot.
func (q *Query) touches(t *shb.Trace, x int32, acc pointer.Access, obj *pointer.Object) bool {
	if acc.Imported != nil {
		return true // touchedBy does not tell
	}
	// An event is one instruction, and an access of it a read or a
	// write: the memo is by trace and event, in slices, as this is asked
	// of every pair of events.
	if q.touched == nil {
		q.touched = make([][][2]touchMemo, len(q.ptr.Origins))
	}
	memo := q.touched[t.Origin.ID]
	if memo == nil {
		memo = make([][2]touchMemo, len(t.Events))
		q.touched[t.Origin.ID] = memo
	}
	m := &memo[x][b2i(acc.Write)]
	if !m.done {
		all, _ := t.AllFrames(x) // nil when they are not known
		m.objs, m.fresh, m.done = q.touchedBy(t, all, acc), q.freshAlong(all, acc), true
	}
	return !m.fresh && (m.objs == nil || m.objs[obj])
}

// touchMemo is what touchedBy found for an event.
type touchMemo struct {
	done  bool
	fresh bool // see freshAlong
	objs  map[*pointer.Object]bool
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// touchKey is an execution of an access in a trace.
type touchKey struct {
	t     *shb.Trace
	x     int32
	instr ssa.Instruction
	write bool
}

// freshAlong reports whether an execution of acc made along every chain
// of calls of all (the chains its event stands for, see
// shb.Trace.AllFrames) touches an object that the chain shows
// unpublished; false for no chain.
func (q *Query) freshAlong(all [][]pointer.Frame, acc pointer.Access) bool {
	if len(all) == 0 {
		return false
	}
	for _, frames := range all {
		if len(frames) <= 1 || !q.fresh.freshAlong(frames, acc) {
			return false
		}
	}
	return true
}

// touchedBy returns the objects that an execution of acc in trace t,
// made along any of the chains of calls of all, may touch; nil when they
// do not tell.
func (q *Query) touchedBy(t *shb.Trace, all [][]pointer.Frame, acc pointer.Access) map[*pointer.Object]bool {
	addr := accessedAddr(acc)
	if addr == nil || len(all) == 0 {
		return nil
	}
	objs := make(map[*pointer.Object]bool)
	for _, frames := range all {
		if len(frames) == 0 || frames[len(frames)-1].Fn != acc.Instr.Parent() {
			return nil
		}
		locs, ok := q.ptr.PointsToAlong(t.Origin, frames, addr)
		if !ok {
			return nil
		}
		for _, l := range locs {
			objs[l.Obj] = true
		}
	}
	return objs
}
