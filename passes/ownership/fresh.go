package ownership

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/dataflow"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// The pointer analysis merges every object made at one allocation site,
// so a constructor's accesses to the object it just made meet the
// goroutines that work on the objects the same site made before. No
// goroutine can reach an object before its function publishes it, and a
// race on the object happens at or after the publication, so the
// accesses before it are dropped: those to a field or element of an
// object allocated in the same function, at a point that every path from
// the allocation reaches without passing an instruction that publishes
// it (see flow). The same holds for an object a package function made
// and returned unpublished (freshResult), and for a parameter that every
// caller passes such an object at (freshParam).

// maxCalleeDepth bounds how deep the calls that receive a fresh object
// are followed to show that they do not publish it.
const maxCalleeDepth = 3

// freshness memoizes, for one run, which writes are to unpublished
// objects and what the package's functions do with the objects given to
// them.
type freshness struct {
	pkg          *types.Package
	ptr          *pointer.Result   // for the callees of dynamic calls
	accesses     map[freshKey]bool // whether the access's object is unpublished there
	pubs         map[ssa.Instruction]map[ssa.Instruction]bool
	callees      map[calleeKey]calleeUse
	containers   map[containerKey]containerUse
	factories    map[*ssa.Function]bool // see freshResult
	params       map[paramKey]bool      // see freshParam
	paramPubs    map[paramPart]map[ssa.Instruction]bool
	callers      map[*ssa.Function][]ssa.CallInstruction // nil until asked
	entries      map[*ssa.Function]bool                  // the functions goroutines and roots start in
	origins      map[*ssa.Function][]*pointer.Origin
	argObjs      map[ssa.Value]map[*pointer.Object]bool // see mayPass
	setups       map[*ssa.Function]bool                 // see setupMethod
	owns         map[*ssa.Function]bool                 // see ownObjects
	funcs        []*ssa.Function                        // the package's, for setupMethod's static calls
	static       map[*ssa.Function][]ssa.CallInstruction
	owned        map[ownedKey]bool // see owning
	assumed      map[ownedKey]bool // the fields being decided, see owning
	assumedOrder []ownedKey
	stores       *storeIndex                          // see fieldStores
	held         map[heldKey]map[ssa.Instruction]bool // see holderPubs
	parts        map[partKey]*shape                   // see partShape
	called       map[*types.Var]bool                  // see onlyCalled
	// spawnsOf gives the goroutines a call of an imported function may
	// start (origins.Result.Of); nil when they are not known.
	spawnsOf func(*ssa.Function) *facts.Origins
}

func newFreshness(pkg *types.Package, ptr *pointer.Result, funcs []*ssa.Function) *freshness {
	return &freshness{
		pkg:        pkg,
		ptr:        ptr,
		accesses:   make(map[freshKey]bool),
		pubs:       make(map[ssa.Instruction]map[ssa.Instruction]bool),
		callees:    make(map[calleeKey]calleeUse),
		containers: make(map[containerKey]containerUse),
		factories:  make(map[*ssa.Function]bool),
		params:     make(map[paramKey]bool),
		origins:    make(map[*ssa.Function][]*pointer.Origin),
		argObjs:    make(map[ssa.Value]map[*pointer.Object]bool),
		paramPubs:  make(map[paramPart]map[ssa.Instruction]bool),
		setups:     make(map[*ssa.Function]bool),
		funcs:      funcs,
		owned:      make(map[ownedKey]bool),
		held:       make(map[heldKey]map[ssa.Instruction]bool),
		parts:      make(map[partKey]*shape),
	}
}

// initializing reports whether acc touches an object its own function
// allocated, before the function publishes it: the stores of a
// composite literal, a variable's stores before a closure captures it,
// and a constructor's reads and writes across branches and loops and
// calls that only use the object.
func (f *freshness) initializing(acc pointer.Access, obj *pointer.Object) bool {
	addr := accessedAddr(acc)
	if addr == nil {
		return false
	}
	k := freshKey{acc.Instr, acc.Write, obj}
	if v, ok := f.accesses[k]; ok {
		return v
	}
	v := f.unpublished(addr, acc.Instr, obj)
	f.accesses[k] = v
	return v
}

// unpublished reports whether the objects that addr points into at w
// are all made by w's function and not yet published there. A slice
// that append grows in a loop is the arrays of its make and of each
// append: one made in an earlier iteration may be written in place, so
// a publication anywhere on a path from where an array is made to w
// counts, around the loop too.
func (f *freshness) unpublished(addr ssa.Value, w ssa.Instruction, obj *pointer.Object) bool {
	if alloc := allocation(addr); alloc != nil {
		return alloc.Parent() == w.Parent() && !publishedBefore(alloc, w, f.publications(alloc))
	}
	if call := madeBy(addr); call != nil && f.freshResult(call, maxCalleeDepth) {
		return !publishedBefore(call, w, f.publications(call))
	}
	if p := paramOf(addr); p != nil && p.Parent() == w.Parent() {
		return f.freshParam(p, obj, maxCalleeDepth) && !f.paramPublishedBefore(p, nil, w)
	}
	if holder, part := f.heldPart(addr); holder != nil {
		return f.holderUnpublished(holder, f.partShape(part.Type(), nil), w, maxCalleeDepth)
	}
	makers, ok := grownFrom(addr)
	if !ok || len(makers) == 0 {
		return false
	}
	for _, m := range makers {
		if m.Parent() != w.Parent() || publishedOnSomePath(m, w, f.publications(m)) {
			return false
		}
	}
	return true
}

// maxGrowth bounds the values followed back from a grown slice.
const maxGrowth = 64

// grownFrom returns the instructions that made the arrays a slice
// built by append may use: its make, and the appends that may have
// grown it, through phis; false when some array may come from
// elsewhere.
func grownFrom(v ssa.Value) ([]ssa.Instruction, bool) {
	var makers []ssa.Instruction
	seen := make(map[ssa.Value]bool)
	work := []ssa.Value{v}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[v] {
			continue
		}
		if seen[v] = true; len(seen) > maxGrowth {
			return nil, false
		}
		switch x := v.(type) {
		case *ssa.FieldAddr:
			work = append(work, x.X)
		case *ssa.IndexAddr:
			work = append(work, x.X)
		case *ssa.Slice:
			work = append(work, x.X)
		case *ssa.Phi:
			work = append(work, x.Edges...)
		case *ssa.Const:
			// nil: no array
		case *ssa.UnOp:
			// A load of a field of an object the function made: the
			// slices the function stored there (d.pairs = append(d.pairs,
			// p)), published with the object. Not a pointer it loads
			// there (a struct parameter's copy, n.b of go wait(notice{b})),
			// nor a field of a box stored whole, whose value came from
			// elsewhere.
			fa, ok := x.X.(*ssa.FieldAddr)
			if !ok || x.Op != token.MUL {
				return nil, false
			}
			if _, slice := x.Type().Underlying().(*types.Slice); !slice {
				return nil, false
			}
			box := allocation(fa)
			if box == nil || storedWhole(box) {
				return nil, false
			}
			makers = append(makers, box)
			work = append(work, storedIn(fa)...)
		case *ssa.Alloc, *ssa.MakeSlice, *ssa.MakeMap:
			makers = append(makers, x.(ssa.Instruction))
		case *ssa.Call:
			b, ok := x.Call.Value.(*ssa.Builtin)
			if !ok || b.Name() != "append" {
				return nil, false
			}
			makers = append(makers, x) // the array it grows into
			work = append(work, x.Call.Args[0])
		default:
			return nil, false
		}
	}
	return makers, true
}

// storedWhole reports whether a value is stored into box as a whole
// (the copy go/ssa makes of a struct parameter): its fields then hold
// what the value held.
func storedWhole(box ssa.Instruction) bool {
	v, ok := box.(ssa.Value)
	if !ok || v.Referrers() == nil {
		return false
	}
	return slices.ContainsFunc(*v.Referrers(), func(r ssa.Instruction) bool {
		st, ok := r.(*ssa.Store)
		return ok && st.Addr == v
	})
}

// storedIn returns the values that fa's function stores at field
// fa.Field of the value fa selects it from. A callee that stores there
// is not seen.
func storedIn(fa *ssa.FieldAddr) []ssa.Value {
	var vals []ssa.Value
	for _, b := range fa.Parent().Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			if at, ok := st.Addr.(*ssa.FieldAddr); ok && at.X == fa.X && at.Field == fa.Field {
				vals = append(vals, st.Val)
			}
		}
	}
	return vals
}

// freshKey is an access by its instruction: copy reads one slice and
// writes another.
type freshKey struct {
	instr ssa.Instruction
	write bool
	obj   *pointer.Object // the object accessed, for a parameter (see freshParam)
}

// accessedAddr returns the memory an access reads or writes: the address
// of a load or store, the map of a map operation, the slice of append,
// copy's destination (its write) or source (its read), the operand of an
// atomic operation.
func accessedAddr(acc pointer.Access) ssa.Value {
	if addr := pointer.Addr(acc.Instr); addr != nil {
		return addr
	}
	switch x := acc.Instr.(type) {
	case *ssa.MapUpdate:
		return x.Map
	case *ssa.Lookup:
		return x.X
	case *ssa.Convert:
		return x.X // string(b) reads b's elements
	case *ssa.Call:
		if acc.Imported != nil {
			return nil // the accesses of an imported callee
		}
		args := x.Call.Args
		if b, ok := x.Call.Value.(*ssa.Builtin); ok && (b.Name() == "copy" || b.Name() == "append") && !acc.Write && !acc.Copied && len(args) > 1 {
			return args[1] // the source the call reads
		}
		if buf, _, ok := syncapi.IOBuffer(x.Common()); ok {
			return buf // Read(p) writes p's elements, Write(p) reads them
		}
		if len(args) > 0 {
			return args[0]
		}
	}
	return nil
}

// allocation returns the instruction that made the object v points
// into, when v selects a field, element or slice of what it made and no
// pointer is loaded on the way; else nil.
func allocation(v ssa.Value) ssa.Instruction {
	switch x := denoted(v).(type) {
	case *ssa.Alloc, *ssa.MakeSlice, *ssa.MakeMap, *ssa.MakeChan:
		return x.(ssa.Instruction)
	}
	return nil
}

// selected returns the value that v selects a field, element or slice
// of, through any number of selections and no load: it points into the
// same object.
func selected(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.Slice:
			v = x.X
		default:
			return v
		}
	}
}

// maxCells bounds the variables followed by denoted.
const maxCells = 8

// denoted returns the value whose object v points into, as selected
// does, and through the loads of a variable that holds one value (see
// assigned): a variable a closure captures lives in a cell that every
// use loads, and it still denotes what the function assigned it.
func denoted(v ssa.Value) ssa.Value {
	for range maxCells {
		v = selected(v)
		load, ok := v.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			return v
		}
		val := assigned(load)
		if val == nil {
			return v
		}
		v = val
	}
	return v
}

// assigned returns the value that load reads from a local variable of
// its function that is assigned once, by a store that comes before the
// load on every path, and whose address nothing takes but closures
// that only read it: what the variable holds there. It returns nil for
// any other load.
func assigned(load *ssa.UnOp) ssa.Value {
	cell, ok := load.X.(*ssa.Alloc)
	if !ok || cell.Parent() != load.Parent() {
		return nil
	}
	return heldAt(cell, load)
}

// heldAt returns the value that the variable cell holds at at, an
// instruction of its function: that of its one store, when the store
// comes before at on every path and the closures that capture the cell
// only read it; nil otherwise.
func heldAt(cell *ssa.Alloc, at ssa.Instruction) ssa.Value {
	store := onlyStore(cell)
	if store == nil || !dataflow.Precedes(store, at) {
		return nil
	}
	for _, r := range *cell.Referrers() {
		if c, ok := r.(*ssa.MakeClosure); ok && !readOnlyBindings(c, cell, maxCells) {
			return nil
		}
	}
	return store.Val
}

// readOnlyBindings reports whether the closure c only reads the
// variables it binds to cell, itself and through the closures it makes
// in turn, depth deep.
func readOnlyBindings(c *ssa.MakeClosure, cell ssa.Value, depth int) bool {
	fn, ok := c.Fn.(*ssa.Function)
	if !ok || depth <= 0 {
		return false
	}
	for i, b := range c.Bindings {
		if b != cell {
			continue
		}
		fv := fn.FreeVars[i]
		for _, r := range *fv.Referrers() {
			switch x := r.(type) {
			case *ssa.UnOp:
				if x.Op != token.MUL {
					return false
				}
			case *ssa.DebugRef:
			case *ssa.MakeClosure:
				if !readOnlyBindings(x, fv, depth-1) {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// madeBy returns the call whose result v selects a field, element or
// slice of, with no pointer loaded on the way; else nil.
func madeBy(v ssa.Value) *ssa.Call {
	v = denoted(v)
	if ta, ok := v.(*ssa.TypeAssert); ok && !ta.CommaOk {
		v = ta.X // p := NewPacket(kind).(*Publish): the object the call made
	}
	call, _ := v.(*ssa.Call)
	return call
}

// freshResult reports whether call returns an object that its callee, a
// function of the package, made and did not publish before returning it
// (wrapDesc's newDesc := NewDesc(...)): the caller is the first to hold
// it. The callee's results may come from calls of such functions too,
// depth deep. A function of another package shows it by its summary and
// its origins (see importedFresh).
func (f *freshness) freshResult(call *ssa.Call, depth int) bool {
	callee := call.Call.StaticCallee()
	if callee != nil && callee.Pkg != nil && callee.Pkg.Pkg != f.pkg {
		return f.importedFresh(callee)
	}
	if callee == nil || callee.Blocks == nil || callee.Pkg == nil || callee.Signature.Results().Len() != 1 {
		return false
	}
	if v, ok := f.factories[callee]; ok {
		return v
	}
	f.factories[callee] = false // a recursive call: not shown fresh
	v := depth > 0
	for _, b := range callee.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !v || !ok {
			continue
		}
		v = f.returnsFresh(ret, ret.Results[0], depth)
	}
	f.factories[callee] = v
	return v
}

// returnsFresh reports whether r, returned by ret, is nil or an object
// that ret's function made and has not published by ret.
func (f *freshness) returnsFresh(ret *ssa.Return, r ssa.Value, depth int) bool {
	switch x := r.(type) {
	case *ssa.Const:
		return true
	case *ssa.Alloc, *ssa.MakeSlice, *ssa.MakeMap, *ssa.MakeChan:
		alloc := x.(ssa.Instruction)
		return !publishedBefore(alloc, ret, f.publications(alloc))
	case *ssa.Call:
		return f.freshResult(x, depth-1) && !publishedBefore(x, ret, f.publications(x))
	}
	return false
}

// paramOf returns the parameter whose object v selects a field, element
// or slice of, with no pointer loaded on the way; else nil.
func paramOf(v ssa.Value) *ssa.Parameter {
	p, _ := denoted(v).(*ssa.Parameter)
	return p
}

// paramPart names the publications of a parameter's object, with its
// parts of one shape or none.
type paramPart struct {
	p    ssa.Value // a parameter or a free variable
	part *shape
}

// paramKey asks whether a parameter is fresh when it denotes one object.
type paramKey struct {
	p   *ssa.Parameter
	obj *pointer.Object
}

// freshParam reports whether every call of p's function, found by the
// pointer analysis in any goroutine, that may pass obj at p passes an
// object that no other goroutine can reach yet: one the caller made or
// got from a fresh result or a fresh parameter of its own, depth deep,
// and has not published before the call (an option applied by a
// constructor, s.init(s) in one). The calls that cannot pass obj do not
// count (populateMetric fills the fresh metric of NewConstMetric, and
// the one of its caller that Counter.Write is given). A function that a
// goroutine or a root starts in has callers the analysis does not see.
func (f *freshness) freshParam(p *ssa.Parameter, obj *pointer.Object, depth int) bool {
	k := paramKey{p, obj}
	if v, ok := f.params[k]; ok {
		return v
	}
	f.params[k] = false // a recursive call: not shown fresh
	fn := p.Parent()
	i := slices.Index(fn.Params, p)
	f.findCallers()
	v := depth > 0 && i >= 0 && !f.entries[fn]
	passing := 0
	for _, site := range f.callers[fn] {
		if !v {
			break
		}
		call, args, ok := boundArgs(site, fn)
		if !ok {
			v = false
			break
		}
		if !f.mayPass(call, args[i], obj) {
			continue
		}
		passing++
		v = f.freshAt(args[i], call, obj, depth-1)
	}
	v = v && passing > 0
	f.params[k] = v
	return v
}

// freshAlong reports whether acc, run at the end of the chain of calls
// frames, touches an object that a caller on the chain made and had not
// published when it made the call leading to acc, while no callee on the
// way published it before its own call: startRemote makes a pipeline and
// calls its start, which writes p.stopc before its go statements publish
// p. Resume calls start on a published pipeline, so freshParam, which
// asks every caller, keeps start's writes; this chain's run of them
// touches only the new one.
//
// The access may touch a part of the parameter's object, loaded from an
// owning field (see owningField): r.header.crc = x, with header a field of
// the stack node that r.top holds, writes what the caller's fresh r holds,
// so r's publications count, with its parts'.
func (f *freshness) freshAlong(frames []pointer.Frame, acc pointer.Access) bool {
	v, w := accessedAddr(acc), acc.Instr
	var part *shape // the shape of the parts the access is in, nil for none
	for i := len(frames) - 1; i > 0 && v != nil; i-- {
		fn := frames[i].Fn
		base := denoted(v)
		for d := 0; d < maxCalleeDepth; d++ {
			if _, ok := base.(*ssa.Parameter); ok {
				break
			}
			if fv, _ := capturedBy(base); fv != nil {
				break
			}
			h, load := f.heldPart(v)
			if h == nil {
				break
			}
			part, v = f.partShape(load.Type(), part), h
			base = denoted(v)
		}
		if fv, cell := capturedBy(base); fv != nil {
			// A literal's access to what it captured: follow the
			// binding where the chain made the closure, or, for a
			// variable's cell, what its maker stored there once.
			if fv.Parent() != fn || w.Parent() != fn || f.capturePublishedBefore(fv, cell, part, w) {
				return false
			}
			mc, k := pointer.MadeClosure(frames, i)
			if mc == nil {
				return false
			}
			v, w, i = mc.Bindings[slices.Index(fn.FreeVars, fv)], frames[k+1].Site, k+1
			if cell {
				alloc, ok := v.(*ssa.Alloc)
				if !ok {
					return false
				}
				if v = heldAt(alloc, mc); v == nil {
					return false
				}
			}
			continue
		}
		p, _ := base.(*ssa.Parameter)
		if p == nil || p.Parent() != fn || w.Parent() != fn || f.paramPublishedBefore(p, part, w) {
			return false
		}
		call, args, ok := boundArgs(frames[i].Site, fn)
		if !ok || call.Parent() != frames[i-1].Fn {
			return false
		}
		a := args[slices.Index(fn.Params, p)]
		if alloc := allocation(a); alloc != nil {
			return alloc.Parent() == call.Parent() && !publishedBefore(alloc, call, f.pubsWith(alloc, part))
		}
		if made := madeBy(a); made != nil {
			return made.Parent() == call.Parent() && f.freshResult(made, maxCalleeDepth) && !publishedBefore(made, call, f.pubsWith(made, part))
		}
		v, w = a, call
	}
	return false
}

// importedFresh reports whether a call of fn, a function of another
// package, returns an object that its caller is the first to hold: its
// points-to summary shows the object made by the call and stored nowhere
// the caller's arguments or a package variable reach (see
// pointer.Result.ImportedFresh), and it starts no goroutine, which could
// hold the object without a store the summary shows.
func (f *freshness) importedFresh(fn *ssa.Function) bool {
	if v, ok := f.factories[fn]; ok {
		return v
	}
	v := f.ptr.ImportedFresh(fn) && f.spawnsOf != nil && f.spawnsOf(fn) == nil
	f.factories[fn] = v
	return v
}

// capturedBy returns the free variable v is, or whose cell v loads (a
// variable the literal captured, cell true); nil for other values.
func capturedBy(v ssa.Value) (fv *ssa.FreeVar, cell bool) {
	if fv, ok := v.(*ssa.FreeVar); ok {
		return fv, false
	}
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if fv, ok := load.X.(*ssa.FreeVar); ok {
			return fv, true
		}
	}
	return nil, false
}

// capturePublishedBefore reports whether the literal may publish what fv
// captured, or what the cell fv points to holds (each load of it), on
// some path from its entry to w.
func (f *freshness) capturePublishedBefore(fv *ssa.FreeVar, cell bool, part *shape, w ssa.Instruction) bool {
	if !cell {
		return f.paramPublishedBefore(fv, part, w)
	}
	for _, r := range *fv.Referrers() {
		switch x := r.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL || f.paramPublishedBefore(x, part, w) {
				return true
			}
		case *ssa.DebugRef:
		default:
			return true // stored into, or handed on
		}
	}
	return false
}

// pubsWith returns the publications of the object made by made, and of
// its parts of shape part when that is not nil.
func (f *freshness) pubsWith(made ssa.Instruction, part *shape) map[ssa.Instruction]bool {
	if part == nil {
		return f.publications(made)
	}
	return f.holderPubs(made, part)
}

// setupMethod reports whether every call of method fn in the package
// and its tests, static or found by the pointer analysis, gives it a
// receiver that the caller made (or got from a constructor) and has
// not published yet, and there is such a call: t := &Transport{};
// t.Start(); return t. fn sets its object up before the object is
// shared, as its callers show, and library mode presumes no caller that
// runs it concurrently with the other methods (see presumed).
func (f *freshness) setupMethod(fn *ssa.Function) bool {
	if v, ok := f.setups[fn]; ok {
		return v
	}
	f.setups[fn] = false // a recursive call: not shown
	calls := f.callsOf(fn)
	v := fn.Signature.Recv() != nil && len(fn.Params) > 0 && len(calls) > 0
	for _, site := range calls {
		if !v {
			break
		}
		call, args, ok := boundArgs(site, fn)
		if !ok || !f.freshAt(args[0], call, nil, maxCalleeDepth) {
			v = false
			break
		}
	}
	f.setups[fn] = v
	return v
}

// callsOf returns the calls of fn in the package and its tests: static
// ones, and those the pointer analysis finds.
func (f *freshness) callsOf(fn *ssa.Function) []ssa.CallInstruction {
	f.findCallers()
	if f.static == nil {
		f.static = make(map[*ssa.Function][]ssa.CallInstruction)
		for _, g := range f.funcs {
			for _, b := range g.Blocks {
				for _, instr := range b.Instrs {
					if c, ok := instr.(ssa.CallInstruction); ok {
						if callee := c.Common().StaticCallee(); callee != nil {
							f.static[callee] = append(f.static[callee], c)
						}
					}
				}
			}
		}
	}
	calls := slices.Clone(f.static[fn])
	for _, c := range f.callers[fn] {
		if !slices.Contains(calls, c) {
			calls = append(calls, c)
		}
	}
	return calls
}

// boundArgs returns site as a call and the values it binds to fn's
// parameters, one each; false for a go or defer statement, which runs
// later, or a call that does not bind every parameter.
func boundArgs(site ssa.CallInstruction, fn *ssa.Function) (*ssa.Call, []ssa.Value, bool) {
	call, ok := site.(*ssa.Call)
	if !ok {
		return nil, nil, false
	}
	args := pointer.ParamArgs(&call.Call)
	return call, args, len(args) == len(fn.Params)
}

// mayPass reports whether a, an argument of call, may point to obj in
// some origin of call's function. The objects of a are kept: a
// parameter is asked of each object that reaches it, and each asks
// every caller.
func (f *freshness) mayPass(call *ssa.Call, a ssa.Value, obj *pointer.Object) bool {
	objs, ok := f.argObjs[a]
	if !ok {
		objs = make(map[*pointer.Object]bool)
		for _, o := range f.originsOf(call.Parent()) {
			for _, loc := range f.ptr.PointsToIn(o, a) {
				objs[loc.Obj] = true
			}
		}
		f.argObjs[a] = objs
	}
	return objs[obj]
}

// freshAt reports whether a, an argument of call, is an object that
// call's function made, got fresh from a call or as a fresh parameter,
// and has not published before call.
func (f *freshness) freshAt(a ssa.Value, call *ssa.Call, obj *pointer.Object, depth int) bool {
	if alloc := allocation(a); alloc != nil {
		return alloc.Parent() == call.Parent() && !publishedBefore(alloc, call, f.publications(alloc))
	}
	if made := madeBy(a); made != nil {
		return made.Parent() == call.Parent() && f.freshResult(made, depth) && !publishedBefore(made, call, f.publications(made))
	}
	if p := paramOf(a); p != nil && p.Parent() == call.Parent() {
		return f.freshParam(p, obj, depth) && !f.paramPublishedBefore(p, nil, call)
	}
	return false
}

// findCallers fills the callers of every function, once.
func (f *freshness) findCallers() {
	if f.callers != nil {
		return
	}
	f.callers = make(map[*ssa.Function][]ssa.CallInstruction)
	f.entries = make(map[*ssa.Function]bool)
	for _, o := range f.ptr.Origins {
		f.entries[o.Entry] = true
		for _, fn := range f.ptr.RootFuncs(o) {
			f.entries[fn] = true
		}
	}
	f.ptr.Calls(func(_ *pointer.Origin, site ssa.CallInstruction, callees []*ssa.Function) bool {
		for _, fn := range callees {
			if !slices.Contains(f.callers[fn], site) {
				f.callers[fn] = append(f.callers[fn], site)
			}
		}
		return true
	})
}

// paramPublishedBefore reports whether p's function may publish the
// object p, a parameter or a free variable, denotes on some path from
// its entry to w, or one of its parts of shape part when that is not nil.
func (f *freshness) paramPublishedBefore(p ssa.Value, part *shape, w ssa.Instruction) bool {
	k := paramPart{p, part}
	pubs, ok := f.paramPubs[k]
	if !ok {
		sh, key := shapeOf(p.Type()), any(p.Type())
		if part != nil {
			sh, key = sh.with(part), k
		}
		fl := f.newFlow(key, sh, map[ssa.Value]bool{p: true}, maxCalleeDepth)
		fl.follow(p)
		pubs = fl.pubs
		f.paramPubs[k] = pubs
	}
	if len(pubs) == 0 {
		return false
	}
	bw := w.Block()
	if anyIn(bw.Instrs[:indexOf(w)], pubs) {
		return true
	}
	for b := range walkBlocks(bw, nil, func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Preds }) {
		if anyIn(b.Instrs, pubs) {
			return true
		}
	}
	return false
}

// inside reports whether v points into the object that one of anchors
// denotes: the anchor itself, or a field, element or slice of it.
func inside(v ssa.Value, anchors map[ssa.Value]bool) bool {
	for !anchors[v] {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.Slice:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		default:
			return false
		}
	}
	return true
}

// publications returns the instructions of alloc's function that may let
// another goroutine reach the object alloc makes.
func (f *freshness) publications(alloc ssa.Instruction) map[ssa.Instruction]bool {
	if p, ok := f.pubs[alloc]; ok {
		return p
	}
	v := alloc.(ssa.Value)
	fl := f.newFlow(v.Type(), shapeOf(v.Type()), map[ssa.Value]bool{v: true}, maxCalleeDepth)
	fl.follow(v)
	f.pubs[alloc] = fl.pubs
	return fl.pubs
}

// publishedBefore reports whether some path from alloc to w, not
// through alloc again (which makes another object), passes one of pubs.
// Inside a loop that does not allocate again, the part of the loop after
// w leads back to w: an object published in one iteration and written in
// the next is not fresh.
func publishedBefore(alloc, w ssa.Instruction, pubs map[ssa.Instruction]bool) bool {
	if len(pubs) == 0 {
		return false
	}
	ba, bw := alloc.Block(), w.Block()
	ia, iw := indexOf(alloc), indexOf(w)
	if ba == bw {
		return ia > iw || anyIn(ba.Instrs[ia+1:iw], pubs)
	}
	between := blocksBetween(ba, bw)
	if anyIn(ba.Instrs[ia+1:], pubs) || anyIn(bw.Instrs[:iw], pubs) {
		return true
	}
	for b := range between {
		if b != bw && anyIn(b.Instrs, pubs) {
			return true
		}
	}
	for _, s := range bw.Succs {
		// w's block is in a loop that reaches it again: what the
		// previous run published from w on, w itself when it is a
		// call that publishes, was published before w's next run.
		if between[s] && anyIn(bw.Instrs[iw:], pubs) {
			return true
		}
	}
	return false
}

// blocksBetween returns the blocks, other than from, that lie on a path
// from block from to block to that does not go through from again.
// publishedOnSomePath reports whether some path from maker to w, through
// maker again or not, passes one of pubs.
func publishedOnSomePath(maker, w ssa.Instruction, pubs map[ssa.Instruction]bool) bool {
	if len(pubs) == 0 {
		return false
	}
	bm, bw := maker.Block(), w.Block()
	im, iw := indexOf(maker), indexOf(w)
	succs := func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Succs }
	preds := func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Preds }
	forward, backward := walkBlocks(bm, nil, succs), walkBlocks(bw, nil, preds)
	if bm == bw && im < iw && !forward[bm] {
		return anyIn(bm.Instrs[im+1:iw], pubs)
	}
	if anyIn(bm.Instrs[im+1:], pubs) || anyIn(bw.Instrs[:iw], pubs) {
		return true
	}
	for b := range forward {
		if backward[b] && anyIn(b.Instrs, pubs) {
			return true
		}
	}
	return false
}

func blocksBetween(from, to *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	forward := walkBlocks(from, from, func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Succs })
	backward := walkBlocks(to, from, func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Preds })
	backward[to] = true
	between := make(map[*ssa.BasicBlock]bool)
	for b := range forward {
		if backward[b] {
			between[b] = true
		}
	}
	return between
}

// walkBlocks returns the blocks that next leads to from start, in one or
// more steps, without going through avoid.
func walkBlocks(start, avoid *ssa.BasicBlock, next func(*ssa.BasicBlock) []*ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	seen := make(map[*ssa.BasicBlock]bool)
	work := []*ssa.BasicBlock{start}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range next(b) {
			if s != avoid && !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return seen
}

func indexOf(instr ssa.Instruction) int {
	for i, x := range instr.Block().Instrs {
		if x == instr {
			return i
		}
	}
	return -1
}

func anyIn(instrs []ssa.Instruction, set map[ssa.Instruction]bool) bool {
	for _, instr := range instrs {
		if set[instr] {
			return true
		}
	}
	return false
}

// originsOf returns the origins that fn is analyzed in, asked once.
func (f *freshness) originsOf(fn *ssa.Function) []*pointer.Origin {
	origins, ok := f.origins[fn]
	if !ok {
		origins = f.ptr.OriginsOf(fn)
		f.origins[fn] = origins
	}
	return origins
}

// dynamicCallees returns the functions that the dynamic call x may call
// in the origins of its function, or false when some origin may call
// what the analysis does not see: a function value or an interface it
// knows nothing of, or one it found no callee for. An origin where the
// value is no function at all (opt(d) over an empty opts) calls none.
func (f *freshness) dynamicCallees(x *ssa.Call) ([]*ssa.Function, bool) {
	origins := f.originsOf(x.Parent())
	if len(origins) == 0 {
		return nil, false
	}
	var out []*ssa.Function
	for _, o := range origins {
		pts := f.ptr.PointsToIn(o, x.Call.Value)
		if slices.ContainsFunc(pts, func(l pointer.Location) bool { return l.Obj.Kind == pointer.ObjUnknown }) {
			return nil, false
		}
		callees := f.ptr.Callees(o, x)
		if len(callees) == 0 && len(pts) > 0 {
			return nil, false
		}
		for _, fn := range callees {
			if !slices.Contains(out, fn) {
				out = append(out, fn)
			}
		}
	}
	return out, true
}
