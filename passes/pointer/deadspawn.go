package pointer

import (
	"go/constant"
	"go/token"
	"go/types"

	"github.com/origo-dev/origo/passes/dataflow"
	"golang.org/x/tools/go/ssa"
)

// A constructor may start a goroutine only where its configuration asks
// for one: "if config.CleanWindow > 0 { go cleaner() }", "if
// !cfg.skipStart { go r.run() }". A constructor is analyzed per call
// site (it is a factory, see isFactory), and a call site that passes a
// composite literal fixes the fields it sets, and zeroes the others: in
// that context the go statement runs only where its branches agree with
// those constants. spawnDead reports whether they never do, so that the
// call starts no goroutine there (Bigcache's tests that leave CleanWindow
// zero start no cleaner, though others do).

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
// negation of such values, or a field of a parameter that the call
// passes a composite literal for (through up to two calls).
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
					return nil, false
				}
				return paramField(fa.X, fa.Field, true, fn, sites, level, depth)
			}
		}
	case *ssa.Field:
		return paramField(v.X, v.Field, false, fn, sites, level, depth)
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
	return literalField(lit, i, sites[level])
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
