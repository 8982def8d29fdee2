package deadlock

import (
	"go/constant"
	"go/token"
	"math"

	"golang.org/x/tools/go/ssa"
)

// Different elements, different mutexes (rule other-elements). The
// mutexes of two elements of one slice or array are two mutexes when
// their indices never meet: first := envs[0] and env := envs[i] in a
// loop whose i starts at 1 and only grows. A function that locks
// first.mu and then each env.mu locks n mutexes, each once; the
// syntactic key of the lockset (an element of envs, then .mu) is one for
// all of them.

// differentElements reports whether the mutexes a and b are reached
// through the same path from elements of one slice or array at indices
// that never meet.
func differentElements(a, b ssa.Value) bool {
	ba, ia, pa := elementOf(a)
	bb, ib, pb := elementOf(b)
	if ba == nil || !sameValue(ba, bb) || pa != pb {
		return false
	}
	loA, hiA, okA := indexRange(ia)
	loB, hiB, okB := indexRange(ib)
	return okA && okB && (hiA < loB || hiB < loA)
}

// elementOf follows v back through field addresses and loads to the
// element of a slice or array it is reached from: the slice, the
// index, and the number of steps on the way (two mutexes of one element
// type reached the same way take as many).
func elementOf(v ssa.Value) (base, index ssa.Value, steps int) {
	for steps = 0; steps < 16; steps++ {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil, nil, 0
			}
			v = x.X
		case *ssa.IndexAddr:
			return x.X, x.Index, steps
		case *ssa.Index:
			return x.X, x.Index, steps
		default:
			return nil, nil, 0
		}
	}
	return nil, nil, 0
}

// indexRange returns bounds of the values an index takes: a constant's
// value, or, for a loop's index (a phi of constants and of itself
// plus a positive constant), its smallest start and no upper bound.
func indexRange(v ssa.Value) (lo, hi int64, ok bool) {
	if k, ok := intConst(v); ok {
		return k, k, true
	}
	phi, isPhi := v.(*ssa.Phi)
	if !isPhi {
		return 0, 0, false
	}
	lo, hi = math.MaxInt64, math.MinInt64
	starts := false
	for _, e := range phi.Edges {
		if k, ok := intConst(e); ok {
			lo, hi, starts = min(lo, k), max(hi, k), true
			continue
		}
		add, isAdd := e.(*ssa.BinOp)
		if !isAdd || add.Op != token.ADD {
			return 0, 0, false
		}
		step, ok := intConst(add.Y)
		if add.X != v || !ok || step <= 0 {
			return 0, 0, false
		}
		hi = math.MaxInt64 // it grows
	}
	return lo, hi, starts
}

// intConst returns the value of an integer constant.
func intConst(v ssa.Value) (int64, bool) {
	k, ok := v.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(k.Value)
}

// sameValue reports whether a and b are one value, or loads of one field
// path from it (g.nodes twice), as the lockset's keys take them.
func sameValue(a, b ssa.Value) bool {
	for range 16 {
		if a == b {
			return true
		}
		switch x := a.(type) {
		case *ssa.UnOp:
			y, ok := b.(*ssa.UnOp)
			if !ok || x.Op != token.MUL || y.Op != token.MUL {
				return false
			}
			a, b = x.X, y.X
		case *ssa.FieldAddr:
			y, ok := b.(*ssa.FieldAddr)
			if !ok || x.Field != y.Field {
				return false
			}
			a, b = x.X, y.X
		default:
			return false
		}
	}
	return false
}
