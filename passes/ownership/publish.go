package ownership

import (
	"go/token"
	"go/types"

	"github.com/origo-dev/origo/passes/pointer"
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
		if x.Op == token.MUL && fl.shape.mayHold(x.Type()) {
			return x
		}
		return nil
	case *ssa.Field, *ssa.Index, *ssa.Lookup, *ssa.Extract, *ssa.Next:
		if r := x.(ssa.Value); fl.shape.mayHold(r.Type()) {
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
	}
	fl.pubs[instr] = true // go, defer, closures, panic, and what is not known
	return nil
}

// storedInto records a store of the object, at instr, into the memory
// addr points into: nothing when that is the object itself; when it is
// another object the function made, not yet published at instr, the
// object is published wherever that one is (and returned with it);
// else instr publishes it.
func (fl *flow) storedInto(instr ssa.Instruction, addr ssa.Value) {
	if inside(addr, fl.anchors) {
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
	use, ok := fl.f.calleeUse(callee, common.Args, fl)
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
		use, ok := fl.f.calleeUse(callee, args, fl)
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

// calleeUse follows the object into a static callee of the package, to
// the depth fl has left; a callee of another package, a recursive call
// or one too deep may publish it.
func (f *freshness) calleeUse(callee *ssa.Function, args []ssa.Value, fl *flow) (calleeUse, bool) {
	if fl.depth <= 0 || callee.Blocks == nil || callee.Pkg == nil || callee.Pkg.Pkg != f.pkg ||
		len(args) != len(callee.Params) || len(args) > 64 {
		return calleeUse{}, false
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
	if use, ok := f.callees[key]; ok {
		return use, use.done && use.ok
	}
	f.callees[key] = calleeUse{}
	anchors := make(map[ssa.Value]bool)
	for i, p := range callee.Params {
		if key.denoted&(1<<i) != 0 {
			anchors[p] = true
		}
	}
	in := f.newFlow(fl.obj, fl.shape, anchors, fl.depth-1)
	for i, p := range callee.Params {
		if key.carried&(1<<i) != 0 {
			in.follow(p)
		}
	}
	use := calleeUse{done: true, ok: len(in.pubs) == 0, returns: in.returns}
	f.callees[key] = use
	return use, use.ok
}
