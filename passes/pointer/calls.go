package pointer

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/origins"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// genCall generates a call, defer or go statement. result is the block
// that receives the results, or -1.
func (a *state) genCall(p at, instr ssa.CallInstruction, result nodeID, spawn *spawnInfo) {
	call := instr.Common()
	site := &callSite{caller: p.cg, at: p, instr: instr, args: call.Args, result: result, spawn: spawn}
	if call.IsInvoke() {
		site.method = call.Method
		a.addCons(a.val(p, call.Value), invokeCons{site})
		return
	}
	switch v := call.Value.(type) {
	case *ssa.Builtin:
		a.genBuiltin(p, instr, v, call.Args, result)
		return
	case *ssa.Function:
		if spawn == nil && a.genSpawner(p, instr, v) {
			a.spawnerResult(p, instr, v, result)
			return
		}
		if spawn == nil && a.genNewCond(p, instr, result) {
			return
		}
		if spawn == nil {
			a.genCallbacks(p, instr, v, call.Args)
		}
		a.connect(site, v, a.funcObject(v))
		return
	}
	a.addCons(a.val(p, call.Value), callCons{site})
}

// genSpawner handles a call of a library function that runs a function
// argument on new goroutines (WaitGroup.Go, http.HandleFunc, t.Run, ...):
// the argument is the entry of new origins.
func (a *state) genSpawner(p at, instr ssa.CallInstruction, callee *ssa.Function) bool {
	sp, ok := syncapi.Spawn(callee)
	if !ok || sp.Arg >= len(instr.Common().Args) {
		return false
	}
	arg := instr.Common().Args[sp.Arg]
	if c, ok := arg.(*ssa.Const); ok && c.IsNil() {
		return true
	}
	if mi, ok := arg.(*ssa.MakeInterface); ok && !sp.Handler {
		arg = mi.X // runtime.SetFinalizer's finalizer is an any
	}
	site := &callSite{caller: p.cg, at: p, instr: instr, result: -1, spawn: a.spawnInfo(p, sp.Kind, sp.Flags, instr.Pos())}
	if sp.Handler {
		if sel := types.NewMethodSet(arg.Type()).Lookup(nil, "ServeHTTP"); sel != nil {
			site.method = sel.Obj().(*types.Func)
			a.addCons(a.val(p, arg), invokeCons{site})
		}
		return true
	}
	a.addCons(a.val(p, arg), callCons{site})
	return true
}

// genCallbacks starts, for a call of fn, a function of another package
// that keeps some of its function arguments for its own goroutines to
// call (effects.Result.Async: a message handler, a "closed" handler),
// an origin running each such argument, concurrently with the caller.
// args are the call's arguments, the receiver first (nil for an
// interface call's).
func (a *state) genCallbacks(p at, instr ssa.CallInstruction, fn *ssa.Function, args []ssa.Value) {
	if a.effects == nil || a.summaryMode {
		return
	}
	bits := a.effects.Async(fn)
	if bits == 0 {
		return
	}
	for i, arg := range args {
		if i >= 64 || bits&(1<<i) == 0 || arg == nil {
			continue
		}
		if c, ok := arg.(*ssa.Const); ok && c.IsNil() {
			continue
		}
		k := callbackKey{instr, p.cg, i}
		if a.callbacks[k] {
			continue // an interface call resolved to fn again
		}
		if a.callbacks == nil {
			a.callbacks = make(map[callbackKey]bool)
		}
		a.callbacks[k] = true
		site := &callSite{caller: p.cg, at: p, instr: instr, result: -1, spawn: a.spawnInfo(p, facts.SpawnCallback, 0, instr.Pos())}
		a.addCons(a.val(p, arg), callCons{site})
	}
}

// genNewCond makes sync.NewCond(l) return a Cond of its own, one per
// call site and context, whose L is l: c.L.Lock() locks the mutex the
// Cond was made with (sync's own code is out of view).
func (a *state) genNewCond(p at, instr ssa.CallInstruction, result nodeID) bool {
	l, ok := syncapi.NewCond(instr.Common())
	v, isCall := instr.(*ssa.Call)
	if !ok || !isCall || result < 0 {
		return false
	}
	ptr, ok := v.Type().Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	cond := ptr.Elem()
	st, ok := cond.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	field := -1
	for i := range st.NumFields() {
		if st.Field(i).Name() == "L" {
			field = i
		}
	}
	if field < 0 {
		return false
	}
	obj := a.allocObject(ObjAlloc, v, cond, p.cg.ctx, p.tag)
	a.addLoc(result, obj.start)
	a.addCons(result, storeCons{src: a.val(p, l), off: a.layouts.offsetOf(cond, field), size: a.size(st.Field(field).Type())})
	return true
}

// callbackKey is a callback argument of a call in one context.
type callbackKey struct {
	instr ssa.CallInstruction
	cg    *cgnode
	arg   int
}

// spawnerResult makes the pointer a spawner returns (the *time.Timer of
// time.AfterFunc) point to an unknown object of its own, so that the
// calls on it (Reset, Stop) name one object.
func (a *state) spawnerResult(p at, instr ssa.CallInstruction, fn *ssa.Function, result nodeID) {
	v, ok := instr.(*ssa.Call)
	if !ok || result < 0 {
		return
	}
	if _, ok := v.Type().Underlying().(*types.Pointer); ok {
		a.unknownBlock(result, fn.Signature.Results(), v, p.cg.ctx, "result of "+facts.ShortName(a.fnString(fn)))
	}
}

// invokeTarget connects an interface method call to the method of one
// dynamic type that the interface may hold.
func (a *state) invokeTarget(site *callSite, obj *Object) {
	if fn := a.lookupMethod(obj.Type, site.method); fn != nil {
		a.connect(site, fn, obj)
	}
}

// connect makes site call (or start) fn, reached through obj.
func (a *state) connect(site *callSite, fn *ssa.Function, obj *Object) {
	switch {
	case site.spawn != nil && !a.summaryMode:
		a.spawn(site, fn, obj)
	case len(fn.Blocks) == 0:
		if site.instr != nil && site.method != nil && site.spawn == nil {
			// An interface method of another package that keeps a
			// callback: its args lack the receiver.
			a.genCallbacks(site.at, site.instr, fn, append([]ssa.Value{nil}, site.args...))
		}
		if site.instr != nil && site.instr.Common().StaticCallee() == nil {
			k := siteKey{site.caller.ctx.Origin, site.instr}
			if !slices.Contains(a.externs[k], fn) {
				a.externs[k] = append(a.externs[k], fn)
			}
		}
		a.external(site, fn, obj)
	default:
		callee := a.cgnodeFor(fn, a.calleeContext(site.caller.ctx, site.instr, fn))
		a.bind(site, callee, obj)
		k := siteKey{site.caller.ctx.Origin, site.instr}
		if !slices.Contains(a.calls[k], fn) {
			a.calls[k] = append(a.calls[k], fn)
		}
		if a.ciContext != nil && !slices.Contains(a.callees[site.caller], callee) {
			a.callees[site.caller] = append(a.callees[site.caller], callee)
		}
	}
}

func (a *state) lookupMethod(t types.Type, m *types.Func) *ssa.Function {
	if types.IsInterface(t) {
		return nil
	}
	sel := a.prog.MethodSets.MethodSet(t).Lookup(m.Pkg(), m.Name())
	if sel == nil {
		return nil
	}
	return a.prog.MethodValue(sel)
}

// bind makes the callee's parameters receive the call's arguments, its
// free variables the closure's bindings, and the call its results. For
// an interface object, the receiver is the boxed value.
func (a *state) bind(site *callSite, callee *cgnode, obj *Object) {
	fn := callee.fn
	params := fn.Params
	switch obj.Kind {
	case ObjInterface:
		if len(params) > 0 {
			a.copyBlock(obj.start, a.valueNode(callee, params[0], 0), min(obj.layout.size(), a.size(params[0].Type())))
			params = params[1:]
		}
	case ObjClosure:
		a.bindFreeVars(callee, obj, -1)
	}
	a.bindParams(site, callee, params, 0)
	if site.result < 0 {
		return
	}
	if k, r := a.passedParam(fn); k >= 0 && obj.Kind != ObjInterface && k < len(site.args) {
		// The call returns its own argument, not what every call
		// passes; its other results (an error) are the callee's.
		res := fn.Signature.Results()
		off, n, total := a.layouts.offsetOf(res, r), a.size(res.At(r).Type()), a.size(res)
		if res.Len() == 1 {
			off, n = 0, total
		}
		a.copyBlock(a.val(site.at, site.args[k]), site.result+nodeID(off), n)
		a.copyBlock(callee.results, site.result, off)
		a.copyBlock(callee.results+nodeID(off+n), site.result+nodeID(off+n), total-off-n)
		return
	}
	a.copyBlock(callee.results, site.result, a.size(fn.Signature.Results()))
}

// passedParam returns the index of the parameter fn returns, and the
// index of the result it is returned as, when that result is always
// that parameter (or nil): a builder's method that returns its
// receiver so that calls chain (o.AddBroker(url) returns o), a function
// that returns its argument, or one that fills the object its caller
// passes and returns it with an error (hostInfoFromMap(row, &HostInfo{})
// returning host, err). Each call's result is then the pointer that
// call passes. Bound to fn's result node, as any other result, a call
// would return what every call of fn in the context passes: one test's
// options chained through AddBroker would be the options a client
// keeps and hands to its goroutines, a host being parsed the hosts of
// the ring. -1 for any other function.
func (a *state) passedParam(fn *ssa.Function) (int, int) {
	if k, ok := a.passes[fn]; ok {
		return k[0], k[1]
	}
	k := [2]int{-1, -1}
	res := fn.Signature.Results()
	for r := range res.Len() {
		if !isPointerLike(res.At(r).Type()) {
			continue
		}
		if p := returnedParam(fn, r); p >= 0 {
			k = [2]int{p, r}
		}
		break // only the first pointer result: the one a filler returns
	}
	a.passes[fn] = k
	return k[0], k[1]
}

// returnedParam returns the index of the parameter that every return of
// fn returns as its result r (a nil constant aside), or -1.
func returnedParam(fn *ssa.Function, r int) int {
	k := -1
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) <= r {
			continue
		}
		switch v := ret.Results[r].(type) {
		case *ssa.Const:
			// return nil
		case *ssa.Parameter:
			i := slices.Index(fn.Params, v)
			if i < 0 || k >= 0 && i != k {
				return -1
			}
			k = i
		default:
			return -1
		}
	}
	return k
}

// isPointerLike reports whether a value of type t may hold a pointer a
// caller passed: a pointer, an interface, a map, a slice, a channel or a
// function.
func isPointerLike(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Interface, *types.Map, *types.Slice, *types.Chan, *types.Signature:
		return true
	}
	return false
}

// bindFreeVars makes the free variables of the closure callee runs
// receive the closure object's bindings, all but the skip-th (-1 for
// none).
func (a *state) bindFreeVars(callee *cgnode, obj *Object, skip int) {
	for i, fv := range callee.fn.FreeVars {
		if i == skip {
			continue
		}
		src, size := a.part(obj.start, a.layouts.offsetOf(obj.Type, i), a.size(fv.Type()))
		a.copyBlock(src, a.valueNode(callee, fv, 0), size)
	}
}

// bindArgs binds the arguments of a static call from the from-th on.
func (a *state) bindArgs(site *callSite, callee *cgnode, from int) {
	a.bindParams(site, callee, callee.fn.Params, from)
}

func (a *state) bindParams(site *callSite, callee *cgnode, params []*ssa.Parameter, from int) {
	for i, arg := range site.args {
		if i >= len(params) {
			break
		}
		if i < from {
			continue
		}
		param := a.valueNode(callee, params[i], 0)
		a.copyBlock(a.val(site.at, arg), param, min(a.size(arg.Type()), a.size(params[i].Type())))
	}
}

// spawn starts fn in new origins, one per copy of the site. The
// arguments are evaluated by the spawner.
func (a *state) spawn(site *callSite, fn *ssa.Function, obj *Object) {
	if len(fn.Blocks) == 0 {
		a.stats.ExternalSpawns++
		a.importedSpawn(site, fn)
		return
	}
	if spawnDead(site.instr, site.caller.ctx.sites) {
		return // the constants this context's callers pass rule it out
	}
	flags := site.spawn.flags
	if site.spawn.kind == facts.SpawnSubtest {
		if origins.CallsParallel(fn) {
			flags |= facts.Parallel
		} else {
			flags |= facts.Sync
		}
	}
	if v, i, ok := a.splitBy(site, fn, obj); ok {
		sp := &split{site, fn, obj, flags, i, false}
		a.splits = append(a.splits, sp)
		a.addCons(a.val(site.at, v), spawnCons{sp})
		return
	}
	for _, c := range site.spawn.copies {
		o := a.newOrigin(site.caller.ctx.Origin, site.spawn.kind, site.spawn.pos, fn, c, flags, site.caller.ctx.sites, noReceiver)
		a.startOrigin(site, fn, obj, o, noReceiver, -1)
	}
}

// startOrigin makes o run fn, started at site; recv, unless it is
// noReceiver, is an object that o's receiver points to: its first
// parameter, or the free variable captured of a closure (see splitBy).
func (a *state) startOrigin(site *callSite, fn *ssa.Function, obj *Object, o *Origin, recv nodeID, captured int) {
	callee := a.cgnodeFor(fn, a.context(o, [2]ssa.CallInstruction{}, nil))
	a.originEntry[o] = callee
	a.noteSpawn(o, site.caller)
	switch {
	case recv == noReceiver:
		a.bind(site, callee, obj)
	case obj.Kind == ObjClosure:
		a.bindFreeVars(callee, obj, captured)
		to := a.valueNode(callee, fn.FreeVars[captured], 0)
		if cell, ok := site.instr.Common().Value.(*ssa.MakeClosure).Bindings[captured].(*ssa.Alloc); ok {
			// The variable the closure captures, stored once: a cell of
			// the origin's own that holds the one object.
			c := a.splitCells[o]
			if c == nil {
				c = a.newObject(ObjAlloc, cell, cell.Type().(*types.Pointer).Elem(), callee.ctx, 0)
				a.splitCells[o] = c
			}
			a.addLoc(to, c.start)
			to = c.start
		}
		a.addLoc(to, recv)
		a.bindArgs(site, callee, 0)
	default:
		a.addLoc(a.valueNode(callee, fn.Params[0], 0), recv)
		a.bindArgs(site, callee, 1)
	}
	k := siteKey{site.caller.ctx.Origin, site.instr}
	if !slices.Contains(a.spawns[k], o) {
		a.spawns[k] = append(a.spawns[k], o)
	}
}

// splitBy returns the pointer whose objects tell apart the goroutines
// of a go statement (see SplitValue), and the index of the free
// variable that holds it in a closure, or -1 for a function's first
// parameter.
func (a *state) splitBy(site *callSite, fn *ssa.Function, obj *Object) (v ssa.Value, captured int, ok bool) {
	if site.spawn.kind != facts.SpawnGo || obj == nil || obj.fn != fn || fn.Signature.Variadic() {
		return nil, 0, false
	}
	v, captured = SplitValue(site.instr)
	switch {
	case v == nil || a.size(v.Type()) != 1:
		return nil, 0, false
	case obj.Kind == ObjFunc && captured < 0 && len(fn.Params) > 0:
		return v, -1, true
	case obj.Kind == ObjClosure && captured >= 0 && captured < len(fn.FreeVars):
		// The cell of its own that the closure gets must not hide a
		// write of the variable that the spawner would see.
		mc := site.instr.Common().Value.(*ssa.MakeClosure)
		if _, cell := mc.Bindings[captured].(*ssa.Alloc); mc.Fn == fn && (!cell || lockset.ReadOnlyCapture(mc, mc.Bindings[captured])) {
			return v, captured, true
		}
	}
	return nil, 0, false
}

// SplitValue returns the pointer whose objects tell apart the
// goroutines of go statement c, as O2 tells threads apart by the object
// they run on: the first argument of a function (its receiver, go
// p.handle()), or the first pointer a function literal captures (go
// func() { defer s.wg.Done(); f() }()), when the variable that holds it
// is stored once, before. Each object gets origins of its own, where
// one origin would merge every server's goroutine and its WaitGroup.
// captured is the index of the free variable, or -1. Nil when c has no
// such pointer.
func SplitValue(c ssa.CallInstruction) (v ssa.Value, captured int) {
	if _, ok := c.(*ssa.Go); !ok {
		return nil, -1
	}
	pointer := func(v ssa.Value) bool {
		_, ok := v.Type().Underlying().(*types.Pointer)
		return ok
	}
	call := c.Common()
	if call.IsInvoke() {
		return nil, -1
	}
	if mc, ok := call.Value.(*ssa.MakeClosure); ok {
		for i, b := range mc.Bindings {
			if cell, ok := b.(*ssa.Alloc); ok {
				if v := storedOnce(cell, mc); v != nil && pointer(v) {
					return v, i
				}
				continue
			}
			if pointer(b) {
				return b, i
			}
		}
		return nil, -1
	}
	if call.StaticCallee() != nil && len(call.Args) > 0 && pointer(call.Args[0]) {
		return call.Args[0], -1
	}
	return nil, -1
}

// storedOnce returns the value of a captured variable that is stored
// once, in its block before the closure mc captures it, and otherwise
// only loaded or captured; else nil.
func storedOnce(cell *ssa.Alloc, mc *ssa.MakeClosure) ssa.Value {
	var val ssa.Value
	for _, r := range *cell.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != cell || val != nil || r.Block() != mc.Block() || !Dominates(r, mc) {
				return nil
			}
			val = r.Val
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return nil
			}
		case *ssa.MakeClosure:
		default:
			return nil
		}
	}
	return val
}

// Dominates reports whether instruction x runs before y on every path
// to y, in one function.
func Dominates(x, y ssa.Instruction) bool {
	if x.Parent() != y.Parent() {
		return false
	}
	if x.Block() != y.Block() {
		return x.Block().Dominates(y.Block())
	}
	for _, instr := range x.Block().Instrs {
		switch instr {
		case x:
			return true
		case y:
			return false
		}
	}
	return false
}

// noReceiver is the receiver of an origin not told apart by one.
const noReceiver nodeID = -1

// split is a go statement whose goroutines are told apart by the
// objects a pointer points to (see splitBy).
type split struct {
	site     *callSite
	fn       *ssa.Function
	obj      *Object
	flags    facts.SiteFlags
	captured int  // see splitBy
	started  bool // an object reached it
}

// spawnCons starts, for each object the pointer of a split go
// statement may point to, the origins that run on it.
type spawnCons struct{ split *split }

func (c spawnCons) solve(a *state, loc nodeID) {
	sp := c.split
	sp.started = true
	site := sp.site
	recv := loc
	if obj := a.nodes[loc].obj; obj == nil || obj.Ctx == nil || obj.Kind == ObjUnknown {
		// Not made here (a package variable, an unknown result): the
		// goroutines on such objects share one origin.
		recv = noReceiver
	}
	for _, cp := range site.spawn.copies {
		// Past the budget, o is the origin that runs on every object
		// left, and gets this one too.
		o := a.newOrigin(site.caller.ctx.Origin, site.spawn.kind, site.spawn.pos, sp.fn, cp, sp.flags, site.caller.ctx.sites, recv)
		a.startOrigin(site, sp.fn, sp.obj, o, loc, sp.captured)
	}
}

// startUnsplit starts, for the split go statements whose pointer
// points to nothing (a *testing.T that t.Run gives), the origins that
// an unsplit statement would, and reports whether there were any.
func (a *state) startUnsplit() bool {
	any := false
	for _, sp := range a.splits {
		if sp.started {
			continue
		}
		sp.started, any = true, true
		for _, cp := range sp.site.spawn.copies {
			o := a.newOrigin(sp.site.caller.ctx.Origin, sp.site.spawn.kind, sp.site.spawn.pos, sp.fn, cp, sp.flags, sp.site.caller.ctx.sites, noReceiver)
			a.startOrigin(sp.site, sp.fn, sp.obj, o, noReceiver, -1)
		}
	}
	return any
}

// external models a call of a function without a body here (declared in
// another package, or in assembly): its results point to unknown objects
// of their types, and the function values it is given may be called.
func (a *state) external(site *callSite, fn *ssa.Function, obj *Object) {
	a.stats.External++
	var recv *Object
	if obj.Kind == ObjInterface {
		recv = obj
	}
	a.recordImported(site, fn)
	name := a.summaryName(fn)
	if ref, ok := a.summaries.lookupName(name); ok {
		a.stats.Summarized++
		a.applySummary(site, name, fn.Signature, recv, ref)
	} else if site.result >= 0 {
		a.unknownBlock(site.result, fn.Signature.Results(), site.instr.(ssa.Value), site.caller.ctx, "result of "+facts.ShortName(a.fnString(fn)))
	}
	var async uint64 // the callbacks its goroutines call instead (genCallbacks)
	if a.effects != nil && !a.summaryMode {
		async = a.effects.Async(fn)
	}
	shift := 0
	if site.method != nil {
		shift = 1 // an interface call's args lack the receiver
	}
	for i, arg := range site.args {
		if j := i + shift; j < 64 && async&(1<<j) != 0 {
			continue
		}
		if _, ok := arg.Type().Underlying().(*types.Signature); ok {
			cb := &callSite{caller: site.caller, at: site.at, instr: site.instr, result: -1}
			a.addCons(a.val(site.at, arg), callCons{cb})
		}
	}
}

// unknownBlock makes each pointer-like leaf of a block of type t point to
// an unknown object of its pointee's type, one per (site, context, leaf).
func (a *state) unknownBlock(block nodeID, t types.Type, site ssa.Value, ctx *Context, label string) {
	for i, lf := range a.layouts.of(t).leaves {
		contents := contents(lf.typ)
		if contents == nil {
			continue
		}
		obj := a.allocObject(ObjUnknown, site, contents, ctx, i)
		obj.Label = label
		a.addLoc(block+nodeID(i), obj.start)
	}
}

// contents returns the type of what a leaf of type t points to (see
// facts.Pointee), a map's being its key and value; nil when t points
// to nothing.
func contents(t types.Type) types.Type {
	if _, ok := t.Underlying().(*types.Map); ok {
		return mapContents(t)
	}
	if p := facts.Pointee(t); p != types.Typ[types.Invalid] {
		return p
	}
	return nil
}

// genBuiltin handles the builtins that move pointers.
func (a *state) genBuiltin(p at, instr ssa.CallInstruction, b *ssa.Builtin, args []ssa.Value, result nodeID) {
	switch b.Name() {
	case "append":
		s := args[0].Type().Underlying().(*types.Slice)
		a.copyEdge(a.val(p, args[0]), result)
		a.addLoc(result, a.allocObject(ObjSlice, instr.(ssa.Value), s.Elem(), p.cg.ctx, p.tag).start)
		a.moveElems(p, args[1], result, s.Elem())
	case "copy":
		if s, ok := args[0].Type().Underlying().(*types.Slice); ok {
			a.moveElems(p, args[1], a.val(p, args[0]), s.Elem())
		}
	case "ssa:wrapnilchk":
		a.copyEdge(a.val(p, args[0]), result)
	}
}

// moveElems copies the elements of the slice src into the arrays that
// dst points to.
func (a *state) moveElems(p at, src ssa.Value, dst nodeID, elem types.Type) {
	if _, ok := src.Type().Underlying().(*types.Slice); !ok {
		return // append([]byte, string...)
	}
	tmp := a.newNodes(elem, nil)
	size := a.size(elem)
	a.addCons(a.val(p, src), loadCons{dst: tmp, size: size})
	a.addCons(dst, storeCons{src: tmp, size: size})
}
