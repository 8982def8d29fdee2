package lockset

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// Left is a mutex that a function returns still holding at Ret, while
// another of its returns has it unlocked.
type Left struct {
	Ret  *ssa.Return
	Held Held
}

// LeftHeld returns, for fn and its returns, each mutex that fn locks
// itself and still holds at some return, not at every one, with that
// return: one entry per return and mutex, in the order of returns. A
// mutex a lock helper took is left out: what releases it (often a method
// called through an interface, tx.End()) is beyond what the lockset
// sees. The return of the block a recovered panic resumes at
// (ssa.Function.Recover) is no return to compare with: it runs only
// after a deferred call recovers, and the walk of the function's
// blocks never reaches it with the locks it holds.
func (r *Result) LeftHeld(fn *ssa.Function, returns []*ssa.Return) []Left {
	if fn.Recover != nil {
		returns = slices.DeleteFunc(slices.Clone(returns), func(ret *ssa.Return) bool { return ret.Block() == fn.Recover })
	}
	if len(returns) < 2 {
		return nil
	}
	sets := make([]Set, len(returns))
	for i, ret := range returns {
		sets[i] = r.Before(ret)
	}
	var out []Left
	for i, ret := range returns {
		for _, h := range sets[i] {
			if h.Unsure || !h.Key.Rooted() || h.Value == nil || h.Value.Parent() != fn || !h.Path.IsEmpty() {
				continue
			}
			if slices.ContainsFunc(sets, func(s Set) bool {
				_, ok := s.Find(h.Key)
				return !ok
			}) {
				out = append(out, Left{ret, h})
			}
		}
	}
	return out
}

// HandsUnlock reports whether fn, returning at ret holding h, has
// handed over a function that unlocks h: among ret's results (return
// c.mu.Unlock, nil; return func() { c.mu.Unlock() }), for the caller to
// call (unlock, err := c.beginClose(); defer unlock()), or, on every
// path to ret, passed to a call, stored or sent (finish(work, func(err
// error) { defer c.mu.Unlock(); ... })), for the code that gets it to
// call once the work is through. A function value that calls another
// one made in fn that unlocks h unlocks it too (an asynchronous commit's
// callback wrapped in another).
func HandsUnlock(ret *ssa.Return, h Held) bool {
	for _, v := range ret.Results {
		if mc, ok := v.(*ssa.MakeClosure); ok && unlocksHeld(mc, h, 0) {
			return true
		}
	}
	for _, b := range ret.Parent().Blocks {
		if !b.Dominates(ret.Block()) {
			continue
		}
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && handedOver(mc, ret.Block()) && unlocksHeld(mc, h, 0) {
				return true
			}
		}
	}
	return false
}

// handedOver reports whether the function value mc is given away on
// every path to block to: an argument of a call (not the function
// called), a value stored or sent, in a block that dominates to.
func handedOver(mc *ssa.MakeClosure, to *ssa.BasicBlock) bool {
	for _, ref := range *mc.Referrers() {
		if !ref.Block().Dominates(to) {
			continue
		}
		switch ref := ref.(type) {
		case ssa.CallInstruction:
			if slices.Contains(ref.Common().Args, ssa.Value(mc)) {
				return true
			}
		case *ssa.Store:
			if ref.Val == mc {
				return true
			}
		case *ssa.Send:
			if ref.X == mc {
				return true
			}
		}
	}
	return false
}

// unlocksHeld reports whether the function mc makes unlocks h, a mutex
// named in the function that makes mc: an Unlock (RUnlock for a read
// lock) of it, called or deferred, or a call of another function value
// that mc captures and that unlocks it (up to a few such steps).
func unlocksHeld(mc *ssa.MakeClosure, h Held, depth int) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok || depth > 3 {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			op, mu := syncapi.MutexOp(call.Common())
			if (op == syncapi.Unlock || op == syncapi.RUnlock) && (op == syncapi.RUnlock) == h.Read && boundKey(mu, mc) == h.Key {
				return true
			}
			if fv, ok := call.Common().Value.(*ssa.FreeVar); ok && !call.Common().IsInvoke() {
				if i := slices.Index(fn.FreeVars, fv); i >= 0 && i < len(mc.Bindings) {
					if inner, ok := mc.Bindings[i].(*ssa.MakeClosure); ok && unlocksHeld(inner, h, depth+1) {
						return true
					}
				}
			}
		}
	}
	return false
}

// boundKey returns the key, in the function that makes the closure mc,
// of v, a value in mc's function: its free variables are mc's bindings
// (a variable the closure captures is a cell of the maker's, whose one
// value is a parameter: the parameter; or, stored once, what was
// stored).
func boundKey(v ssa.Value, mc *ssa.MakeClosure) facts.Key {
	k := Key(v)
	kind, i, _ := k.Root()
	if kind != facts.FreeVar || i < 0 || i >= len(mc.Bindings) {
		return k.Unbind()
	}
	b := mc.Bindings[i]
	if p, ok := Spilled(b); ok {
		if rest, ok := k.Path().CutLoad(); ok {
			return Key(p).Extend(rest)
		}
	}
	if w := storedOnce(b); w != nil {
		// A captured variable stored once (g := cl.consumer.g): what
		// was stored, as the maker's own loads of it name it.
		if rest, ok := k.Path().CutLoad(); ok {
			return Key(w).Extend(rest)
		}
	}
	return Key(b).Extend(k.Path())
}

// returnsOf returns fn's return instructions.
func returnsOf(fn *ssa.Function) []*ssa.Return {
	var out []*ssa.Return
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			out = append(out, ret)
		}
	}
	return out
}

// ReturnPos returns where a return is: the statement, or the closing
// brace of the function for the implicit return at its end.
func ReturnPos(fn *ssa.Function, ret *ssa.Return) token.Pos {
	if ret.Pos().IsValid() {
		return ret.Pos()
	}
	if syntax := fn.Syntax(); syntax != nil {
		return syntax.End() - 1
	}
	return fn.Pos()
}

// ReportsSuccess reports whether a return says "done": a nil error or a
// true bool among its results. A function that returns success holding a
// lock is a conditional lock helper (if s.tryLock() == nil { ... }).
func ReportsSuccess(ret *ssa.Return) bool {
	for _, v := range ret.Results {
		k, ok := v.(*ssa.Const)
		if !ok {
			continue
		}
		if types.Identical(k.Type(), types.Universe.Lookup("error").Type()) && k.IsNil() {
			return true
		}
		if b, ok := k.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsBoolean != 0 && k.Value != nil && constant.BoolVal(k.Value) {
			return true
		}
	}
	return false
}
