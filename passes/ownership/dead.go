package ownership

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/passes/dataflow"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// unreachable reports whether instr is in a block that no execution
// reaches: behind a branch whose condition folds to a constant, as in
// "if y == 1 && x == 1" where y is a local still 0. An access there
// races with nothing.
func (q *Query) unreachable(instr ssa.Instruction) bool {
	fn := instr.Parent()
	live, ok := q.live[fn]
	if !ok {
		live = liveBlocks(fn)
		if q.live == nil {
			q.live = make(map[*ssa.Function][]bool)
		}
		q.live[fn] = live
	}
	b := instr.Block()
	return live != nil && b != nil && b.Index < len(live) && !live[b.Index]
}

// liveBlocks marks the blocks of fn reachable from its entry through
// branches that are not decided by a constant the other way; nil when
// every block is.
func liveBlocks(fn *ssa.Function) []bool {
	if len(fn.Blocks) == 0 {
		return nil
	}
	live := dataflow.Reachable(fn, fold)
	for _, l := range live {
		if !l {
			return live
		}
	}
	return nil
}

// fold evaluates a boolean condition made of constants: a constant, a
// comparison of two constants, or the negation of either, where a load
// of a local variable may be a constant (see loaded).
func fold(v ssa.Value) (value, ok bool) {
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value != nil && v.Value.Kind() == constant.Bool {
			return constant.BoolVal(v.Value), true
		}
	case *ssa.UnOp:
		if v.Op == token.NOT {
			if x, ok := fold(v.X); ok {
				return !x, true
			}
		}
		if v.Op == token.MUL {
			if c, ok := loaded(v); ok && c.Kind() == constant.Bool {
				return constant.BoolVal(c), true
			}
		}
	case *ssa.BinOp:
		x, okX := constOf(v.X)
		y, okY := constOf(v.Y)
		if !okX || !okY {
			return false, false
		}
		switch v.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			if x.Kind() == y.Kind() || isNumeric(x) && isNumeric(y) {
				return constant.Compare(x, v.Op, y), true
			}
		}
	}
	return false, false
}

func isNumeric(v constant.Value) bool {
	switch v.Kind() {
	case constant.Int, constant.Float, constant.Complex:
		return true
	}
	return false
}

// constOf returns the constant value of v: a constant, or a load that
// loaded finds the value of.
func constOf(v ssa.Value) (constant.Value, bool) {
	switch v := v.(type) {
	case *ssa.Const:
		return v.Value, v.Value != nil
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return loaded(v)
		}
	}
	return nil, false
}

// loaded returns the value a load of a local variable of basic type
// must see: the zero value, when it reads the variable in the block
// that declares it before anything else uses its address ("var b byte;
// if b != 0"); or the one constant that every store to the variable
// writes, when one of them comes before every load, and before every
// closure that captures it ("z := 1; go func() { if z == 2 {...} }()").
func loaded(load *ssa.UnOp) (constant.Value, bool) {
	addr := load.X
	if fv, ok := addr.(*ssa.FreeVar); ok {
		addr = syncapi.Binding(fv)
	}
	alloc, ok := addr.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	basic, ok := alloc.Type().(*types.Pointer).Elem().Underlying().(*types.Basic)
	if !ok {
		return nil, false
	}
	if load.X == alloc && load.Block() == alloc.Block() && untouchedBefore(alloc, load) {
		return zeroOf(basic)
	}
	return storedConst(alloc)
}

// untouchedBefore reports whether no instruction between alloc and
// load, in their block, uses alloc but to load it.
func untouchedBefore(alloc *ssa.Alloc, load *ssa.UnOp) bool {
	instrs := alloc.Block().Instrs
	start, end := slices.Index(instrs, ssa.Instruction(alloc)), slices.Index(instrs, ssa.Instruction(load))
	if start < 0 || end < start {
		return false
	}
	for _, instr := range instrs[start+1 : end] {
		if u, ok := instr.(*ssa.UnOp); ok && u.Op == token.MUL {
			continue
		}
		for _, op := range instr.Operands(nil) {
			if *op == alloc {
				return false
			}
		}
	}
	return true
}

// storedConst returns the constant that every store to alloc writes,
// through the variable or a closure's free variable bound to it, when
// one of the stores in alloc's function dominates each load there and
// each closure made of it; the variable is used for nothing else.
func storedConst(alloc *ssa.Alloc) (constant.Value, bool) {
	var val constant.Value
	var stores []*ssa.Store
	var uses []ssa.Instruction // loads and closures, which must follow a store
	var visit func(addr ssa.Value, home bool) bool
	visit = func(addr ssa.Value, home bool) bool {
		for _, ref := range *addr.Referrers() {
			switch ref := ref.(type) {
			case *ssa.Store:
				c, ok := ref.Val.(*ssa.Const)
				if ref.Addr != addr || !ok || c.Value == nil || val != nil && !constant.Compare(val, token.EQL, c.Value) {
					return false
				}
				val = c.Value
				if home {
					stores = append(stores, ref)
				}
			case *ssa.UnOp:
				if ref.Op != token.MUL {
					return false
				}
				if home {
					uses = append(uses, ref)
				}
			case *ssa.MakeClosure:
				i := slices.Index(ref.Bindings, addr)
				if i < 0 || !home || !visit(ref.Fn.(*ssa.Function).FreeVars[i], false) {
					return false
				}
				uses = append(uses, ref)
			case *ssa.DebugRef:
			default:
				return false
			}
		}
		return true
	}
	if !visit(alloc, true) || val == nil {
		return nil, false
	}
	for _, u := range uses {
		if !slices.ContainsFunc(stores, func(st *ssa.Store) bool { return dataflow.Precedes(st, u) }) {
			return nil, false
		}
	}
	return val, true
}

// zeroOf returns the zero value of a basic type.
func zeroOf(t *types.Basic) (constant.Value, bool) {
	switch {
	case t.Info()&types.IsBoolean != 0:
		return constant.MakeBool(false), true
	case t.Info()&types.IsString != 0:
		return constant.MakeString(""), true
	case t.Info()&types.IsInteger != 0:
		return constant.MakeInt64(0), true
	case t.Info()&types.IsFloat != 0:
		return constant.MakeFloat64(0), true
	}
	return nil, false
}
