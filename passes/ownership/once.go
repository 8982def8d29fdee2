package ownership

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/passes/runflag"
	"golang.org/x/tools/go/ssa"
)

// A method that a lazy start runs,
//
//	s.mu.Lock()
//	defer s.mu.Unlock()
//	if !s.initialized {
//		s.initialize() // ...; s.initialized = true; go s.flushLoop()
//	}
//
// runs at most once on each object: every call reads the flag false
// holding the object's mutex, the method sets it true before the mutex
// is released, and nothing sets it false again. Its writes before its go
// statement then happen before what that goroutine does with its
// receiver, as own-spawn says of a method each call runs on an object
// made for it (zap's BufferedWriteSyncer.initialize).

// runsOnce reports whether the method fn runs at most once per receiver:
// it sets a bool field of its receiver true on every path, no store in
// the package sets that field false (but on an object just made), and
// each call of fn, holding a mutex of the receiver it passes, runs only
// where that receiver's field, loaded holding the same mutex, reads
// false.
func (q *Query) runsOnce(fn *ssa.Function) bool {
	if v, ok := q.once[fn]; ok {
		return v
	}
	v := q.findRunsOnce(fn)
	if q.once == nil {
		q.once = make(map[*ssa.Function]bool)
	}
	q.once[fn] = v
	return v
}

func (q *Query) findRunsOnce(fn *ssa.Function) bool {
	if fn.Signature.Recv() == nil || len(fn.Params) == 0 {
		return false
	}
	flag := setOnEveryPath(fn, fn.Params[0])
	if flag == nil {
		return false
	}
	stores, ok := runflag.Stores(q.funcs, flag)
	if !ok {
		return false
	}
	for _, st := range stores {
		if !st.Value {
			return false
		}
	}
	calls := q.fresh.callsOf(fn)
	if len(calls) == 0 {
		return false
	}
	for _, site := range calls {
		_, args, ok := boundArgs(site, fn)
		if !ok || !q.guardedOnce(site, args[0], flag) {
			return false
		}
	}
	return true
}

// setOnEveryPath returns the bool field of recv that fn stores true
// into in a block that dominates each of its returns; nil when there is
// none.
func setOnEveryPath(fn *ssa.Function, recv ssa.Value) *types.Var {
	var rets []*ssa.BasicBlock
	for _, b := range fn.Blocks {
		if len(b.Instrs) > 0 {
			if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
				rets = append(rets, b)
			}
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			k, isConst := st.Val.(*ssa.Const)
			if !ok || !sameBase(fa.X, recv) || !isConst || k.Value == nil || k.Value.Kind() != constant.Bool || !constant.BoolVal(k.Value) {
				continue
			}
			every := len(rets) > 0
			for _, r := range rets {
				every = every && b.Dominates(r)
			}
			if every {
				return runflag.Field(fa)
			}
		}
	}
	return nil
}

// guardedOnce reports whether the call site, on recv, runs only where a
// branch found recv's flag false, with a mutex of recv held for writing
// both at the load of the flag and at the call, and not released by the
// method (which would let another call read the flag before it is set).
func (q *Query) guardedOnce(site ssa.CallInstruction, recv ssa.Value, flag *types.Var) bool {
	for cond, value := range runflag.Conditions(site) {
		load, ok := cond.(*ssa.UnOp)
		if !ok || load.Op != token.MUL || value {
			continue
		}
		fa, ok := load.X.(*ssa.FieldAddr)
		if !ok || !sameBase(fa.X, recv) || runflag.Field(fa) != flag {
			continue
		}
		atLoad := q.locks.Before(load)
		released := q.locks.Releases(site.Common())
		for _, h := range q.locks.Before(site) {
			mu, ok := h.Value.(*ssa.FieldAddr)
			if h.Read || !h.Path.IsEmpty() || !ok || !sameBase(mu.X, recv) || slices.Contains(released, h.Key) {
				continue // a method that releases the mutex lets another call in
			}
			if x, ok := atLoad.Find(h.Key); ok && !x.Read {
				return true
			}
		}
	}
	return false
}
