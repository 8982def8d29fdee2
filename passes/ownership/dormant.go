package ownership

import (
	"go/constant"

	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// A dormant timer. time.AfterFunc(d, f) with d a long constant (a
// second or more; pgx arms its slow-write timer for math.MaxInt64) and
// the timer stopped at once, before any other call, runs f only after a
// Reset. Until the function that made the timer resets it, f runs in no
// goroutine, so the closure publishes nothing it captures: the writes
// that follow, up to the object's real publication, are its maker's
// (not-published). Another goroutine can reset the timer only once it
// has reached the object that holds it, after that publication.

// dormantTimer reports whether the closure c is the function of a
// dormant timer: c's one use is time.AfterFunc with a long constant
// duration, whose timer the next call of its block stops, and the
// function never resets a timer itself.
func dormantTimer(c *ssa.MakeClosure) bool {
	var after *ssa.Call
	for _, r := range *c.Referrers() {
		switch x := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			if op, _, d := syncapi.Timer(x); op != syncapi.TimerNew || after != nil || len(x.Call.Args) != 2 || x.Call.Args[1] != c || !longConst(d) {
				return false
			}
			after = x
		default:
			return false
		}
	}
	if after == nil {
		return false
	}
	stopped := false
	b := after.Block()
	for _, instr := range b.Instrs[indexOf(after)+1:] {
		call, ok := instr.(ssa.CallInstruction)
		if !ok {
			continue
		}
		if op, tm, _ := syncapi.Timer(call); op == syncapi.TimerStop && sameTimer(tm, after) {
			stopped = true
		}
		break // the first call of the block after AfterFunc
	}
	if !stopped {
		return false
	}
	for _, blk := range after.Parent().Blocks {
		for _, instr := range blk.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				if op, _, _ := syncapi.Timer(call); op == syncapi.TimerReset {
					return false
				}
			}
		}
	}
	return true
}

// longConst reports whether d is a constant duration of LongTimer or
// more.
func longConst(d ssa.Value) bool {
	c, ok := d.(*ssa.Const)
	if !ok || c.Value == nil {
		return false
	}
	n, exact := constant.Int64Val(constant.ToInt(c.Value))
	return exact && n >= int64(syncapi.LongTimer)
}

// sameTimer reports whether tm, the operand of a Stop, is the timer
// that the AfterFunc call after returned: the call itself, or a load of
// the field the call's result was stored into, on the same base.
func sameTimer(tm ssa.Value, after *ssa.Call) bool {
	if tm == after {
		return true
	}
	ld, ok := tm.(*ssa.UnOp)
	if !ok {
		return false
	}
	for _, r := range *after.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Val == after {
			if sameAddr(st.Addr, ld.X) {
				return true
			}
		}
	}
	return false
}

// sameAddr reports whether two addresses are the same field of the
// same value, or the same value.
func sameAddr(x, y ssa.Value) bool {
	if x == y {
		return true
	}
	fx, ok1 := x.(*ssa.FieldAddr)
	fy, ok2 := y.(*ssa.FieldAddr)
	return ok1 && ok2 && fx.Field == fy.Field && (fx.X == fy.X || denoted(fx.X) == denoted(fy.X))
}
