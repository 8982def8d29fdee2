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
// its negation. The rest may have either value. A function literal's
// free variables count as parameters too (Lit.Param -1 - i for free
// variable i): one that holds a parameter of its maker for good (a
// deferred func() { if writable { ... } }()) has that parameter's value.
func Decide(call *ssa.CallCommon, callee *ssa.Function, known Lits) Lits {
	if call == nil || callee == nil || call.IsInvoke() || len(call.Args) != len(callee.Params) {
		return nil
	}
	var bindings []ssa.Value
	if mc, ok := call.Value.(*ssa.MakeClosure); ok {
		bindings = mc.Bindings
	}
	var lits Lits
	for _, i := range decided(callee) {
		if slices.ContainsFunc(lits, func(l Lit) bool { return l.Param == i }) {
			continue
		}
		var arg ssa.Value
		switch {
		case i >= 0:
			arg = call.Args[i]
		case -1-i < len(bindings):
			p, ok := Spilled(bindings[-1-i])
			if !ok {
				continue
			}
			arg = p
		default:
			continue
		}
		if k, ok := arg.(*ssa.Const); ok {
			if k.Value != nil && k.Value.Kind() == constant.Bool {
				lits = append(lits, Lit{i, constant.BoolVal(k.Value)})
			}
			continue
		}
		if j, pos, ok := boolVarOf(arg); ok {
			if k := slices.IndexFunc(known, func(l Lit) bool { return l.Param == j }); k >= 0 {
				lits = append(lits, Lit{i, known[k].Val == pos})
			}
		}
	}
	slices.SortFunc(lits, func(a, b Lit) int { return a.Param - b.Param })
	return lits
}

// boolVarOf returns the parameter (by index) or the free variable (-1
// - i) of its own function that the boolean x is, or whose negation it
// is (pos false): see boolVar.
func boolVarOf(x ssa.Value) (i int, pos, ok bool) {
	v, pos := boolVar(x)
	switch v := v.(type) {
	case *ssa.Parameter:
		return slices.Index(v.Parent().Params, v), pos, true
	case *ssa.FreeVar:
		return -1 - slices.Index(v.Parent().FreeVars, v), pos, true
	}
	return 0, false, false
}

// decided returns the boolean parameters and free variables of fn (as
// Lit.Param numbers them) that a call may decide for it: those its ifs
// test, and those it passes on to a call.
func decided(fn *ssa.Function) []int {
	var is []int
	add := func(x ssa.Value) {
		if i, _, ok := boolVarOf(x); ok && !slices.Contains(is, i) {
			is = append(is, i)
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.If:
				add(instr.Cond)
			case ssa.CallInstruction:
				if _, isGo := instr.(*ssa.Go); isGo {
					continue
				}
				for _, arg := range instr.Common().Args {
					add(arg)
				}
				if mc, ok := instr.Common().Value.(*ssa.MakeClosure); ok {
					for _, b := range mc.Bindings {
						if p, ok := Spilled(b); ok {
							add(p)
						}
					}
				}
			}
		}
	}
	return is
}

// Live returns, by block index, the blocks of fn that run in a call
// that fixes lits: an if on one of those parameters (or its negation)
// takes only the branch its value selects.
func Live(fn *ssa.Function, lits Lits) []bool {
	return dataflow.Reachable(fn, lits.decide())
}

// decide returns the decision of an if's condition by lits.
func (lits Lits) decide() func(cond ssa.Value) (bool, bool) {
	return func(cond ssa.Value) (bool, bool) {
		i, pos, ok := boolVarOf(cond)
		if !ok {
			return false, false
		}
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
	decide := lits.decide()
	// branch returns the value lits give the condition of the if that
	// ends b, if any.
	branch := func(b *ssa.BasicBlock) (v, ok bool) {
		if len(b.Instrs) == 0 {
			return false, false
		}
		if br, isIf := b.Instrs[len(b.Instrs)-1].(*ssa.If); isIf {
			return decide(br.Cond)
		}
		return false, false
	}
	if !slices.ContainsFunc(fn.Blocks, func(b *ssa.BasicBlock) bool { _, ok := branch(b); return ok }) {
		return r.Func(fn) // no lits, or lits only passed on: no branch is cut here
	}
	n := 0
	for _, b := range fn.Blocks {
		n += len(b.Instrs)
	}
	fi := &funcInfo{before: make(map[ssa.Instruction]Set, n)}
	r.scratch().solveBefore(fn, fi, func(b *ssa.BasicBlock, i int) bool {
		v, ok := branch(b)
		return !ok || v == (i == 0) // If's true branch is Succs[0]
	})
	return Func{fi.before, fi.blocked}
}
