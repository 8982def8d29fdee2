package lockset

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A function may return holding a lock exactly where it succeeds:
//
//	func (db *DB) beginRWTx() (*Tx, error) {
//		db.rwlock.Lock()
//		if !db.opened {
//			db.rwlock.Unlock()
//			return nil, ErrDatabaseNotOpen
//		}
//		...
//		return t, nil // the caller holds rwlock until the Tx closes
//	}
//
// Its caller holds the lock on the branch where the error it got is nil
// (t, err := db.beginRWTx(); if err != nil { return err }; ... ), as a
// TryLock's caller holds it where TryLock returned true. A return that
// passes on another call's results (return db.beginRWTx()) holds what
// that call holds on success, under the condition on the function's
// boolean parameters that reaches it (Begin(writable) takes rwlock only
// when writable), which a call with a constant argument settles.

// okReturns returns, for each return of fn whose error result is nil,
// or is the error of a call it passes on, the locks held there that fn
// took itself, and the condition that reaches it; nil when fn's last
// result is not an error or a return of a nil error holds none.
func (sv *solver) okReturns(fn *ssa.Function, returns []Set, rets []*ssa.Return, g guards) []okRet {
	res := fn.Signature.Results()
	if res.Len() == 0 || !isError(res.At(res.Len()-1).Type()) {
		return nil
	}
	var out []okRet
	holds := false
	for i, r := range rets {
		when, live := g.at(r.Block())
		if !live || len(r.Results) != res.Len() {
			continue
		}
		held := returns[i].Rooted()
		last := storedBefore(r.Results[len(r.Results)-1], r)
		if nonNil(last, r) {
			continue // a failure
		}
		if call := erringCall(last); call != nil {
			if fi, _ := sv.calleeInfo(call.Common()); fi != nil && len(fi.okRets) > 0 {
				// Passed on: this succeeds where that call does.
				for _, h := range sv.okAt(call.Common()) {
					held = held.With(h)
				}
			}
		}
		holds = holds || len(held) > 0
		out = append(out, okRet{held, when})
	}
	if !holds {
		return nil
	}
	return out
}

// okAt returns the locks that a call holds where the error it returns
// is nil, in the caller's names: those of every return of a nil error
// of the callee that the call's arguments may reach.
func (sv *solver) okAt(call *ssa.CallCommon) Set {
	fi, bind := sv.calleeInfo(call)
	if fi == nil || len(fi.okRets) == 0 {
		return nil
	}
	rets := atCall(call, nil, append([]okRet(nil), fi.okRets...), func(r *okRet) *cond { return &r.when })
	var held Set
	for i, r := range rets {
		var s Set
		for _, h := range r.held {
			h.Key = bind(h.Key)
			s = s.With(h)
		}
		if i == 0 {
			held = s
		} else {
			held = meet(held, s)
		}
	}
	return held
}

// nilErrorEdge returns the locks that the i'th successor of b holds
// because b ended by testing that the error a call returned is nil (err
// != nil, or err == nil), on the branch where it is: a call of b with
// no other call after it.
func (sv *solver) nilErrorEdge(b *ssa.BasicBlock, i int) []Held {
	if len(b.Instrs) == 0 || len(b.Succs) != 2 {
		return nil
	}
	iff, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return nil
	}
	cmp, ok := iff.Cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.NEQ && cmp.Op != token.EQL {
		return nil
	}
	v := cmp.X
	if k, ok := cmp.X.(*ssa.Const); ok && k.IsNil() {
		v = cmp.Y
	} else if k, ok := cmp.Y.(*ssa.Const); !ok || !k.IsNil() {
		return nil
	}
	// The nil branch: the false one of err != nil, the true one of
	// err == nil.
	nilBranch := 1
	if cmp.Op == token.EQL {
		nilBranch = 0
	}
	if i != nilBranch {
		return nil
	}
	call := erringCall(storedIn(v, b))
	if call == nil || call.Block() != b || callsAfter(call, b) {
		return nil
	}
	return sv.okAt(call.Common())
}

// storedBefore returns, for a load of a named result that r returns
// (func Begin() (t *Tx, err error) { ...; return db.beginRWTx() } with
// a deferred function), the value stored into it last in r's block, where
// there is one; else v.
func storedBefore(v ssa.Value, r *ssa.Return) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return v
	}
	cell, ok := load.X.(*ssa.Alloc)
	if !ok {
		return v
	}
	instrs := r.Block().Instrs
	for i := len(instrs) - 1; i >= 0; i-- {
		if st, ok := instrs[i].(*ssa.Store); ok && st.Addr == cell {
			return st.Val
		}
	}
	return v
}

// storedIn returns, for a load of a variable (a named result that a
// deferred function reads: tx, err = db.Begin(writable); if err != nil),
// the value stored into it last before the load in b, where there is
// one; else v.
func storedIn(v ssa.Value, b *ssa.BasicBlock) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL || load.Block() != b {
		return v
	}
	cell, ok := load.X.(*ssa.Alloc)
	if !ok {
		return v
	}
	var last ssa.Value = v
	for _, instr := range b.Instrs {
		if instr == load {
			return last
		}
		if st, ok := instr.(*ssa.Store); ok && st.Addr == cell {
			last = st.Val
		}
	}
	return v
}

// nonNil reports whether the error v that r returns is known not to be
// nil: a constant other than nil, a package variable (var ErrClosed =
// errors.New(...)), a new error (errors.New, fmt.Errorf), or a value that
// a branch dominating r found not nil (if err != nil { return nil, err }).
func nonNil(v ssa.Value, r *ssa.Return) bool {
	switch v := v.(type) {
	case *ssa.Const:
		return !v.IsNil()
	case *ssa.UnOp:
		if _, ok := v.X.(*ssa.Global); ok && v.Op == token.MUL {
			return true
		}
	case *ssa.Call:
		if fn := v.Call.StaticCallee(); fn != nil && fn.Pkg != nil {
			switch fn.Pkg.Pkg.Path() + "." + fn.Name() {
			case "errors.New", "fmt.Errorf":
				return true
			}
		}
	case *ssa.MakeInterface:
		return true // a concrete error boxed: never a nil interface
	}
	for b := r.Block(); b != nil; b = b.Idom() {
		p := b.Idom()
		if p == nil || len(p.Instrs) == 0 || len(p.Succs) != 2 {
			continue
		}
		iff, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := iff.Cond.(*ssa.BinOp)
		if !ok || !(cmp.X == v && isNilConst(cmp.Y) || cmp.Y == v && isNilConst(cmp.X)) {
			continue
		}
		if cmp.Op != token.NEQ && cmp.Op != token.EQL {
			continue
		}
		nonNilSucc := 0 // the true branch of err != nil
		if cmp.Op == token.EQL {
			nonNilSucc = 1
		}
		if p.Succs[nonNilSucc].Dominates(r.Block()) && !p.Succs[1-nonNilSucc].Dominates(r.Block()) {
			return true
		}
	}
	return false
}

func isNilConst(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.IsNil()
}

// callsAfter reports whether b calls anything after call (which might
// release what call took before the test of its error).
func callsAfter(call *ssa.Call, b *ssa.BasicBlock) bool {
	after := false
	for _, instr := range b.Instrs {
		if instr == call {
			after = true
			continue
		}
		if _, ok := instr.(ssa.CallInstruction); ok && after {
			return true
		}
	}
	return false
}

// erringCall returns the call whose error result v is: the call itself
// when it returns only an error, or the last of its results; nil for
// any other value.
func erringCall(v ssa.Value) *ssa.Call {
	switch v := v.(type) {
	case *ssa.Call:
		if isError(v.Type()) {
			return v
		}
	case *ssa.Extract:
		call, ok := v.Tuple.(*ssa.Call)
		if ok {
			if t, ok := call.Type().(*types.Tuple); ok && v.Index == t.Len()-1 && isError(t.At(v.Index).Type()) {
				return call
			}
		}
	}
	return nil
}

var errorType = types.Universe.Lookup("error").Type()

func isError(t types.Type) bool { return types.Identical(t, errorType) }

// Succeeds reports whether r is a plain return of success: its last
// result the constant nil of an error, or the constant true of a bool.
func Succeeds(r *ssa.Return) bool {
	if len(r.Results) == 0 {
		return false
	}
	last := r.Results[len(r.Results)-1]
	if isError(last.Type()) {
		k, ok := storedBefore(last, r).(*ssa.Const)
		return ok && k.IsNil()
	}
	k, ok := last.(*ssa.Const)
	return ok && k.Value != nil && isBool(k.Type()) && constant.BoolVal(k.Value)
}

// Fails reports whether r is a return of failure: its last result an
// error known not to be nil (see nonNil), or the constant false of a
// function whose last result is a bool (TryLock's "return false").
// What a function holds where it fails is not what its caller holds
// where it goes on.
func Fails(r *ssa.Return) bool {
	if len(r.Results) == 0 {
		return false
	}
	last := r.Results[len(r.Results)-1]
	if isError(last.Type()) {
		return nonNil(storedBefore(last, r), r)
	}
	if k, ok := last.(*ssa.Const); ok && k.Value != nil && isBool(k.Type()) {
		return !constant.BoolVal(k.Value)
	}
	return false
}
