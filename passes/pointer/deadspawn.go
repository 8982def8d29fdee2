package pointer

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/passes/dataflow"
	"golang.org/x/tools/go/ssa"
)

// A constructor may start a goroutine only where its configuration asks
// for one: "if config.CleanWindow > 0 { go cleaner() }", "if
// !cfg.skipStart { go r.run() }". A constructor is analyzed per call
// site (it is a factory, see isFactory), and a call site that passes a
// composite literal fixes the fields it sets, and zeroes the others (so
// does a copy of one that a "with" method returns, in the fields the
// method leaves alone: Config{...}.OnRemoveFilterSet(Deleted)): in
// that context the go statement runs only where its branches agree with
// those constants. spawnDead reports whether they never do, so that the
// call starts no goroutine there (Bigcache's tests that leave CleanWindow
// zero start no cleaner, though others do). A parameter the call passes
// a constant for decides the same way, directly (if workers > 0) or
// through a copy normalized by an if just above (if ttl <= 0 { ttl =
// never }) and kept in a literal's field that nothing else sets before
// the test (golang-lru's expirable cache, made with ttl 0, starts no
// expiry goroutine).

// spawnDead reports whether the go statement instr, in a function
// analyzed in a context with call sites sites (innermost first), lies
// in a block that the constants its callers pass rule out.
func spawnDead(instr ssa.Instruction, sites [2]ssa.CallInstruction) bool {
	if sites[0] == nil || instr.Block() == nil {
		return false
	}
	fn := instr.Parent()
	known := false
	decide := func(cond ssa.Value) (bool, bool) {
		c, ok := constValue(cond, fn, sites, 0)
		if !ok || c.Kind() != constant.Bool {
			return false, false
		}
		known = true
		return constant.BoolVal(c), true
	}
	live := dataflow.Reachable(fn, decide)
	return known && !live[instr.Block().Index]
}

// maxConstDepth bounds the values constValue looks through.
const maxConstDepth = 8

// constValue returns the constant value v has in function fn called at
// sites[level], when the call fixes it: a constant, a comparison or
// negation of such values, a field of a parameter that the call passes
// a composite literal for, a parameter it passes a constant for
// (through up to two calls), a phi an if decides, or a field of a
// variable set once before.
func constValue(v ssa.Value, fn *ssa.Function, sites [2]ssa.CallInstruction, level int) (constant.Value, bool) {
	return constOf(v, fn, sites, level, 0)
}

func constOf(v ssa.Value, fn *ssa.Function, sites [2]ssa.CallInstruction, level, depth int) (constant.Value, bool) {
	if depth > maxConstDepth {
		return nil, false
	}
	switch v := v.(type) {
	case *ssa.Const:
		return constOrZero(v.Value, v.Type())
	case *ssa.UnOp:
		switch v.Op {
		case token.NOT:
			x, ok := constOf(v.X, fn, sites, level, depth+1)
			if !ok || x.Kind() != constant.Bool {
				return nil, false
			}
			return constant.MakeBool(!constant.BoolVal(x)), true
		case token.MUL:
			// A field of a pointer parameter, *(&cfg.f), or of a struct
			// parameter a closure captures, which go/ssa keeps in a
			// variable of its own.
			if fa, ok := v.X.(*ssa.FieldAddr); ok {
				if cell, ok := fa.X.(*ssa.Alloc); ok {
					if p := readOnlyParam(cell, fa.Field); p != nil {
						return paramField(p, fa.Field, false, fn, sites, level, depth)
					}
					if w := setOnce(cell, fa.Field, v); w != nil {
						return constOf(w, fn, sites, level, depth+1)
					}
					return nil, false
				}
				return paramField(fa.X, fa.Field, true, fn, sites, level, depth)
			}
		}
	case *ssa.Field:
		return paramField(v.X, v.Field, false, fn, sites, level, depth)
	case *ssa.Parameter:
		// A parameter the call passes a constant for, or a value the
		// caller's own constants fix, one call out.
		if v.Parent() != fn || level >= len(sites) || sites[level] == nil {
			return nil, false
		}
		call := sites[level].Common()
		j := slices.Index(fn.Params, v)
		if call.IsInvoke() || call.StaticCallee() != fn || j < 0 || j >= len(call.Args) {
			return nil, false
		}
		return constOf(call.Args[j], sites[level].Parent(), sites, level+1, depth+1)
	case *ssa.Phi:
		return phiConst(v, fn, sites, level, depth)
	case *ssa.BinOp:
		switch v.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			x, ok := constOf(v.X, fn, sites, level, depth+1)
			if !ok {
				return nil, false
			}
			y, ok := constOf(v.Y, fn, sites, level, depth+1)
			if !ok || x.Kind() == constant.Unknown || y.Kind() == constant.Unknown {
				return nil, false
			}
			if (x.Kind() == constant.Bool) != (y.Kind() == constant.Bool) {
				return nil, false
			}
			return constant.MakeBool(constant.Compare(x, v.Op, y)), true
		}
	}
	return nil, false
}

// phiConst returns the constant value of phi where its edges agree, or
// where an if just above decides which one is taken: the join of a
// triangle or a diamond ("if ttl <= 0 { ttl = never }" with ttl fixed).
func phiConst(phi *ssa.Phi, fn *ssa.Function, sites [2]ssa.CallInstruction, level, depth int) (constant.Value, bool) {
	edges := func(ok func(i int) bool) (constant.Value, bool) {
		var val constant.Value
		for i, e := range phi.Edges {
			if !ok(i) {
				continue
			}
			c, known := constOf(e, fn, sites, level, depth+1)
			if !known || c.Kind() == constant.Unknown || val != nil && (val.Kind() == constant.Bool) != (c.Kind() == constant.Bool) {
				return nil, false
			}
			if val != nil && !constant.Compare(val, token.EQL, c) {
				return nil, false
			}
			val = c
		}
		return val, val != nil
	}
	if c, ok := edges(func(int) bool { return true }); ok {
		return c, true
	}
	b := phi.Block()
	d := b.Idom()
	if d == nil || len(b.Preds) != 2 || len(d.Succs) != 2 {
		return nil, false
	}
	br, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
	if !ok {
		return nil, false
	}
	// Each predecessor is the if's block itself, or an arm that only
	// the if enters and that only goes on to the join.
	arm := func(p *ssa.BasicBlock) *ssa.BasicBlock {
		if p == d {
			return b
		}
		if len(p.Preds) == 1 && p.Preds[0] == d && len(p.Succs) == 1 && p.Succs[0] == b {
			return p
		}
		return nil
	}
	a0, a1 := arm(b.Preds[0]), arm(b.Preds[1])
	if a0 == nil || a1 == nil || a0 == a1 {
		return nil, false
	}
	c, ok := constOf(br.Cond, fn, sites, level, depth+1)
	if !ok || c.Kind() != constant.Bool {
		return nil, false
	}
	taken := d.Succs[0]
	if !constant.BoolVal(c) {
		taken = d.Succs[1]
	}
	arms := [2]*ssa.BasicBlock{a0, a1}
	return edges(func(i int) bool { return arms[i] == taken })
}

// setOnce returns the value stored into field i of cell, a variable of
// its function (a struct literal kept on the heap for a closure), when
// one store in the function sets that field before the load, every
// path to the load passes it, and nothing else may change it first: no
// other store of the field, and the variable goes nowhere but to its
// fields' addresses before the load (a closure that captures it, a call
// given its address, come after).
func setOnce(cell *ssa.Alloc, i int, load *ssa.UnOp) ssa.Value {
	var set, whole *ssa.Store // a store of the field, of the whole variable
	for _, r := range *cell.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != cell || whole != nil {
				return nil
			}
			whole = r // res := T{...}: the literal's copy
		case *ssa.FieldAddr:
			for _, u := range *r.Referrers() {
				st, isStore := u.(*ssa.Store)
				switch u.(type) {
				case *ssa.UnOp, *ssa.DebugRef:
					continue
				}
				switch {
				case isStore && st.Addr == r && r.Field == i:
					if set != nil {
						return nil
					}
					set = st
				case isStore && st.Addr == r:
				case r.Field == i && dataflow.MayPrecede(u, load):
					return nil // the field's address goes elsewhere first
				}
			}
		case *ssa.DebugRef:
		default:
			if dataflow.MayPrecede(r, load) {
				return nil
			}
		}
	}
	if set == nil && whole != nil && Dominates(whole, load) {
		// The variable holds a copy of a literal made just before: the
		// literal's field, set once before the copy.
		if cp, ok := whole.Val.(*ssa.UnOp); ok && cp.Op == token.MUL {
			if lit, ok := cp.X.(*ssa.Alloc); ok && lit != cell {
				return setOnce(lit, i, cp)
			}
		}
		return nil
	}
	if set == nil || whole != nil || set.Parent() != load.Parent() || !Dominates(set, load) {
		return nil
	}
	return set.Val
}

// constOrZero returns c, or the zero value of a basic type t where c is
// nil (go/ssa's zero constant).
func constOrZero(c constant.Value, t types.Type) (constant.Value, bool) {
	if c != nil {
		return c, true
	}
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return nil, false
	}
	switch {
	case b.Info()&types.IsBoolean != 0:
		return constant.MakeBool(false), true
	case b.Info()&types.IsInteger != 0:
		return constant.MakeInt64(0), true
	case b.Info()&types.IsFloat != 0:
		return constant.MakeFloat64(0), true
	case b.Info()&types.IsString != 0:
		return constant.MakeString(""), true
	}
	return nil, false
}

// paramField returns the constant value of field i of x, a parameter of
// fn (a struct, or a pointer to one when ptr is set), at the call
// sites[level] of fn: the value stored in that field of the composite
// literal the call passes, the zero value where the literal leaves it
// out, or, for a parameter passed on, its value one call out.
func paramField(x ssa.Value, i int, ptr bool, fn *ssa.Function, sites [2]ssa.CallInstruction, level, depth int) (constant.Value, bool) {
	p, ok := x.(*ssa.Parameter)
	if !ok || p.Parent() != fn || level >= len(sites) || sites[level] == nil {
		return nil, false
	}
	call := sites[level].Common()
	if call.IsInvoke() || call.StaticCallee() != fn {
		return nil, false
	}
	j := -1
	for k, q := range fn.Params {
		if q == p {
			j = k
		}
	}
	if j < 0 || j >= len(call.Args) {
		return nil, false
	}
	arg := call.Args[j]
	caller := sites[level].Parent()
	return valueField(arg, i, ptr, caller, sites[level], sites, level, depth)
}

// valueField returns the constant that field i of arg holds at call, in
// caller (sites[level]'s function, or a call it makes on the way): a
// composite literal's, a parameter's that the caller's own call fixes,
// or, for a struct value, that of the value a "with" method was called
// on, when the method returns a copy of it that leaves field i alone
// (Config{...}.OnRemoveFilterSet(Deleted) sets another field and
// returns the rest as it was).
func valueField(arg ssa.Value, i int, ptr bool, caller *ssa.Function, call ssa.CallInstruction, sites [2]ssa.CallInstruction, level, depth int) (constant.Value, bool) {
	if depth > maxConstDepth {
		return nil, false
	}
	if k, ok := arg.(*ssa.Const); ok && k.Value == nil && !ptr {
		// The zero value, Config{}: every field zero.
		st, ok := k.Type().Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return nil, false
		}
		return constOrZero(nil, st.Field(i).Type())
	}
	if c, ok := arg.(*ssa.Call); ok && !ptr {
		if k, ok := withCopy(c, i); ok {
			return valueField(c.Call.Args[k], i, false, caller, c, sites, level, depth+1)
		}
		return nil, false
	}
	if q, ok := arg.(*ssa.Parameter); ok {
		// Passed on from the caller's own parameter: one call out.
		if level+1 >= len(sites) || sites[level+1] == nil {
			return nil, false
		}
		return paramField(q, i, ptr, caller, sites, level+1, depth+1)
	}
	// A composite literal: the one Alloc whose fields only stores set.
	var lit *ssa.Alloc
	if ptr {
		lit, _ = arg.(*ssa.Alloc)
	} else if ld, ok := arg.(*ssa.UnOp); ok && ld.Op == token.MUL {
		lit, _ = ld.X.(*ssa.Alloc)
	}
	if lit == nil {
		return nil, false
	}
	return literalField(lit, i, call)
}

// withCopy returns the argument of c whose copy its callee returns with
// field i as it was: a function of one result, every return of which
// returns the variable go/ssa keeps a struct parameter in, whose field
// i the function only reads.
func withCopy(c *ssa.Call, i int) (int, bool) {
	fn := c.Call.StaticCallee()
	if fn == nil || len(fn.Blocks) == 0 || fn.Signature.Results().Len() != 1 {
		return 0, false
	}
	var cell *ssa.Alloc
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		ld, ok := ret.Results[0].(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			return 0, false
		}
		a, ok := ld.X.(*ssa.Alloc)
		if !ok || cell != nil && a != cell {
			return 0, false
		}
		cell = a
	}
	if cell == nil {
		return 0, false
	}
	p := readOnlyParam(cell, i)
	if p == nil {
		return 0, false
	}
	k := slices.Index(fn.Params, p.(*ssa.Parameter))
	return k, k >= 0 && k < len(c.Call.Args)
}

// literalField returns the constant that the composite literal lit (an
// Alloc) holds in field i at the call: the one store into it, of a
// constant, or the zero value if there is none. The literal's address
// must go only to its field stores and to loads, and to the call itself
// for a pointer: anything else might change it.
func literalField(lit *ssa.Alloc, i int, call ssa.CallInstruction) (constant.Value, bool) {
	st, ok := lit.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct)
	if !ok || i >= st.NumFields() {
		return nil, false
	}
	var val ssa.Value
	for _, r := range *lit.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			for _, u := range *r.Referrers() {
				s, ok := u.(*ssa.Store)
				if !ok || s.Addr != r {
					if _, load := u.(*ssa.UnOp); load {
						continue
					}
					return nil, false // its address goes elsewhere
				}
				if r.Field == i {
					if val != nil || s.Block() != call.Block() || !Dominates(s, call) {
						return nil, false
					}
					val = s.Val
				}
			}
		case *ssa.UnOp, *ssa.DebugRef:
		case ssa.CallInstruction:
			if r != call {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	if val == nil {
		return constOrZero(nil, st.Field(i).Type())
	}
	c, ok := val.(*ssa.Const)
	if !ok {
		return nil, false
	}
	return constOrZero(c.Value, c.Type())
}

// readOnlyParam returns the parameter stored once into cell, the
// variable go/ssa makes for a parameter that a function literal
// captures, when the function only reads its field i after (it may set
// others: config.Hasher = newDefaultHasher()); nil otherwise.
func readOnlyParam(cell *ssa.Alloc, i int) ssa.Value {
	p := storedParam(cell)
	if p == nil {
		return nil
	}
	for _, r := range *cell.Referrers() {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.Field != i {
			continue
		}
		for _, u := range *fa.Referrers() {
			if _, load := u.(*ssa.UnOp); !load {
				return nil
			}
		}
	}
	return p
}
