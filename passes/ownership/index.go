package ownership

import (
	"go/constant"
	"go/token"

	"github.com/origo-dev/origo/passes/pointer"
	"golang.org/x/tools/go/ssa"
)

// span is a range of element indices, both ends included.
type span struct{ lo, hi int64 }

// elements returns the elements of an array or slice that an access
// touches, when constant indices say which: a[1] = x, copy(a[:5], b).
// The pointer analysis has one location for all elements; constant
// indices that differ still tell two accesses apart.
func elements(acc pointer.Access) (span, bool) {
	var addr ssa.Value
	switch instr := acc.Instr.(type) {
	case *ssa.Store:
		addr = instr.Addr
	case *ssa.UnOp:
		if instr.Op == token.MUL {
			addr = instr.X
		}
	case *ssa.Call:
		if b, ok := instr.Call.Value.(*ssa.Builtin); ok && (b.Name() == "copy") && len(instr.Call.Args) > 0 {
			if s, ok := instr.Call.Args[0].(*ssa.Slice); ok {
				lo, okLo := constIndex(s.Low, 0)
				hi, okHi := constIndex(s.High, -1)
				if okLo && okHi && hi > lo && direct(s.X) {
					return span{lo, hi - 1}, true
				}
			}
		}
		return span{}, false
	}
	ia, ok := addr.(*ssa.IndexAddr)
	if !ok || !direct(ia.X) {
		return span{}, false
	}
	k, ok := constIndex(ia.Index, -1)
	if !ok || k < 0 {
		return span{}, false
	}
	return span{k, k}, true
}

// direct reports whether indices into v count from the start of its
// array: v is not a slice expression that may start further in.
func direct(v ssa.Value) bool {
	_, isSlice := v.(*ssa.Slice)
	return !isSlice
}

// constIndex returns the value of a constant index, or def when v is
// nil (an omitted slice bound).
func constIndex(v ssa.Value, def int64) (int64, bool) {
	if v == nil {
		return def, def >= 0
	}
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(c.Value)
}

// disjoint reports whether two accesses touch different elements.
func disjoint(a, b pointer.Access) bool {
	x, okA := elements(a)
	y, okB := elements(b)
	return okA && okB && (x.hi < y.lo || y.hi < x.lo)
}

// selfStore reports whether acc stores back the value just loaded from
// the same variable: the x = x that go/ssa makes of "return x" for a
// named result x, which the compiler does not emit.
func selfStore(acc pointer.Access) bool {
	st, ok := acc.Instr.(*ssa.Store)
	if !ok {
		return false
	}
	load, ok := st.Val.(*ssa.UnOp)
	return ok && load.Op == token.MUL && load.X == st.Addr
}
