package lockset

import (
	"go/constant"
	"go/token"
	"go/types"
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
	return DecideTrusting(call, callee, known, nil)
}

// Trusted are fields that functions other than their objects' makers
// store to, none of which the goroutine being walked runs: there, a
// field set where its object is made keeps that value (see
// setWhereMade). A store by another goroutine to the walked
// goroutine's object would race with the walk's loads of it, which the
// race analysis reports as such. (buntdb's TestVariousTx sets
// tx.writable = false in its own transaction to test the error: the
// transactions of the background goroutine keep the mode Begin gave
// them.)
type Trusted map[*types.Var]bool

// String names t, for a cache key: "" for none.
func (t Trusted) String() string {
	if len(t) == 0 {
		return ""
	}
	var ids []string
	for f, ok := range t {
		if ok {
			ids = append(ids, strconv.Itoa(int(f.Pos()))+f.Name())
		}
	}
	slices.Sort(ids)
	return strings.Join(ids, ",")
}

// StoredElsewhere returns, for each unexported boolean field of a struct
// of the package's that some function of it stores to other than where
// it made the object (see setWhereMade), the functions that do.
func (r *Result) StoredElsewhere() map[*types.Var][]*ssa.Function {
	pkg := r.pkg
	if pkg == nil {
		return nil
	}
	out := make(map[*types.Var][]*ssa.Function)
	storesElsewhere(pkg, func(field *types.Var, fn *ssa.Function) {
		if !field.Exported() && field.Pkg() == pkg.Pkg && isBool(field.Type()) && !slices.Contains(out[field], fn) {
			out[field] = append(out[field], fn)
		}
	})
	return out
}

// isBool reports whether t is a boolean type.
func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// DecideTrusting is Decide in a goroutine whose walk runs no store of
// the trusted fields but where their objects are made.
func DecideTrusting(call *ssa.CallCommon, callee *ssa.Function, known Lits, trusted Trusted) Lits {
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
		case i >= fieldLits || i <= -fieldLits:
			// A field of what the call passes: the caller's own
			// parameter's or free variable's, or the value stored into
			// the object the caller made, or a callee made and
			// returned (see fieldSource).
			base, f := litField(i)
			var a ssa.Value
			switch {
			case base >= 0 && base < len(call.Args):
				a = call.Args[base]
			case base < 0 && -1-base < len(bindings):
				// A free variable holds a variable of the maker's:
				// the closure loads what was stored there.
				a = storedOnce(bindings[-1-base])
			}
			if a == nil {
				continue
			}
			if b, ok := fieldBase(a); ok {
				if storesFieldOf(a, f) {
					continue
				}
				k := fieldLit(b, f)
				if n := slices.IndexFunc(known, func(l Lit) bool { return l.Param == k }); n >= 0 {
					lits = append(lits, Lit{i, known[n].Val})
				}
				continue
			}
			v, ok := fieldSource(a, f, call)
			if !ok || !setWhereMade(a, f, trusted) {
				continue
			}
			arg = v
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
// is (pos false): see boolVar. A boolean field of a parameter that the
// function never stores to (tx.writable, loaded in func (tx *Tx)
// lock()) counts as one more parameter (see fieldLit).
func boolVarOf(x ssa.Value) (i int, pos, ok bool) {
	v, pos := boolVar(x)
	switch v := v.(type) {
	case *ssa.Parameter:
		return slices.Index(v.Parent().Params, v), pos, true
	case *ssa.FreeVar:
		return -1 - slices.Index(v.Parent().FreeVars, v), pos, true
	}
	if b, f, pos, ok := boolField(x); ok {
		return fieldLit(b, f), pos, true
	}
	return 0, false, false
}

// fieldLits numbers the boolean fields of parameters and free variables
// among Lit.Param: field f of what parameter i points to is
// fieldLits*(i+1) + f, past every parameter; of what free variable i
// holds (a variable of the closure's maker, loaded), -fieldLits*(i+1) -
// f, past every free variable.
const fieldLits = 1 << 16

// fieldLit returns the Lit.Param of field f of base, a parameter (i) or
// a free variable (-1 - i) as Lit.Param numbers them.
func fieldLit(base, f int) int {
	if base >= 0 {
		return fieldLits*(base+1) + f
	}
	return -fieldLits*(-base) - f
}

// litField returns the base (see fieldLit) and field of a Lit.Param that
// fieldLit made.
func litField(lit int) (base, f int) {
	if lit >= fieldLits {
		return lit/fieldLits - 1, lit % fieldLits
	}
	return -(-lit / fieldLits), -lit % fieldLits
}

// boolField returns the base (see fieldLit) and the field f of the
// struct it points to that the boolean x loads, or whose negation it
// loads (pos false): tx.writable in a method of *Tx, or in a closure that
// captured tx. Not when the function stores to that field: the value
// may then be another than the call's.
func boolField(x ssa.Value) (base, f int, pos, ok bool) {
	pos = true
	for {
		u, isUnOp := x.(*ssa.UnOp)
		if !isUnOp {
			return 0, 0, false, false
		}
		if u.Op == token.NOT {
			x, pos = u.X, !pos
			continue
		}
		if u.Op != token.MUL {
			return 0, 0, false, false
		}
		fa, isField := u.X.(*ssa.FieldAddr)
		if !isField {
			return 0, 0, false, false
		}
		b, ok := fieldBase(fa.X)
		if !ok || storesFieldOf(fa.X, fa.Field) {
			return 0, 0, false, false
		}
		return b, fa.Field, pos, true
	}
}

// fieldBase returns the parameter (i) or the free variable (-1 - i) of
// its own function that the pointer x is: a parameter, a load of a
// free variable that its function only loads, or a load of the variable
// go/ssa gives a parameter the function's closures capture (see
// Spilled: func (tx *Tx) Put() { if !tx.writable {...}; each(func() {
// tx.n++ }) } loads tx from it).
func fieldBase(x ssa.Value) (int, bool) {
	switch x := x.(type) {
	case *ssa.Parameter:
		return slices.Index(x.Parent().Params, x), true
	case *ssa.UnOp:
		if x.Op != token.MUL {
			break
		}
		if fv, ok := x.X.(*ssa.FreeVar); ok && OnlyLoaded(fv) {
			return -1 - slices.Index(fv.Parent().FreeVars, fv), true
		}
		if q, ok := Spilled(x.X); ok {
			return fieldBase(q)
		}
	}
	return 0, false
}

// storesFieldOf reports whether x's function stores to field f of the
// struct x points to: through x, or through another load of the free
// variable x loads, or of the captured parameter's variable x loads (in
// the function or in the closures that capture it).
func storesFieldOf(x ssa.Value, f int) bool {
	u, ok := x.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return storesField(x, f)
	}
	if fv, ok := u.X.(*ssa.FreeVar); ok {
		return storesThroughLoads(fv, f)
	}
	if _, ok := Spilled(u.X); ok {
		return storesThroughLoads(u.X, f)
	}
	return storesField(x, f)
}

// storesThroughLoads reports whether a load of the variable v points to
// stores to field f of what it loads, here or in a closure that
// captures v (which loads it through its free variable).
func storesThroughLoads(v ssa.Value, f int) bool {
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.UnOp:
			if r.Op == token.MUL && storesField(r, f) {
				return true
			}
		case *ssa.MakeClosure:
			fn, ok := r.Fn.(*ssa.Function)
			if !ok {
				return true
			}
			for i, b := range r.Bindings {
				if b == v && i < len(fn.FreeVars) && storesThroughLoads(fn.FreeVars[i], f) {
					return true
				}
			}
		}
	}
	return false
}

// storesField reports whether x's function stores to field f of the
// struct x points to.
func storesField(x ssa.Value, f int) bool {
	refs := x.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.Field != f || fa.Referrers() == nil {
			continue
		}
		for _, rr := range *fa.Referrers() {
			if st, ok := rr.(*ssa.Store); ok && st.Addr == fa {
				return true
			}
		}
	}
	return false
}

// boolFields returns the boolean fields of the struct that pointer x
// points to, by index.
func boolFields(x ssa.Value) []int {
	st := structOf(x.Type())
	if st == nil {
		return nil
	}
	var fs []int
	for i := range st.NumFields() {
		if isBool(st.Field(i).Type()) {
			fs = append(fs, i)
		}
	}
	return fs
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
					if b, ok := fieldBase(arg); ok {
						// Passed on: the callee may test its fields.
						for _, f := range boolFields(arg) {
							if !storesFieldOf(arg, f) && !slices.Contains(is, fieldLit(b, f)) {
								is = append(is, fieldLit(b, f))
							}
						}
					}
					if alloc, ok := arg.(*ssa.Alloc); ok {
						// Stored into a field of what the call is
						// given: tx := &Tx{writable: writable}; tx.lock().
						for _, r := range *alloc.Referrers() {
							if fa, ok := r.(*ssa.FieldAddr); ok {
								if v, _, ok := fieldInit(alloc, fa.Field); ok {
									add(v)
								}
							}
						}
					}
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
	return r.FuncWhenTrusting(fn, lits, nil)
}

// FuncWhenTrusting is FuncWhen in a goroutine whose walk runs no store
// of the trusted fields but where their objects are made (see Trusted).
func (r *Result) FuncWhenTrusting(fn *ssa.Function, lits Lits, trusted Trusted) Func {
	if len(lits) == 0 {
		return r.Func(fn)
	}
	sv := r.scratch()
	sv.trusted, sv.trustKey = trusted, trusted.String()
	fi := sv.infoWhen(fn, lits)
	if fi == nil {
		return r.Func(fn)
	}
	return Func{fi.before, fi.blocked}
}

// live returns the edges that a call fixing lits takes: an if on one of
// them takes only the branch its value selects.
func (lits Lits) live() func(*ssa.BasicBlock, int) bool {
	decide := lits.decide()
	return func(b *ssa.BasicBlock, i int) bool {
		if len(b.Instrs) == 0 {
			return true
		}
		br, isIf := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !isIf {
			return true
		}
		v, ok := decide(br.Cond)
		return !ok || v == (i == 0) // If's true branch is Succs[0]
	}
}

// callIn returns the instruction of fn whose call is call.
func callIn(fn *ssa.Function, call *ssa.CallCommon) ssa.Instruction {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok && c.Common() == call {
				return instr
			}
		}
	}
	return nil
}
