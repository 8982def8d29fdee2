package pointer

import (
	"go/token"
	"go/types"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/internal/loops"
	"golang.org/x/tools/go/ssa"
)

// cgnode is a function analyzed in one context.
type cgnode struct {
	fn      *ssa.Function
	ctx     *Context
	values  map[valueKey]nodeID // first node of each value's block
	results nodeID              // block of the result tuple
	loop    []int               // by block index: the loop (CFG component) holding it, or -1
}

// valueKey names the block of nodes of a value. A value defined in a
// loop has one block per iteration tag (0 and 1): the loop body is
// analyzed twice, as two iterations, so that what one iteration
// allocates reaches the goroutine that iteration starts and not the
// other's. Values carried around the loop or out of it are the union of
// both tags (tag merged).
type valueKey struct {
	v   ssa.Value
	tag int8
}

const merged = 2

// at is where an instruction is generated: a function in a context, a
// block, and an iteration tag (0 outside loops).
type at struct {
	cg  *cgnode
	b   *ssa.BasicBlock
	tag int
}

type cgKey struct {
	fn  *ssa.Function
	ctx *Context
}

// callSite is a call, go statement or defer in one cgnode, with what
// the callee receives: the arguments (receiver first) and the block that
// takes its results.
type callSite struct {
	caller *cgnode
	at     at
	args   []ssa.Value
	result nodeID // block for the results; -1 if unused
	spawn  *spawnInfo
	method *types.Func // for an interface method call
	instr  ssa.CallInstruction
}

// spawnInfo marks a call site that starts goroutines instead of calling.
type spawnInfo struct {
	kind   facts.SpawnKind
	flags  facts.SiteFlags
	pos    token.Pos
	copies []int // the origin copies this site starts (see spawnCopies)
}

// cgnodeFor returns the cgnode of fn in ctx, generating its constraints
// the first time.
func (a *state) cgnodeFor(fn *ssa.Function, ctx *Context) *cgnode {
	k := cgKey{fn, ctx}
	if cg, ok := a.cgnodes[k]; ok {
		return cg
	}
	cg := &cgnode{fn: fn, ctx: ctx, values: make(map[valueKey]nodeID)}
	a.cgnodes[k] = cg
	a.cgList = append(a.cgList, cg)
	if same := a.byFunc[fn]; len(same) > 0 {
		cg.loop = same[0].loop // read only: shared by fn's contexts
	} else {
		cg.loop = loops.Components(fn)
	}
	a.byFunc[fn] = append(a.byFunc[fn], cg)
	cg.results = a.newNodes(fn.Signature.Results(), nil)
	a.genFunc(cg)
	return cg
}

// tagOf returns the tag under which value v is seen from position p:
// its own iteration when both are in the same loop, the union of both
// iterations when v comes from a loop p is not in, and 0 for values
// defined outside loops.
func tagOf(p at, v ssa.Value) int {
	instr, ok := v.(ssa.Instruction)
	if !ok || instr.Block() == nil || p.cg.loop[instr.Block().Index] < 0 {
		return 0
	}
	if p.b != nil && p.cg.loop[p.b.Index] == p.cg.loop[instr.Block().Index] {
		return p.tag
	}
	return merged
}

// val returns the first node of the block of v as seen from p, creating
// it on first use.
func (a *state) val(p at, v ssa.Value) nodeID {
	return a.valueNode(p.cg, v, tagOf(p, v))
}

func (a *state) valueNode(cg *cgnode, v ssa.Value, tag int) nodeID {
	k := valueKey{v, int8(tag)}
	if n, ok := cg.values[k]; ok {
		return n
	}
	n := a.newNodes(v.Type(), nil)
	cg.values[k] = n
	switch v := v.(type) {
	case *ssa.Function:
		a.addLoc(n, a.funcObject(v).start)
	case *ssa.Global:
		a.addLoc(n, a.globalObject(v).start)
	}
	if tag == merged {
		size := a.size(v.Type())
		a.copyBlock(a.valueNode(cg, v, 0), n, size)
		a.copyBlock(a.valueNode(cg, v, 1), n, size)
	}
	return n
}

// lookupVal is val without creating nodes, once solving is done.
func (a *state) lookupVal(p at, v ssa.Value) (nodeID, bool) {
	n, ok := p.cg.values[valueKey{v, int8(tagOf(p, v))}]
	return n, ok
}

func (a *state) funcObject(fn *ssa.Function) *Object {
	if obj, ok := a.funcObjs[fn]; ok {
		return obj
	}
	obj := a.newObject(ObjFunc, fn, fn.Signature, nil, 0)
	obj.fn = fn
	a.funcObjs[fn] = obj
	return obj
}

// globalObject returns the object of a package-level variable. Globals
// are keyed by name, so that a summary naming one reaches the same object.
func (a *state) globalObject(g *ssa.Global) *Object {
	if obj, ok := a.globalsByVar[g]; ok {
		return obj
	}
	if a.globalsByVar == nil {
		a.globalsByVar = make(map[*ssa.Global]*Object)
	}
	name := g.String()
	obj, ok := a.globals[name]
	if !ok {
		obj = a.newObject(ObjGlobal, g, g.Type().(*types.Pointer).Elem(), nil, 0)
		a.globals[name] = obj
	}
	a.globalsByVar[g] = obj // the entries of globals never change
	return obj
}

// copyBlock adds copy edges for a whole block of n nodes.
func (a *state) copyBlock(src, dst nodeID, n int) {
	for i := range n {
		if !a.fits(src, i) || !a.fits(dst, i) {
			return
		}
		a.copyEdge(src+nodeID(i), dst+nodeID(i))
	}
}

func (a *state) size(t types.Type) int { return a.layouts.of(t).size() }

// genFunc generates the constraints of one function body; the blocks of
// loops twice, once per iteration tag.
func (a *state) genFunc(cg *cgnode) {
	for _, b := range cg.fn.Blocks {
		tags := 1
		if cg.loop[b.Index] >= 0 {
			tags = 2
		}
		for tag := range tags {
			p := at{cg, b, tag}
			for _, instr := range b.Instrs {
				a.genInstr(p, instr)
			}
		}
	}
}

// movesNoPointer reports whether instr moves no pointer: a load or store
// of data without pointers, or the address of such data used only for
// that. Computing summaries, where no access is collected, such an
// instruction needs no node: the tables that package initializers fill
// (crypto/internal/fips140/nistec's) were 95% of the nodes.
func (a *state) movesNoPointer(instr ssa.Instruction) bool {
	switch instr := instr.(type) {
	case *ssa.Store:
		return a.dataOnly(instr.Val.Type())
	case *ssa.UnOp:
		return instr.Op == token.MUL && a.dataOnly(instr.Type())
	case *ssa.Field, *ssa.Index:
		return a.dataOnly(instr.(ssa.Value).Type())
	case *ssa.FieldAddr, *ssa.IndexAddr:
		return a.addrOfData(instr.(ssa.Value))
	}
	return false
}

// addrOfData reports whether the address v is used only to load or
// store data without pointers, directly or through the addresses of its
// fields and elements.
func (a *state) addrOfData(v ssa.Value) bool {
	if known, ok := a.dataAddrs[v]; ok {
		return known
	}
	a.dataAddrs[v] = false // a cycle (through a phi) is not data
	data := true
	for _, ref := range *v.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			data = ref.Addr == v && ref.Val != v && a.dataOnly(ref.Val.Type())
		case *ssa.UnOp:
			data = ref.Op == token.MUL && a.dataOnly(ref.Type())
		case *ssa.FieldAddr:
			data = a.addrOfData(ref)
		case *ssa.IndexAddr:
			data = ref.X == v && a.addrOfData(ref)
		case *ssa.DebugRef:
		default:
			data = false
		}
		if !data {
			break
		}
	}
	a.dataAddrs[v] = data
	return data
}

// dataOnly reports whether no leaf of t may hold a pointer.
func (a *state) dataOnly(t types.Type) bool {
	for _, lf := range a.layouts.of(t).leaves {
		if !lf.noPointer {
			return false
		}
	}
	return true
}

func (a *state) genInstr(p at, instr ssa.Instruction) {
	val := func(v ssa.Value) nodeID { return a.val(p, v) }
	ctx := p.cg.ctx
	// Every package variable the code names has its object, even when
	// only a call without a body uses it (mu.Lock(), once.Do(f)): the
	// passes that follow ask what such operands point to.
	a.operands = instr.Operands(a.operands[:0]) // an array here went to the heap at each instruction
	for _, op := range a.operands {
		if g, ok := (*op).(*ssa.Global); ok {
			a.globalObject(g)
		}
	}
	if a.summaryMode && a.movesNoPointer(instr) {
		return
	}
	switch instr := instr.(type) {
	case *ssa.Alloc:
		t := instr.Type().(*types.Pointer).Elem()
		a.addLoc(val(instr), a.allocObject(ObjAlloc, instr, t, ctx, p.tag).start)

	case *ssa.MakeSlice:
		t := instr.Type().Underlying().(*types.Slice).Elem()
		a.addLoc(val(instr), a.allocObject(ObjSlice, instr, t, ctx, p.tag).start)

	case *ssa.MakeMap:
		a.addLoc(val(instr), a.allocObject(ObjMap, instr, mapContents(instr.Type()), ctx, p.tag).start)

	case *ssa.MakeChan:
		t := instr.Type().Underlying().(*types.Chan).Elem()
		a.addLoc(val(instr), a.allocObject(ObjChan, instr, t, ctx, p.tag).start)

	case *ssa.MakeClosure:
		fn := instr.Fn.(*ssa.Function)
		obj := a.allocObject(ObjClosure, instr, freeVarsType(fn), ctx, p.tag)
		obj.fn = fn
		for i, binding := range instr.Bindings {
			dst, size := a.part(obj.start, a.layouts.offsetOf(obj.Type, i), a.size(binding.Type()))
			a.copyBlock(val(binding), dst, size)
		}
		a.addLoc(val(instr), obj.start)

	case *ssa.MakeInterface:
		obj := a.allocObject(ObjInterface, instr, instr.X.Type(), ctx, p.tag)
		a.copyBlock(val(instr.X), obj.start, obj.layout.size())
		a.addLoc(val(instr), obj.start)

	case *ssa.Store:
		a.addCons(val(instr.Addr), storeCons{src: val(instr.Val), size: a.size(instr.Val.Type()), typ: a.filterOf(instr.Val.Type())})

	case *ssa.UnOp:
		switch instr.Op {
		case token.MUL: // load
			a.addCons(val(instr.X), loadCons{dst: val(instr), size: a.size(instr.Type()), typ: a.filterOf(instr.Type())})
		case token.ARROW: // receive: the element, or (element, ok)
			elem := instr.X.Type().Underlying().(*types.Chan).Elem()
			a.addCons(val(instr.X), loadCons{dst: val(instr), size: a.size(elem)})
		}

	case *ssa.Send:
		elem := instr.Chan.Type().Underlying().(*types.Chan).Elem()
		a.addCons(val(instr.Chan), storeCons{src: val(instr.X), size: a.size(elem)})

	case *ssa.Select:
		a.genSelect(p, instr)

	case *ssa.FieldAddr:
		st := instr.X.Type().Underlying().(*types.Pointer).Elem()
		a.addCons(val(instr.X), offsetCons{dst: val(instr), off: a.layouts.offsetOf(st, instr.Field), typ: a.filterOf(st)})

	case *ssa.Field:
		src, size := a.part(val(instr.X), a.layouts.offsetOf(instr.X.Type(), instr.Field), a.size(instr.Type()))
		a.copyBlock(src, val(instr), size)

	case *ssa.IndexAddr:
		// One element stands for all, at offset 0 of the array object.
		a.copyEdge(val(instr.X), val(instr))

	case *ssa.Index:
		if _, ok := instr.X.Type().Underlying().(*types.Array); ok {
			a.copyBlock(val(instr.X), val(instr), a.size(instr.Type()))
		}

	case *ssa.Slice:
		a.copyEdge(val(instr.X), val(instr))

	case *ssa.Lookup:
		if m, ok := instr.X.Type().Underlying().(*types.Map); ok {
			keySize := a.size(m.Key())
			a.addCons(val(instr.X), loadCons{dst: val(instr), off: keySize, size: a.size(m.Elem())})
		}

	case *ssa.MapUpdate:
		m := instr.Map.Type().Underlying().(*types.Map)
		keySize := a.size(m.Key())
		a.addCons(val(instr.Map), storeCons{src: val(instr.Key), size: keySize})
		a.addCons(val(instr.Map), storeCons{src: val(instr.Value), off: keySize, size: a.size(m.Elem())})

	case *ssa.Range:
		a.copyEdge(val(instr.X), val(instr))

	case *ssa.Next:
		if !instr.IsString {
			// (ok, key, value) from the map the iterator ranges over; a
			// key or value the loop does not use has the invalid type.
			m := instr.Iter.(*ssa.Range).X.Type().Underlying().(*types.Map)
			tuple := instr.Type().(*types.Tuple)
			keySize := a.size(m.Key())
			if isValid(tuple.At(1).Type()) {
				dst, size := a.part(val(instr), a.layouts.offsetOf(tuple, 1), keySize)
				a.addCons(val(instr.Iter), loadCons{dst: dst, size: size})
			}
			if isValid(tuple.At(2).Type()) {
				dst, size := a.part(val(instr), a.layouts.offsetOf(tuple, 2), a.size(m.Elem()))
				a.addCons(val(instr.Iter), loadCons{dst: dst, off: keySize, size: size})
			}
		}

	case *ssa.Extract:
		src, size := a.part(val(instr.Tuple), a.layouts.offsetOf(instr.Tuple.Type(), instr.Index), a.size(instr.Type()))
		a.copyBlock(src, val(instr), size)

	case *ssa.Phi:
		for i, e := range instr.Edges {
			src := val(e)
			if p.b.Dominates(p.b.Preds[i]) {
				// A back edge: the value comes from the previous
				// iteration, which may have either tag.
				src = a.mergedVal(p.cg, e)
			}
			a.copyBlock(src, val(instr), a.size(instr.Type()))
		}

	case *ssa.ChangeType, *ssa.ChangeInterface, *ssa.SliceToArrayPointer, *ssa.MultiConvert:
		x := *instr.Operands(nil)[0]
		v := instr.(ssa.Value)
		a.copyBlock(val(x), val(v), min(a.size(x.Type()), a.size(v.Type())))

	case *ssa.Convert:
		if sl, ok := instr.Type().Underlying().(*types.Slice); ok {
			if t, ok := instr.X.Type().Underlying().(*types.Basic); ok && t.Info()&types.IsString != 0 {
				// []byte(s) and []rune(s) make a new array.
				a.addLoc(val(instr), a.allocObject(ObjSlice, instr, sl.Elem(), ctx, p.tag).start)
				break
			}
		}
		if mayPoint(instr.X.Type()) && mayPoint(instr.Type()) {
			// unsafe.Pointer to and from *T: the pointer is kept, its
			// type is not trusted (offsets are checked against objects).
			a.stats.Unsafe++
			a.copyEdge(val(instr.X), val(instr))
		}

	case *ssa.TypeAssert:
		iface := types.IsInterface(instr.AssertedType)
		a.addCons(val(instr.X), assertCons{dst: val(instr), typ: instr.AssertedType, isIface: iface})

	case *ssa.Return:
		for i, r := range instr.Results {
			dst, size := a.part(p.cg.results, a.layouts.offsetOf(p.cg.fn.Signature.Results(), i), a.size(r.Type()))
			a.copyBlock(val(r), dst, size)
		}

	case *ssa.Call:
		a.genCall(p, instr, val(instr), nil)

	case *ssa.Defer:
		a.genCall(p, instr, -1, nil)

	case *ssa.Go:
		flags := facts.SiteFlags(0)
		if p.cg.loop[p.b.Index] >= 0 {
			flags |= facts.Multiple
		}
		a.genCall(p, instr, -1, a.spawnInfo(p, facts.SpawnGo, flags, instr.Pos()))
	}
}

func isValid(t types.Type) bool { return t != types.Typ[types.Invalid] }

// mergedVal returns the block of v that holds both iteration tags.
func (a *state) mergedVal(cg *cgnode, v ssa.Value) nodeID {
	if tagOf(at{cg: cg}, v) == 0 {
		return a.valueNode(cg, v, 0) // defined outside loops
	}
	return a.valueNode(cg, v, merged)
}

// spawnInfo describes a site that starts goroutines. A site in a loop
// body starts, in iteration tag k, origin copy k; a site outside loops
// that may start many goroutines (a handler) starts both copies.
func (a *state) spawnInfo(p at, kind facts.SpawnKind, flags facts.SiteFlags, pos token.Pos) *spawnInfo {
	sp := &spawnInfo{kind: kind, flags: flags, pos: pos}
	switch {
	case p.cg.loop[p.b.Index] >= 0:
		sp.flags |= facts.Multiple
		sp.copies = []int{p.tag}
	case flags&facts.Multiple != 0:
		sp.copies = []int{0, 1}
	default:
		sp.copies = []int{0}
	}
	return sp
}

// allocObject returns the object for an allocation site in a context;
// it is created once per (site, context, tag).
func (a *state) allocObject(kind ObjectKind, site ssa.Value, t types.Type, ctx *Context, tag int) *Object {
	k := allocKey{site, ctx, tag}
	if obj, ok := a.allocs[k]; ok {
		return obj
	}
	obj := a.newObject(kind, site, t, ctx, tag)
	a.allocs[k] = obj
	return obj
}

type allocKey struct {
	site any // an ssa.Value, or the call site of a summary
	ctx  *Context
	tag  int
}

// mapContents is the type of a map object's contents: the key, then the
// value.
func mapContents(t types.Type) types.Type {
	m := t.Underlying().(*types.Map)
	return types.NewTuple(types.NewParam(token.NoPos, nil, "key", m.Key()), types.NewParam(token.NoPos, nil, "value", m.Elem()))
}

// freeVarsType is the type of a closure object's contents: its free
// variables, in order.
func freeVarsType(fn *ssa.Function) types.Type {
	vars := make([]*types.Var, len(fn.FreeVars))
	for i, fv := range fn.FreeVars {
		vars[i] = types.NewParam(token.NoPos, nil, fv.Name(), fv.Type())
	}
	return types.NewTuple(vars...)
}

// genSelect: each receiving case loads into its part of the result
// tuple (index, recvOk, r0, r1, ...); each sending case stores.
func (a *state) genSelect(p at, sel *ssa.Select) {
	res := a.val(p, sel)
	tuple := sel.Type().(*types.Tuple)
	part := 2
	for _, st := range sel.States {
		elem := st.Chan.Type().Underlying().(*types.Chan).Elem()
		ch := a.val(p, st.Chan)
		if st.Dir == types.SendOnly {
			a.addCons(ch, storeCons{src: a.val(p, st.Send), size: a.size(elem)})
			continue
		}
		dst, size := a.part(res, a.layouts.offsetOf(tuple, part), a.size(elem))
		a.addCons(ch, loadCons{dst: dst, size: size})
		part++
	}
}
