package lockset

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"sync"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/dataflow"
	"golang.org/x/tools/go/ssa"
)

// What a load names. A mutex, or a boolean a branch tests, is often
// reached through a field of an object its function made, or that a
// constructor it called made and returned, or through a variable
// stored once: the load gives what was stored there, so it is named as
// that value (tx.db.mu of tx := &Tx{db: db} is db.mu; of tx, err :=
// db.Begin(writable), whose every success returns a &Tx{db: db, ...}
// made from its receiver, it is the caller's db.mu too). Stores a callee
// makes into the field later are not seen: a field set when its object
// is made and kept is the common case these names serve.

// fieldInit returns the value that the function making alloc stores
// into its field f, where it stores one there only once (tx := &Tx{db:
// db, writable: writable}): what a load of the field gives in that
// function, short of a callee's store.
func fieldInit(alloc *ssa.Alloc, f int) (ssa.Value, *ssa.Store, bool) {
	var init *ssa.Store
	for _, r := range *alloc.Referrers() {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.Field != f || fa.Referrers() == nil {
			continue
		}
		for _, rr := range *fa.Referrers() {
			if st, ok := rr.(*ssa.Store); ok && st.Addr == fa {
				if init != nil {
					return nil, nil, false
				}
				init = st
			}
		}
	}
	if init == nil {
		return nil, nil, false
	}
	return init.Val, init, true
}

// zeroField returns the zero value of field f of the object alloc makes,
// a boolean field that nothing sets where it is made: the function
// stores to no field f of it, stores the pointer nowhere, and the
// functions it passes it to directly store to no field f of their
// parameter (t := &Tx{}; t.init(db) leaves t.writable false).
func zeroField(alloc *ssa.Alloc, f int) (ssa.Value, bool) {
	fields := structOf(alloc.Type())
	if fields == nil || f >= fields.NumFields() {
		return nil, false
	}
	b, ok := fields.Field(f).Type().Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsBoolean == 0 {
		return nil, false
	}
	for _, r := range *alloc.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			if r.Field == f && storesField(alloc, f) {
				return nil, false
			}
		case *ssa.Store:
			if r.Val == alloc {
				return nil, false // kept somewhere another may set it
			}
		case ssa.CallInstruction:
			callee := r.Common().StaticCallee()
			if callee == nil {
				if r.Common().Value == alloc {
					continue
				}
				return nil, false
			}
			for i, a := range r.Common().Args {
				if a == alloc && (i >= len(callee.Params) || storesField(callee.Params[i], f)) {
					return nil, false
				}
			}
		}
	}
	return ssa.NewConst(constant.MakeBool(false), fields.Field(f).Type()), true
}

// resultField returns what field f of the object that fn returns as its
// result r holds, as fn's parameter or a constant: every return of fn
// gives nil there, or an object fn made and whose field f it set once
// to that same parameter or constant (return &Tx{db: db, writable:
// writable}, nil). ok is false when returns disagree or one gives
// anything else.
func resultField(fn *ssa.Function, r, f int) (ssa.Value, bool) {
	var out ssa.Value
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if r >= len(ret.Results) {
			return nil, false
		}
		res := ret.Results[r]
		if k, ok := res.(*ssa.Const); ok && k.IsNil() {
			continue // a failure: no object, no field
		}
		alloc, ok := res.(*ssa.Alloc)
		if !ok {
			return nil, false
		}
		v, _, ok := fieldInit(alloc, f)
		if !ok {
			if v, ok = zeroField(alloc, f); !ok {
				return nil, false
			}
		}
		switch v := v.(type) {
		case *ssa.Parameter:
		case *ssa.Const:
			if o, isConst := out.(*ssa.Const); out != nil && (!isConst || o.Value == nil || v.Value == nil || o.Value.ExactString() != v.Value.ExactString()) {
				return nil, false
			}
		default:
			return nil, false
		}
		if out != nil && out != v {
			if _, isConst := v.(*ssa.Const); !isConst {
				return nil, false
			}
		}
		out = v
	}
	return out, out != nil
}

// fieldSource returns the value, in the function of pointer x, that
// field f of the object x points to was given where the object was made:
// x is made here and its field set once (before at, the instruction
// whose call is at, when given); x is a result of a call whose callee
// sets the field from a parameter (the call's argument) or a constant
// (see resultField); x is loaded from a variable stored once.
func fieldSource(x ssa.Value, f int, at *ssa.CallCommon) (ssa.Value, bool) {
	for range maxForward {
		switch v := x.(type) {
		case *ssa.Alloc:
			init, st, ok := fieldInit(v, f)
			if !ok {
				return zeroField(v, f)
			}
			if at != nil {
				if instr := callIn(v.Parent(), at); instr == nil || !dataflow.Precedes(st, instr) {
					return nil, false
				}
			}
			return init, true
		case *ssa.Extract:
			call, ok := v.Tuple.(*ssa.Call)
			if !ok {
				return nil, false
			}
			return callField(call, v.Index, f)
		case *ssa.Call:
			return callField(v, 0, f)
		case *ssa.UnOp:
			if v.Op != token.MUL {
				return nil, false
			}
			if x = storedOnce(v.X); x == nil {
				return nil, false
			}
			at = nil
		default:
			return nil, false
		}
	}
	return nil, false
}

// callField returns the value, in the caller, of field f of the object
// call returns as its result r (see resultField).
func callField(call *ssa.Call, r, f int) (ssa.Value, bool) {
	callee := call.Call.StaticCallee()
	if callee == nil || call.Call.IsInvoke() {
		return nil, false
	}
	v, ok := resultField(callee, r, f)
	if !ok {
		return nil, false
	}
	if p, ok := v.(*ssa.Parameter); ok {
		i := -1
		for j, q := range callee.Params {
			if q == p {
				i = j
			}
		}
		if i < 0 || i >= len(call.Call.Args) {
			return nil, false
		}
		return call.Call.Args[i], true
	}
	return v, true
}

// maxForward bounds the steps a name or a field's value is followed
// through stores (a cycle of variables stored from each other ends).
const maxForward = 8

// storedOnce returns the one value stored into cell, a variable of
// pointer type (one that a closure captures, say: var tx *Tx; tx, err =
// db.Begin(writable)), where its function stores one only once and
// every other use loads it (or a closure captures it and only loads
// it); nil otherwise.
func storedOnce(cell ssa.Value) ssa.Value {
	alloc, ok := cell.(*ssa.Alloc)
	if !ok {
		return nil
	}
	ptr, ok := alloc.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	if _, ok := ptr.Elem().Underlying().(*types.Pointer); !ok {
		return nil
	}
	return SoleStore(alloc)
}

// SoleStore returns the value of a local variable that is stored once
// and only read after: its referrers are that store, loads, and closures
// that capture it and only read it. Else nil.
func SoleStore(cell *ssa.Alloc) ssa.Value {
	var val ssa.Value
	for _, r := range *cell.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != cell || val != nil {
				return nil
			}
			val = r.Val
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return nil
			}
		case *ssa.MakeClosure:
			if !ReadOnlyCapture(r, cell) {
				return nil
			}
		case *ssa.DebugRef:
		default:
			return nil
		}
	}
	return val
}

// forward names the value that path p reaches from v, following loads
// of variables stored once and of fields set once (see fieldSource), so
// that one mutex gets one name whichever way the code reaches it.
func forward(v ssa.Value, p facts.Path) facts.Key {
	steps := p.Steps()
	for range maxForward {
		if len(steps) >= 1 && steps[0].Op == facts.Load {
			if w := storedOnce(v); w != nil {
				v, steps = w, steps[1:]
				continue
			}
		}
		if len(steps) >= 2 && steps[0].Op == facts.FieldAddr && steps[1].Op == facts.Load {
			if w, ok := fieldSource(v, steps[0].Index, nil); ok {
				if _, isConst := w.(*ssa.Const); !isConst {
					v, steps = w, steps[2:]
					continue
				}
			}
		}
		break
	}
	k := Key(v)
	for _, st := range steps {
		k = k.Then(st)
	}
	return k
}

// setWhereMade reports whether field f of the struct that pointer x
// points to is set only where its objects are made: an unexported field
// that no function of its package stores to but through the address of
// an object it has just made (&Tx{writable: w}, t := new(T); t.f = v).
// A field that a method sets later (s.running = true in Start) may hold
// another value by the time a call tests it than its object was made
// with: what the object was made with decides nothing then, unless the
// goroutine walked runs none of those stores (trusted, see Trusted).
func setWhereMade(x ssa.Value, f int, trusted Trusted) bool {
	field, fns, ok := storedElsewhere(x, f)
	return ok && (len(fns) == 0 || trusted[field])
}

// storedElsewhere returns field f of the struct that pointer x points
// to and the functions of its package that store to it other than
// through the address of an object they have just made; false for an
// exported field or one whose package is not known.
func storedElsewhere(x ssa.Value, f int) (*types.Var, []*ssa.Function, bool) {
	st := structOf(x.Type())
	if st == nil || f >= st.NumFields() {
		return nil, nil, false
	}
	field := st.Field(f)
	if field.Exported() || field.Pkg() == nil {
		return field, nil, false
	}
	if v, ok := whereMade.Load(field); ok {
		fns := v.([]*ssa.Function)
		return field, fns, true
	}
	var fn *ssa.Function
	switch x := x.(type) {
	case ssa.Instruction:
		fn = x.Parent()
	case *ssa.Parameter:
		fn = x.Parent()
	}
	if fn == nil || fn.Prog == nil {
		return field, nil, false
	}
	pkg := fn.Prog.Package(field.Pkg())
	if pkg == nil {
		return field, nil, false
	}
	fns := []*ssa.Function{}
	storesElsewhere(pkg, func(f *types.Var, fn *ssa.Function) {
		if f == field && !slices.Contains(fns, fn) {
			fns = append(fns, fn)
		}
	})
	v, _ := whereMade.LoadOrStore(field, fns)
	return field, v.([]*ssa.Function), true
}

// storesElsewhere calls visit with each store of pkg's functions (its
// methods' and the function literals inside them) into a field of an
// object other than one the function has just made (through the address
// of its Alloc): the field and the function.
func storesElsewhere(pkg *ssa.Package, visit func(*types.Var, *ssa.Function)) {
	var walk func(fn *ssa.Function)
	walk = func(fn *ssa.Function) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				if field := FieldOf(st.Addr); field != nil {
					if _, made := st.Addr.(*ssa.FieldAddr).X.(*ssa.Alloc); !made {
						visit(field, fn)
					}
				}
			}
		}
		for _, anon := range fn.AnonFuncs {
			walk(anon)
		}
	}
	for _, m := range pkg.Members {
		switch m := m.(type) {
		case *ssa.Function:
			walk(m)
		case *ssa.Type:
			if named, ok := types.Unalias(m.Type()).(*types.Named); ok {
				for i := range named.NumMethods() {
					if mf := pkg.Prog.FuncValue(named.Method(i)); mf != nil {
						walk(mf)
					}
				}
			}
		}
	}
}

// whereMade memoizes storedElsewhere by field.
var whereMade sync.Map // *types.Var -> []*ssa.Function

// FieldOf returns the field that addr is the address of (&x.f), or nil.
func FieldOf(addr ssa.Value) *types.Var {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	st := structOf(fa.X.Type())
	if st == nil || fa.Field >= st.NumFields() {
		return nil
	}
	return st.Field(fa.Field)
}

// structOf returns the struct that a pointer of type t points to, or
// nil.
func structOf(t types.Type) *types.Struct {
	ptr, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, _ := ptr.Elem().Underlying().(*types.Struct)
	return st
}
