package ownership

import (
	"go/constant"

	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/runflag"
	"github.com/origo-dev/origo/passes/shb"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// A flag set once, before the goroutines that test it start:
//
//	n.isNop.Store(true)
//	b.RunParallel(func(pb *testing.PB) { ... n.nop() ... })
//
//	func (c *concreteNop) nop() {
//		if c.isNop.Load() {
//			return
//		}
//		c.i++
//	}
//
// Every write of the flag stores the same value, true, and one of them
// happens before the goroutine starts: every Load there returns true,
// and c.i++ never runs in that goroutine.

// flagKey is an access in a trace.
type flagKey struct {
	instr ssa.Instruction
	t     *shb.Trace
}

// flagSkipped reports whether acc runs, in trace t, only where a Load of
// an atomic.Bool returned false, though every write of that Bool stores
// true and one of them happens before t's goroutine starts.
func (q *Query) flagSkipped(acc pointer.Access, t *shb.Trace) bool {
	if acc.Imported != nil || t.Origin.Parent == nil {
		return false
	}
	k := flagKey{acc.Instr, t}
	if v, ok := q.flags[k]; ok {
		return v
	}
	v := false
	if load := falseLoad(acc.Instr); load != nil {
		if locs := q.ptr.PointsToIn(t.Origin, load.Call.Args[0]); len(locs) == 1 {
			v = q.setBefore(locs[0], t)
		}
	}
	if q.flags == nil {
		q.flags = make(map[flagKey]bool)
	}
	q.flags[k] = v
	return v
}

// setBefore reports whether every write of the atomic flag at loc stores
// true, and one of them happens before trace t's first event.
func (q *Query) setBefore(loc pointer.Location, t *shb.Trace) bool {
	sets, ok := q.flagSets(loc)
	if !ok {
		return false
	}
	for _, s := range sets {
		if s.t != t && q.order.HappensBefore(s.t, s.id, t, 0, false) {
			return true
		}
	}
	return false
}

// flagSet is an event that stores true in a flag.
type flagSet struct {
	t  *shb.Trace
	id int32
}

// flagSets returns the events that write the atomic flag at loc, once
// for all the accesses it guards; false when one of its writes is not a
// Store of true.
func (q *Query) flagSets(loc pointer.Location) ([]flagSet, bool) {
	if sets, ok := q.flagWrites[loc]; ok {
		return sets, sets != nil
	}
	sets := q.findFlagSets(loc)
	if q.flagWrites == nil {
		q.flagWrites = make(map[pointer.Location][]flagSet)
	}
	q.flagWrites[loc] = sets
	return sets, sets != nil
}

func (q *Query) findFlagSets(loc pointer.Location) []flagSet {
	for _, acc := range q.ptr.Accesses() {
		if acc.Loc == loc && acc.Write && !acc.Atomic {
			return nil // a plain write: the flag may be zeroed
		}
	}
	sets := []flagSet{}
	for _, w := range q.hb.Traces {
		for i := range w.Events {
			ev := &w.Events[i]
			if ev.Kind != shb.AtomicWrite || ev.Obj < 0 || q.hb.Location(ev.Obj) != loc {
				continue
			}
			if !storesTrue(ev.Instr) {
				return nil
			}
			sets = append(sets, flagSet{w, ev.ID})
		}
	}
	return sets
}

// storesTrue reports whether instr is a Store of the constant true.
func storesTrue(instr ssa.Instruction) bool {
	call, ok := instr.(ssa.CallInstruction)
	if !ok {
		return false
	}
	fn := call.Common().StaticCallee()
	if fn == nil || syncapi.Atomic(fn) != syncapi.AtomicWrite {
		return false
	}
	k, ok := syncapi.AtomicOperand(syncapi.AtomicWrite, call.Common()).(*ssa.Const)
	return ok && k.Value != nil && k.Value.Kind() == constant.Bool && constant.BoolVal(k.Value)
}

// falseLoad returns the atomic Load of a bool whose result is false
// wherever instr runs: a branch on it (or on its negation) dominates
// instr's block by the false edge. Nil when there is none.
func falseLoad(instr ssa.Instruction) *ssa.Call {
	for cond, value := range runflag.Conditions(instr) {
		call, ok := cond.(*ssa.Call)
		if !ok || value {
			continue
		}
		if fn := call.Call.StaticCallee(); fn != nil && syncapi.Atomic(fn) == syncapi.AtomicLoad && len(call.Call.Args) == 1 {
			return call
		}
	}
	return nil
}
