// Package runflag finds the bool fields that record whether a loop runs
// on a goroutine of its own: set true right before the goroutine starts,
// set false right after the send that tells it to stop, both holding
// one mutex, and tested, holding it, by the methods that talk to the
// loop (rule running-flag of package rules). Blocking asks it whether a
// send that reads the flag true finds its receiver; race whether an
// access that reads it false, holding the mutex, is ordered with the
// loop's.
package runflag

import (
	"go/constant"
	"go/token"
	"go/types"
	"iter"
	"slices"

	"github.com/origo-dev/origo/passes/lockset"
	"golang.org/x/tools/go/ssa"
)

// Conditions yields, innermost first, the conditions of the branches
// that dominate instr's block on one edge only, with the value each has
// wherever instr runs; a negation (!c) is yielded as c with the value
// flipped.
func Conditions(instr ssa.Instruction) iter.Seq2[ssa.Value, bool] {
	return func(yield func(ssa.Value, bool) bool) {
		b := instr.Block()
		if b == nil {
			return
		}
		for a := b; a != nil; a = a.Idom() {
			p := a.Idom()
			if p == nil || len(p.Succs) != 2 {
				continue
			}
			iff, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
			if !ok {
				continue
			}
			var value bool // the value of the condition where b runs
			switch {
			case p.Succs[0].Dominates(b) && !p.Succs[1].Dominates(b):
				value = true
			case p.Succs[1].Dominates(b) && !p.Succs[0].Dominates(b):
				value = false
			default:
				continue
			}
			cond := iff.Cond
			for {
				not, ok := cond.(*ssa.UnOp)
				if !ok || not.Op != token.NOT {
					break
				}
				cond, value = not.X, !value
			}
			if !yield(cond, value) {
				return
			}
		}
	}
}

// Guard returns the bool field whose load, tested by a branch that
// dominates instr's block, reads want wherever instr runs (if c.running
// { ... } for true, or the else of it for false); nil when there is
// none.
func Guard(instr ssa.Instruction, want bool) *types.Var {
	for cond, value := range Conditions(instr) {
		load, ok := cond.(*ssa.UnOp)
		if !ok || load.Op != token.MUL || value != want {
			continue
		}
		if f := Field(load.X); f != nil {
			return f
		}
	}
	return nil
}

// Field returns the field that addr is the address of (&x.f), or nil.
func Field(addr ssa.Value) *types.Var { return lockset.FieldOf(addr) }

// ChanField returns the field a channel is loaded from (c.stop), or nil.
func ChanField(v ssa.Value) *types.Var {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	return Field(load.X)
}

// OfNew reports whether addr is a field of an object its function
// allocates itself (&Cron{running: false}): set before anyone else
// reaches it.
func OfNew(addr ssa.Value) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	_, alloc := fa.X.(*ssa.Alloc)
	return alloc
}

// Store is a store of a constant into a flag.
type Store struct {
	Instr *ssa.Store
	Value bool
}

// Stores returns the stores into field in funcs other than those on an
// object just allocated; false when one stores a value that is not a
// constant.
func Stores(funcs []*ssa.Function, field *types.Var) ([]Store, bool) {
	var out []Store
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok || Field(st.Addr) != field || OfNew(st.Addr) {
					continue
				}
				k, ok := st.Val.(*ssa.Const)
				if !ok || k.Value == nil || k.Value.Kind() != constant.Bool {
					return nil, false
				}
				out = append(out, Store{st, constant.BoolVal(k.Value)})
			}
		}
	}
	return out, true
}

// StartAfter returns the first go statement or call of one of fns after
// st in its block (go c.run(), or c.run() on the storing goroutine), or
// nil; deferred calls do not count.
func StartAfter(st ssa.Instruction, fns []*ssa.Function) ssa.CallInstruction {
	b := st.Block()
	for _, instr := range b.Instrs[slices.Index(b.Instrs, st)+1:] {
		call, ok := instr.(ssa.CallInstruction)
		if !ok {
			continue
		}
		if _, isDefer := instr.(*ssa.Defer); isDefer {
			continue
		}
		if fn := call.Common().StaticCallee(); fn != nil && slices.Contains(fns, fn) {
			return call
		}
	}
	return nil
}

// SentBefore returns, in order, the fields of the channels (c.stop)
// that sends before st in its block send on.
func SentBefore(st ssa.Instruction) []*types.Var {
	var out []*types.Var
	b := st.Block()
	for _, x := range b.Instrs[:slices.Index(b.Instrs, st)] {
		if s, ok := x.(*ssa.Send); ok {
			out = append(out, ChanField(s.Chan))
		}
	}
	return out
}

// HoldsOneOf reports whether the lockset at holds, locked for writing,
// one of the mutexes held holds so, by the same key (c.mu in Stop and
// in Schedule).
func HoldsOneOf(at, held lockset.Set) bool {
	for _, h := range held {
		if x, ok := at.Find(h.Key); ok && !x.Read && !h.Read {
			return true
		}
	}
	return false
}
