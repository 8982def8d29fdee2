package lockset

import (
	"go/constant"
	"slices"
	"strconv"
	"strings"

	"github.com/origo-dev/origo/passes/dataflow"
	"golang.org/x/tools/go/ssa"
)

// A Lit says that a boolean parameter of a function (by index, the
// receiver first) has a value in a call: the call passes a constant, or
// a parameter of its own that its caller gave one.
type Lit struct {
	Param int
	Val   bool
}

// Lits is what a call fixes of its callee's boolean parameters, sorted
// by parameter; nil when nothing.
type Lits []Lit

// String names lits, for a cache key: "" for none.
func (lits Lits) String() string {
	var b strings.Builder
	for _, l := range lits {
		b.WriteString(strconv.Itoa(l.Param))
		if l.Val {
			b.WriteString("t")
		} else {
			b.WriteString("f")
		}
	}
	return b.String()
}

// Decide returns what call, a call of callee in a function whose own
// boolean parameters have the values known, fixes of the boolean
// parameters that callee's ifs test or that it passes on to a call: a
// constant argument, or one of the caller's parameters known there, or
// its negation. The rest may have either value.
func Decide(call *ssa.CallCommon, callee *ssa.Function, known Lits) Lits {
	if call == nil || callee == nil || call.IsInvoke() || len(call.Args) != len(callee.Params) {
		return nil
	}
	var lits Lits
	for _, p := range decided(callee) {
		i := slices.Index(callee.Params, p)
		if i < 0 || slices.ContainsFunc(lits, func(l Lit) bool { return l.Param == i }) {
			continue
		}
		switch arg := call.Args[i].(type) {
		case *ssa.Const:
			if arg.Value != nil && arg.Value.Kind() == constant.Bool {
				lits = append(lits, Lit{i, constant.BoolVal(arg.Value)})
			}
		default:
			q, pos := boolParamOf(arg)
			if q == nil {
				continue
			}
			j := slices.Index(q.Parent().Params, q)
			if k := slices.IndexFunc(known, func(l Lit) bool { return l.Param == j }); k >= 0 {
				lits = append(lits, Lit{i, known[k].Val == pos})
			}
		}
	}
	slices.SortFunc(lits, func(a, b Lit) int { return a.Param - b.Param })
	return lits
}

// decided returns the boolean parameters of fn that a call may decide
// for it: those its ifs test, and those it passes on to a call.
func decided(fn *ssa.Function) []*ssa.Parameter {
	var ps []*ssa.Parameter
	for _, b := range fn.Blocks {
		if p := testedParam(b); p != nil {
			ps = append(ps, p)
		}
		for _, instr := range b.Instrs {
			c, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			for _, arg := range c.Call.Args {
				if p, _ := boolParamOf(arg); p != nil && p.Parent() == fn {
					ps = append(ps, p)
				}
			}
		}
	}
	return ps
}

// Live returns, by block index, the blocks of fn that run in a call
// that fixes lits: an if on one of those parameters (or its negation)
// takes only the branch its value selects.
func Live(fn *ssa.Function, lits Lits) []bool {
	return dataflow.Reachable(fn, lits.decide(fn))
}

// decide returns the decision of an if's condition by lits, for fn.
func (lits Lits) decide(fn *ssa.Function) func(cond ssa.Value) (bool, bool) {
	return func(cond ssa.Value) (bool, bool) {
		p, pos := boolParamOf(cond)
		if p == nil {
			return false, false
		}
		i := slices.Index(fn.Params, p)
		if k := slices.IndexFunc(lits, func(l Lit) bool { return l.Param == i }); k >= 0 {
			return lits[k].Val == pos, true
		}
		return false, false
	}
}

// FuncWhen returns the locksets of fn's instructions in a call that
// fixes lits of its boolean parameters (see Decide): an if on one of
// them takes only the branch its value selects, so that "if lock {
// mu.Lock(); defer mu.Unlock() }" holds mu below it in a call that
// passes true, as Func, which meets both branches, does not. The
// instructions of blocks that do not run hold nothing. Solved anew at
// each call, in a scratch table (see Func).
func (r *Result) FuncWhen(fn *ssa.Function, lits Lits) Func {
	if len(lits) == 0 || len(fn.Blocks) == 0 {
		return r.Func(fn)
	}
	n := 0
	for _, b := range fn.Blocks {
		n += len(b.Instrs)
	}
	fi := &funcInfo{before: make(map[ssa.Instruction]Set, n)}
	decide := lits.decide(fn)
	r.scratch().solveBefore(fn, fi, func(b *ssa.BasicBlock, i int) bool {
		if len(b.Instrs) == 0 || len(b.Succs) != 2 {
			return true
		}
		br, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			return true
		}
		v, ok := decide(br.Cond)
		return !ok || v == (i == 0) // If's true branch is Succs[0]
	})
	return Func{fi.before}
}
