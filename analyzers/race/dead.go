package race

import (
	"go/constant"
	"go/token"

	"github.com/origo-dev/origo/passes/dataflow"
	"golang.org/x/tools/go/ssa"
)

// unreachable reports whether instr is in a block that no execution
// reaches: behind a branch whose condition folds to a constant, as in
// "if y == 1 && x == 1" where y is a local still 0. An access there
// races with nothing.
func (c *checker) unreachable(instr ssa.Instruction) bool {
	fn := instr.Parent()
	live, ok := c.live[fn]
	if !ok {
		live = liveBlocks(fn)
		if c.live == nil {
			c.live = make(map[*ssa.Function][]bool)
		}
		c.live[fn] = live
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
// comparison of two constants, or the negation of either.
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
	case *ssa.BinOp:
		x, okX := v.X.(*ssa.Const)
		y, okY := v.Y.(*ssa.Const)
		if !okX || !okY || x.Value == nil || y.Value == nil {
			return false, false
		}
		switch v.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			if x.Value.Kind() == y.Value.Kind() || isNumeric(x.Value) && isNumeric(y.Value) {
				return constant.Compare(x.Value, v.Op, y.Value), true
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
