package ownership

import (
	"go/token"
	"go/types"
	"maps"
	"slices"

	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/runflag"
	"golang.org/x/tools/go/ssa"
)

// A flow follows, through one function, the values that may carry a
// pointer into one object, and collects the instructions that may let
// another goroutine reach it: storing it into memory outside the object,
// sending it, a go or defer statement or a closure taking it, a panic,
// and a call of anything but a function of the package that is shown
// not to publish what it is given.
type flow struct {
	f       *freshness
	obj     any                // names the object's types, for the memo of callees
	shape   *shape             // the types of the pointers into the object
	anchors map[ssa.Value]bool // values that denote the object itself
	depth   int                // how much deeper calls are followed
	carries map[ssa.Value]bool
	pubs    map[ssa.Instruction]bool
	returns bool // a value that may carry the object is returned
	// holder, when set, is the store into an owning field whose
	// object the flow follows: it publishes nothing of its own (see
	// ownedBy).
	holder *ssa.Store
	// owners denote the objects that hold the one followed, for a flow
	// of a container (a variable's cell): a closure stored into one of
	// them goes where they go (see keptClosure).
	owners map[ssa.Value]bool
}

func (f *freshness) newFlow(obj any, sh *shape, anchors map[ssa.Value]bool, depth int) *flow {
	return &flow{
		f:       f,
		obj:     obj,
		shape:   sh,
		anchors: anchors,
		depth:   depth,
		carries: make(map[ssa.Value]bool),
		pubs:    make(map[ssa.Instruction]bool),
	}
}

// follow adds v and what is derived from it to the carriers.
func (fl *flow) follow(v ssa.Value) {
	if fl.carries[v] {
		return
	}
	fl.carries[v] = true
	work := []ssa.Value{v}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, instr := range *refs {
			if r := fl.use(instr, v); r != nil && !fl.carries[r] {
				fl.carries[r] = true
				work = append(work, r)
			}
		}
	}
}

// use records whether instr, which uses the carrier v, publishes the
// object, and returns its result when that may carry the object too.
func (fl *flow) use(instr ssa.Instruction, v ssa.Value) ssa.Value {
	switch x := instr.(type) {
	case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.Slice, *ssa.Phi, *ssa.ChangeType, *ssa.Convert,
		*ssa.MultiConvert, *ssa.MakeInterface, *ssa.ChangeInterface, *ssa.TypeAssert,
		*ssa.SliceToArrayPointer, *ssa.Range:
		return x.(ssa.Value)
	case *ssa.UnOp:
		// A load gives what the object holds, which is the object only
		// where a pointer to it was stored into it (s.init(s)).
		if x.Op == token.MUL && fl.mayHold(x) {
			return x
		}
		return nil
	case *ssa.Field, *ssa.Index, *ssa.Lookup, *ssa.Extract, *ssa.Next:
		if r := x.(ssa.Value); fl.mayHold(r) {
			return r
		}
		return nil
	case *ssa.BinOp, *ssa.If, *ssa.Jump, *ssa.DebugRef:
		return nil
	case *ssa.Return:
		fl.returns = true // the caller follows the result; no write follows a return
		return nil
	case *ssa.Store:
		if x.Val == v && x != fl.holder {
			fl.storedInto(instr, x.Addr)
		}
		return nil
	case *ssa.MapUpdate:
		if x.Key == v || x.Value == v {
			fl.storedInto(instr, x.Map)
		}
		return nil
	case *ssa.Send:
		if x.X == v {
			fl.pubs[instr] = true
		}
		return nil
	case *ssa.Select:
		for _, st := range x.States {
			if st.Send == v {
				fl.pubs[instr] = true
			}
		}
		return nil
	case *ssa.Call:
		return fl.call(x, v)
	case *ssa.MakeClosure:
		if fl.keptClosure(x) || dormantTimer(x) || fl.calledOnly(x) {
			return nil
		}
	}
	fl.pubs[instr] = true // go, defer, closures, panic, and what is not known
	return nil
}

// mayHold reports whether v, which is what the object holds or part of
// it, may point into the object. Its type says so first (see shape). An
// interface may hold anything, so there the pointer analysis says: v
// may only where it finds in v a box this package made whose dynamic
// type may. A box another package made holds what that package was
// given, and giving it the object is a publication of its own; the same
// holds for what a call without a body returns.
func (fl *flow) mayHold(v ssa.Value) bool {
	t := v.Type()
	if !fl.shape.mayHold(t) {
		return false
	}
	if !types.IsInterface(t) || fl.f.ptr == nil {
		return true
	}
	for _, loc := range fl.f.ptr.PointsTo(v) {
		switch loc.Obj.Kind {
		case pointer.ObjInterface:
			if dyn := loc.Obj.DynamicType(); dyn != nil && fl.shape.mayHold(dyn) {
				return true
			}
		case pointer.ObjUnknown:
		default:
			return true
		}
	}
	return false
}

// capturable reports whether a free variable of type t may carry the
// object: it may point into it, or it is a variable's cell that may
// hold such a pointer.
func (fl *flow) capturable(t types.Type) bool {
	if fl.shape.mayHold(t) {
		return true
	}
	p, ok := t.Underlying().(*types.Pointer)
	return ok && fl.shape.mayHold(p.Elem())
}

// keptClosure reports whether the closure c, which captures the object,
// only becomes part of it: every use of c stores it into a field of the
// object (or of an object that holds it, for a container's flow:
// c.onEvict = func() { c.onExit() }), a field that the package only ever
// loads to call it there and then, so that the closure goes nowhere the
// object does not; and its body, followed as a callee is, does not
// publish what it captures, so that calling it publishes nothing.
func (fl *flow) keptClosure(c *ssa.MakeClosure) bool {
	fn, ok := c.Fn.(*ssa.Function)
	if !ok {
		return false
	}
	for _, r := range *c.Referrers() {
		switch x := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			fa, ok := x.Addr.(*ssa.FieldAddr)
			if x.Val != c || !ok || !fl.f.onlyCalled(runflag.Field(fa)) {
				return false
			}
			base := denoted(fa.X)
			if !fl.anchors[base] && !fl.owners[base] {
				return false
			}
		default:
			return false
		}
	}
	return fl.f.closureUse(fn, fl).ok
}

// onlyCalled reports whether every use of the function-typed field in
// the package's functions stores into it or loads it to call it on the
// spot (s.onEvict(v)): not to pass, keep, send or start it.
func (f *freshness) onlyCalled(field *types.Var) bool {
	if field == nil {
		return false
	}
	if v, ok := f.called[field]; ok {
		return v
	}
	v := true
	for _, fn := range f.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				fa, ok := instr.(*ssa.FieldAddr)
				if !ok || runflag.Field(fa) != field {
					continue
				}
				for _, r := range *fa.Referrers() {
					v = v && usedToCall(r, fa)
				}
			}
		}
	}
	if f.called == nil {
		f.called = make(map[*types.Var]bool)
	}
	f.called[field] = v
	return v
}

// usedToCall reports whether r, a use of the field address fa, stores
// into the field or loads it only to call what it loaded.
func usedToCall(r ssa.Instruction, fa *ssa.FieldAddr) bool {
	switch x := r.(type) {
	case *ssa.DebugRef:
		return true
	case *ssa.Store:
		return x.Addr == fa
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return false
		}
		for _, u := range *x.Referrers() {
			call, ok := u.(*ssa.Call)
			if _, debug := u.(*ssa.DebugRef); debug {
				continue
			}
			if !ok || call.Call.Value != x || slices.Contains(call.Call.Args, ssa.Value(x)) {
				return false
			}
		}
		return true
	}
	return false
}

// storedInto records a store of the object, at instr, into the memory
// addr points into: nothing when that is the object itself, or, for a
// container's flow, an object that the container holds (a node holding
// the top of a stack, pushed onto it: r.top = &node{parent: r.top});
// when it is another object the function made, not yet published at
// instr, the object is published wherever that one is (and returned
// with it); else instr publishes it.
func (fl *flow) storedInto(instr ssa.Instruction, addr ssa.Value) {
	if inside(addr, fl.anchors) || inside(addr, fl.owners) {
		return
	}
	box := allocation(addr)
	if box == nil {
		fl.pubs[instr] = true
		return
	}
	use, ok := fl.f.container(box, fl)
	if !ok || publishedBefore(box, instr, use.pubs) {
		fl.pubs[instr] = true
		return
	}
	for p := range use.pubs {
		fl.pubs[p] = true
	}
	fl.returns = fl.returns || use.returns
}

// containerKey names a fresh object that holds another: loads from it
// are followed as the held object's shape says too.
type containerKey struct {
	box  ssa.Instruction
	held any
}

// containerUse is where a container is published, and whether it is
// returned.
type containerUse struct {
	done    bool // false while it is being followed
	pubs    map[ssa.Instruction]bool
	returns bool
}

// container follows box, an object fl's function made that fl's object is
// stored into, as deep as fl may still go; false for a container already
// being followed.
func (f *freshness) container(box ssa.Instruction, fl *flow) (containerUse, bool) {
	if fl.depth <= 0 {
		return containerUse{}, false
	}
	key := containerKey{box, fl.obj}
	if use, ok := f.containers[key]; ok {
		return use, use.done
	}
	f.containers[key] = containerUse{}
	v := box.(ssa.Value)
	in := f.newFlow(key, shapeOf(v.Type()).with(fl.shape), map[ssa.Value]bool{v: true}, fl.depth-1)
	in.owners = make(map[ssa.Value]bool, len(fl.anchors)+len(fl.owners))
	maps.Copy(in.owners, fl.anchors)
	maps.Copy(in.owners, fl.owners)
	in.follow(v)
	use := containerUse{done: true, pubs: in.pubs, returns: in.returns}
	f.containers[key] = use
	return use, true
}

// call records whether the call x, given the carrier v, publishes the
// object, and returns its result when that may carry the object.
func (fl *flow) call(x *ssa.Call, v ssa.Value) ssa.Value {
	common := x.Common()
	if b, ok := common.Value.(*ssa.Builtin); ok {
		return fl.builtin(x, b, v)
	}
	callee := common.StaticCallee()
	if common.IsInvoke() || callee == nil {
		return fl.dynamicCall(x, v)
	}
	if syncOperand(callee, common, v) {
		return nil
	}
	use, ok := fl.f.calleeUse(callee, common.Args, values(callee.Params), fl).result()
	if !ok {
		fl.pubs[x] = true
		return nil
	}
	if use.returns {
		return x
	}
	return nil
}

// dynamicCall records whether a call of a function value or an interface
// method publishes the object: not when the pointer analysis finds, in
// every goroutine that makes the call, callees that all keep it (a
// constructor applying its options, opt(d)).
func (fl *flow) dynamicCall(x *ssa.Call, v ssa.Value) ssa.Value {
	args := pointer.ParamArgs(x.Common())
	callees, ok := fl.f.dynamicCallees(x)
	if !ok {
		fl.pubs[x] = true
		return nil
	}
	returns := false
	for _, callee := range callees {
		use, ok := fl.f.calleeUse(callee, args, values(callee.Params), fl).result()
		if !ok {
			fl.pubs[x] = true
			return nil
		}
		returns = returns || use.returns
	}
	if returns {
		return x
	}
	return nil
}

// builtin records whether a builtin call publishes the object: append
// and copy store the object's pointer into another array when it is
// what they add or copy.
func (fl *flow) builtin(x *ssa.Call, b *ssa.Builtin, v ssa.Value) ssa.Value {
	args := x.Call.Args
	switch b.Name() {
	case "append":
		if args[1] == v {
			fl.pubs[x] = true
		}
		return x
	case "copy":
		if args[1] == v && !inside(args[0], fl.anchors) && fl.shape.mayHold(elemType(args[1].Type())) {
			fl.pubs[x] = true
		}
	case "ssa:wrapnilchk":
		return x
	}
	return nil
}

func elemType(t types.Type) types.Type {
	if s, ok := t.Underlying().(*types.Slice); ok {
		return s.Elem()
	}
	return types.Typ[types.Byte] // copy from a string
}

// syncOperand reports whether v is the operand a method of package sync
// or a sync/atomic operation works on (s.mu.Lock(), atomic.AddInt64(&s.n,
// 1)), which does not publish it.
func syncOperand(callee *ssa.Function, common *ssa.CallCommon, v ssa.Value) bool {
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || len(common.Args) == 0 || common.Args[0] != v {
		return false
	}
	for _, a := range common.Args[1:] {
		if a == v {
			return false
		}
	}
	switch obj.Pkg().Path() {
	case "sync/atomic":
		return true
	case "sync":
		return obj.Signature().Recv() != nil
	}
	return false
}

// calleeKey names what a callee is asked: what it does with an object of
// one type that some of its parameters carry and some denote.
type calleeKey struct {
	fn               *ssa.Function
	carried, denoted uint64 // parameters, by bit
	obj              any
}

// calleeUse says what a callee does with the object it is given.
type calleeUse struct {
	done    bool // false while the callee is being followed
	ok      bool // it does not publish the object
	returns bool // it may return it
}

// packageOf returns the package whose source fn is: that of the
// generic function an instance was made from, which has no package of
// its own, and of a closure's enclosing function.
func packageOf(fn *ssa.Function) *types.Package {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if fn.Pkg == nil && fn.Origin() != nil {
		fn = fn.Origin()
	}
	if fn.Pkg == nil {
		return nil
	}
	return fn.Pkg.Pkg
}

func values[V ssa.Value](vs []V) []ssa.Value {
	out := make([]ssa.Value, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

func (u calleeUse) result() (calleeUse, bool) { return u, u.ok }

// calleeUse follows the object into a static callee of the package, to
// the depth fl has left, given args for its params (or a closure's
// bindings for its free variables); a callee of another package, a
// recursive call or one too deep may publish it.
func (f *freshness) calleeUse(callee *ssa.Function, args []ssa.Value, params []ssa.Value, fl *flow) calleeUse {
	if len(args) != len(params) || len(args) > 64 {
		return calleeUse{}
	}
	key := calleeKey{fn: callee, obj: fl.obj}
	for i, a := range args {
		if fl.carries[a] {
			key.carried |= 1 << i
		}
		if inside(a, fl.anchors) {
			key.denoted |= 1 << i
		}
	}
	return f.follow(key, params, fl)
}

// calledOnly reports whether the closure c, which captures the object,
// runs only on the spot, on its maker's goroutine: every use of c calls
// it, or passes it to a function of the package that only calls that
// parameter (a callback run before the call returns: peekRead(r, 8,
// func(b []byte) { *v = makeInt64(b) })); and its body, followed as a
// callee is, does not publish what it captures.
func (fl *flow) calledOnly(c *ssa.MakeClosure) bool {
	fn, ok := c.Fn.(*ssa.Function)
	if !ok {
		return false
	}
	for _, r := range *c.Referrers() {
		switch x := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			callee := x.Call.StaticCallee()
			for i, a := range x.Call.Args {
				if a == c && (callee == nil || packageOf(callee) != fl.f.pkg || !onlyCalledParam(callee, i)) {
					return false
				}
			}
		default:
			return false
		}
	}
	// The literal is the function's own code, run where it is called:
	// its body is followed as deep as the function itself is.
	inline := *fl
	inline.depth++
	return fl.f.closureUse(fn, &inline).ok
}

// onlyCalledParam reports whether fn's i-th parameter is only called, or
// compared, in fn's body: it goes nowhere else.
func onlyCalledParam(fn *ssa.Function, i int) bool {
	if fn.Blocks == nil || i >= len(fn.Params) {
		return false
	}
	p := fn.Params[i]
	for _, r := range *p.Referrers() {
		switch x := r.(type) {
		case *ssa.DebugRef, *ssa.BinOp:
		case *ssa.Call:
			if slices.Contains(x.Call.Args, ssa.Value(p)) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// closureUse follows the object into the body of a closure that may
// capture it: its free variables whose type may point into the object,
// or to a variable that may.
func (f *freshness) closureUse(fn *ssa.Function, fl *flow) calleeUse {
	if len(fn.FreeVars) > 64 {
		return calleeUse{}
	}
	key := calleeKey{fn: fn, obj: fl.obj}
	for i, fv := range fn.FreeVars {
		if fl.capturable(fv.Type()) {
			key.carried |= 1 << i
		}
	}
	return f.follow(key, values(fn.FreeVars), fl)
}

// follow follows the object into callee, whose params (or free
// variables) key says carry and denote it.
func (f *freshness) follow(key calleeKey, params []ssa.Value, fl *flow) calleeUse {
	callee := key.fn
	if fl.depth <= 0 || callee.Blocks == nil || packageOf(callee) != f.pkg {
		return calleeUse{}
	}
	if use, ok := f.callees[key]; ok {
		use.ok = use.done && use.ok
		return use
	}
	f.callees[key] = calleeUse{}
	anchors := make(map[ssa.Value]bool)
	for i, p := range params {
		if key.denoted&(1<<i) != 0 {
			anchors[p] = true
		}
	}
	in := f.newFlow(fl.obj, fl.shape, anchors, fl.depth-1)
	for i, p := range params {
		if key.carried&(1<<i) != 0 {
			in.follow(p)
		}
	}
	use := calleeUse{done: true, ok: len(in.pubs) == 0, returns: in.returns}
	f.callees[key] = use
	return use
}
