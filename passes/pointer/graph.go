package pointer

import (
	"cmp"
	"fmt"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/passes/guard"
	"golang.org/x/tools/go/ssa"
)

// nodeID names a node: a leaf of an SSA value in one context, or a leaf
// of an abstract object. The points-to set of a node holds the nodeIDs of
// object leaves, which are the locations of memory.
type nodeID int32

// node is one vertex of the constraint graph.
type node struct {
	pts       locSet       // locations this node may point to
	delta     *locSet      // members not yet propagated; nil when none (see deltaOf)
	succ      []nodeID     // copy edges: pts(succ) ⊇ pts(this)
	cons      []constraint // complex constraints triggered by pts(this)
	obj       *Object      // non-nil for object leaves
	end       nodeID       // the end of the node's block (see fits)
	queued    bool         // on the worklist
	noPointer bool         // the leaf's type cannot hold a pointer (see mayPoint)
}

// ObjectKind says what an abstract object stands for.
type ObjectKind uint8

// The kinds of abstract objects.
const (
	ObjAlloc     ObjectKind = iota + 1 // new(T), &T{}, a variable that escapes
	ObjSlice                           // the array behind make([]T) or append
	ObjMap                             // make(map[K]V): the key, then the value
	ObjChan                            // make(chan T): the element
	ObjClosure                         // func literal: its free variables
	ObjInterface                       // the boxed value of an interface
	ObjGlobal                          // package-level variable
	ObjFunc                            // a function, as a value
	ObjUnknown                         // what a call without a body, or a root's parameter, points to
)

var objectKindNames = [...]string{"?", "alloc", "slice", "map", "chan", "closure", "iface", "global", "func", "unknown"}

func (k ObjectKind) String() string { return objectKindNames[k] }

// Object is an abstract object: an allocation site in a context.
type Object struct {
	Kind  ObjectKind
	Site  ssa.Value  // the allocating value, or the Global or Function; nil for roots' parameters
	Type  types.Type // the type of the object's contents (for ObjInterface, the dynamic type)
	Ctx   *Context   // nil for globals and functions
	Tag   int        // the iteration tag of an allocation in a loop (see valueKey), or the leaf of an unknown result
	Label string     // describes an ObjUnknown
	// Callers marks the objects that stand for what a library's callers
	// share: the receiver of a concurrent type's methods and what its
	// pointer fields reach (see fillReceiver), one per type and field
	// in any context.
	Callers bool
	// For a channel of the library's callers: the type of the object
	// whose field holds it, and that field's path (see MadeFor).
	holderType types.Type
	holderPath string
	start      nodeID
	layout     *layout
	fn         *ssa.Function // for ObjFunc and ObjClosure

	// For an object made by a summarized call: its type and site as
	// the summary names them (its own type is opaque), the closure it
	// is, or the dynamic type of the value it boxes.
	sumType, sumSite, sumFunc, sumDyn string
	global                            string              // a package-level variable known by name (see namedGlobal)
	call                              ssa.CallInstruction // the call that made an object of a summary
}

// MadeAt returns the instruction that makes the object: its allocation,
// or the call of another package's function that made it; nil for
// globals, functions and unknown objects.
func (o *Object) MadeAt() ssa.Instruction {
	if o.call != nil {
		return o.call
	}
	instr, _ := o.Site.(ssa.Instruction)
	return instr
}

// MadeByCall reports whether the object is one that a call of another
// package's function allocates, by that function's summary: each call
// makes its own (not a package-level variable of that package, which
// every call may return).
func (o *Object) MadeByCall() bool { return o.call != nil }

// DynamicType returns the dynamic type of the value an interface box
// holds: nil for a box another package made, whose type it names only
// (see ImportedType), and for the other kinds of objects.
func (o *Object) DynamicType() types.Type {
	if o.Kind != ObjInterface || o.sumDyn != "" || o.sumType != "" || o.call != nil {
		return nil
	}
	return o.Type
}

// ImportedType returns, for an object that a function of another package
// made or that a package variable of another package holds, its type as
// that package's summary names it: the importer knows only its layout
// of pointer leaves, not its fields. "" for the others.
func (o *Object) ImportedType() string { return o.sumType }

// constraint is a complex constraint, attached to the node whose
// points-to set it reads.
type constraint interface {
	// solve applies the constraint for one new location of its node.
	solve(a *state, loc nodeID)
}

// loadCons: dst[0:size] ⊇ *(loc+off)[0:size].
type loadCons struct {
	dst  nodeID
	off  int
	size int
	typ  filterID // the type a loc must begin, or none (see admits)
}

// storeCons: *(loc+off)[0:size] ⊇ src[0:size].
type storeCons struct {
	src  nodeID
	off  int
	size int
	typ  filterID
}

// offsetCons: dst ∋ loc+off, as &x.f.
type offsetCons struct {
	dst nodeID
	off int
	typ filterID
}

// callCons resolves a dynamic call or a go statement once the function
// values the callee may be are known.
type callCons struct {
	site *callSite
}

// invokeCons resolves an interface method call.
type invokeCons struct {
	site *callSite
}

// assertCons resolves x.(T).
type assertCons struct {
	dst     nodeID
	typ     types.Type
	isIface bool
}

func (c loadCons) solve(a *state, loc nodeID) {
	if !a.admits(c.typ, loc) {
		return
	}
	for i := range c.size {
		if !a.fits(c.dst, i) {
			return
		}
		if src, ok := a.within(loc, c.off+i); ok {
			a.copyEdge(src, c.dst+nodeID(i))
		}
	}
}

func (c storeCons) solve(a *state, loc nodeID) {
	if !a.admits(c.typ, loc) {
		return
	}
	for i := range c.size {
		if !a.fits(c.src, i) {
			return
		}
		if dst, ok := a.within(loc, c.off+i); ok {
			a.copyEdge(c.src+nodeID(i), dst)
		}
	}
}

func (c offsetCons) solve(a *state, loc nodeID) {
	if !a.admits(c.typ, loc) {
		return
	}
	if dst, ok := a.within(loc, c.off); ok {
		a.addLoc(c.dst, dst)
	}
}

func (c callCons) solve(a *state, loc nodeID) {
	obj := a.nodes[loc].obj
	if obj == nil || obj.start != loc {
		return
	}
	switch {
	case obj.fn != nil:
		a.connect(c.site, obj.fn, obj)
	case obj.sumFunc != "":
		a.callSummarized(c.site, obj.sumFunc, obj)
	}
}

func (c invokeCons) solve(a *state, loc nodeID) {
	obj := a.nodes[loc].obj
	if obj == nil || obj.start != loc || obj.Kind != ObjInterface {
		return
	}
	if obj.sumDyn != "" {
		a.callSummarized(c.site, methodName(obj.sumDyn, c.site.method.Name()), obj)
		return
	}
	a.invokeTarget(c.site, obj)
}

func (c assertCons) solve(a *state, loc nodeID) {
	obj := a.nodes[loc].obj
	if obj == nil || obj.start != loc || obj.Kind != ObjInterface {
		return
	}
	if obj.sumDyn != "" {
		// A box made in another package: its dynamic type is known by
		// name only. Any interface may hold it (we cannot check its
		// methods); a concrete type must have the same name.
		if c.isIface {
			a.addLoc(c.dst, loc)
		} else if a.typeName(c.typ, false) == obj.sumDyn {
			a.copyBlock(loc, c.dst, min(obj.layout.size(), a.size(c.typ)))
		}
		return
	}
	if c.isIface {
		if types.Implements(obj.Type, c.typ.Underlying().(*types.Interface)) {
			a.addLoc(c.dst, loc)
		}
		return
	}
	if types.Identical(obj.Type, c.typ) {
		for i := range obj.layout.size() {
			a.copyEdge(loc+nodeID(i), c.dst+nodeID(i))
		}
	}
}

// within returns loc+off if it stays inside loc's object.
func (a *state) within(loc nodeID, off int) (nodeID, bool) {
	obj := a.nodes[loc].obj
	if obj == nil {
		return 0, false
	}
	n := loc + nodeID(off)
	if off < 0 || n >= obj.start+nodeID(obj.layout.size()) {
		if !a.frozen {
			a.stats.OutOfBounds++
		}
		return 0, false
	}
	return n, true
}

// newNodes appends a block of nodes for a value or object of type t.
func (a *state) newNodes(t types.Type, obj *Object) nodeID {
	if limit := cmp.Or(a.opts.NodeLimit, nodeLimit); len(a.nodes) > limit {
		panic(guard.Stop{Reason: fmt.Sprintf("more than %d nodes", limit), Lost: a.lost()})
	}
	l := a.layouts.of(t)
	start := nodeID(len(a.nodes))
	end := start + nodeID(len(l.leaves))
	for _, lf := range l.leaves {
		if len(a.nodeChunk) == 0 {
			a.nodeChunk = make([]node, nodeChunkSize)
		}
		nd := &a.nodeChunk[0]
		a.nodeChunk = a.nodeChunk[1:]
		nd.obj, nd.noPointer, nd.end = obj, lf.noPointer, end
		a.nodes = append(a.nodes, nd)
	}
	return start
}

// part returns the node at offset off in the block that starts at base,
// and how many of the size nodes from there stay in that block; a part
// that runs past its block (a bug: a size computed from a type that does
// not match the block's) is counted in Stats.Clamped and cut.
func (a *state) part(base nodeID, off, size int) (nodeID, int) {
	room := int(a.nodes[base].end-base) - off
	if size > room {
		a.stats.Clamped++
		size = max(room, 0)
	}
	return base + nodeID(off), size
}

// fits reports whether n+i is in the same block of nodes as n. A
// constraint that would run past its block (a size computed from a type
// that does not match the block's, a bug) is cut there and counted in
// Stats.Clamped, instead of writing into the next value's nodes.
func (a *state) fits(n nodeID, i int) bool {
	if int(n) < len(a.nodes) && n+nodeID(i) < a.nodes[n].end {
		return true
	}
	if !a.frozen {
		a.stats.Clamped++
	}
	return false
}

// nodeChunkSize is how many nodes newNodes allocates at once: one
// allocation per node was a tenth of the analysis's time in mallocgc.
const nodeChunkSize = 1024

// nodeLimit is the size (in nodes) past which the analysis of a package
// gives up, rather than exhaust the memory of the process that hosts it.
const nodeLimit = 2_000_000

// skipped is what a package loses when the analysis stops at nodeLimit
// or ptsLimit, for the line on standard error that says so: without
// goroutines and points-to sets, the analyzers check only what one
// function shows.
const skipped = "no goroutine analysis of this package: its races, lock order inversions and blocked goroutines may go unreported (double locks and locks left held are still checked)"

// summariesLost is what importers lose when the summaries of a package
// stop at a limit: its functions are opaque to their analysis, which
// follows no pointer through them (fewer reports there, not more).
const summariesLost = "no points-to summaries of this package for its importers: their analysis follows no pointer through its functions, and may miss races and blocked goroutines across them"

// lost is what stopping at a limit loses (see guard.Stop.Lost).
func (a *state) lost() string {
	if a.summaryMode {
		return summariesLost
	}
	return skipped
}

// ptsLimit bounds the total size of the points-to sets, which is what
// the memory of the analysis grows with.
const ptsLimit = 20_000_000

// newObject creates an abstract object whose contents have type t.
func (a *state) newObject(kind ObjectKind, site ssa.Value, t types.Type, ctx *Context, tag int) *Object {
	obj := &Object{Kind: kind, Site: site, Type: t, Ctx: ctx, Tag: tag, layout: a.layouts.of(t)}
	obj.start = a.newNodes(t, obj)
	a.objects = append(a.objects, obj)
	return obj
}

// addLoc adds a location to pts(n) and schedules n.
func (a *state) addLoc(n, loc nodeID) {
	nd := a.nodes[n]
	if nd.pts.insert(loc) {
		a.deltaOf(nd).insert(loc)
		a.grew(1)
		a.enqueue(n)
	}
}

// copyEdge adds pts(dst) ⊇ pts(src).
func (a *state) copyEdge(src, dst nodeID) {
	if src == dst {
		return
	}
	s := a.nodes[src]
	if s.noPointer && a.nodes[dst].noPointer {
		return
	}
	if len(s.succ) < bigFanout {
		if slices.Contains(s.succ, dst) {
			return
		}
		if len(s.succ) == bigFanout-1 {
			set := make(map[nodeID]bool, 2*bigFanout)
			for _, d := range s.succ {
				set[d] = true
			}
			a.fanout[src] = set
		}
	}
	if set := a.fanout[src]; set != nil {
		if set[dst] {
			return
		}
		set[dst] = true
	}
	s.succ = append(s.succ, dst)
	if !s.pts.isEmpty() {
		a.flowInto(dst, &s.pts)
	}
}

// flowInto adds the members of set to pts(dst), and those new there to
// its delta, scheduling dst if there were any.
func (a *state) flowInto(dst nodeID, set *locSet) {
	d := a.nodes[dst]
	// fresh is the state's, reused: allocating its words anew for each
	// edge was a third of the time of the solver.
	d.pts.addAll(set, &a.fresh)
	if !a.fresh.isEmpty() {
		a.deltaOf(d).unionWith(&a.fresh)
		a.grew(a.fresh.len())
		a.enqueue(dst)
	}
}

// bigFanout is the number of copy edges out of one node past which
// copyEdge looks for a duplicate in a set (state.fanout) rather than in
// the list: a table that thousands of values are copied from made the
// scan quadratic (crypto/internal/fips140/nistec). The set is a map: an
// intsets.Sparse, which it was at first, inserts by walking its list of
// blocks, which for successors spread over millions of nodes was
// quadratic again (badger's root package: 5 s of 13 s of solving).
const bigFanout = 64

// grew counts n new members of points-to sets, and stops the analysis
// past ptsLimit.
func (a *state) grew(n int) {
	a.ptsSize += n
	if limit := cmp.Or(a.opts.PtsLimit, ptsLimit); a.ptsSize > limit {
		panic(guard.Stop{Reason: fmt.Sprintf("points-to sets larger than %d", limit), Lost: a.lost()})
	}
}

// enqueue puts n on the worklist unless it is there already. (A stack
// and a flag on the node, not a set of nodes: inserting into an
// intsets.Sparse of millions of nodes walked its blocks and made the
// solver quadratic.)
func (a *state) enqueue(n nodeID) {
	if nd := a.nodes[n]; !nd.queued {
		nd.queued = true
		a.work = append(a.work, n)
	}
}

// addCons attaches a complex constraint to n and applies it to what n
// already points to.
func (a *state) addCons(n nodeID, c constraint) {
	nd := a.nodes[n]
	nd.cons = append(nd.cons, c)
	for _, loc := range nd.pts.appendTo(nil) {
		c.solve(a, loc)
	}
}

// solve propagates points-to sets until nothing changes. Constraints
// may create new nodes and constraints (calls discovered on the fly).
func (a *state) solve() {
	var buf []nodeID
	for len(a.work) > 0 {
		n := a.work[len(a.work)-1]
		a.work = a.work[:len(a.work)-1]
		nd := a.nodes[n]
		nd.queued = false
		delta := nd.delta
		if delta == nil {
			continue
		}
		nd.delta = nil // what the constraints below add to n is a new delta
		buf = delta.appendTo(buf[:0])
		// Complex constraints first: they may add successors.
		for i := 0; i < len(nd.cons); i++ {
			for _, loc := range buf {
				nd.cons[i].solve(a, loc)
			}
		}
		for _, s := range nd.succ {
			a.flowInto(s, delta)
		}
		delta.clear()
		a.spareDeltas = append(a.spareDeltas, delta)
	}
}

// deltaOf returns nd's delta, taking a spare set for it if it has none:
// few nodes have members to propagate at any one time, and a set held
// by each of millions of nodes was a quarter of their memory.
func (a *state) deltaOf(nd *node) *locSet {
	if nd.delta == nil {
		if k := len(a.spareDeltas); k > 0 {
			nd.delta, a.spareDeltas = a.spareDeltas[k-1], a.spareDeltas[:k-1]
		} else {
			nd.delta = new(locSet)
		}
	}
	return nd.delta
}

// Type filtering. A pointer of type *T points only to the start of a T
// (short of unsafe): a location that begins no value of T's type is one
// the analysis's approximations brought into the pointer's set (two
// owners merged, a summary's opaque objects applied by position), and
// dereferencing the pointer there would make accesses, locks and calls
// the program cannot make. So the constraints that dereference a *T
// (a load, a store, &x.f) act on the locations that begin a T and pass
// over the others, as Andersen analyses with type filtering do; the
// locations stay in the pointer's own set. A location begins a T when
// T is among the types of the values that begin at its leaf (a struct
// and its first field begin at the same leaf), up to a change of name
// ((*T)(p) for a T of the same underlying type). Objects whose types the
// analysis does not know (a summary's opaque objects, an opaque leaf past
// the layout's depth, an unsafe.Pointer) admit every pointer.

// filterID names a pointee type of the constraints (state.filters); 0 is
// none: the constraint acts on every location.
type filterID int32

// filterOf returns the filter of pointers to t: none for a type the
// filter cannot judge (one with type parameters, an empty struct).
func (a *state) filterOf(t types.Type) filterID {
	if t == nil || hasTypeParam(t) || a.layouts.of(t).size() == 0 {
		return 0
	}
	if id, ok := a.filterByPtr[t]; ok {
		return id
	}
	id, ok := a.filterIDs.At(t).(filterID)
	if !ok {
		if len(a.filters) == 0 {
			a.filters = append(a.filters, nil) // 0 is none
		}
		id = filterID(len(a.filters))
		a.filters = append(a.filters, t)
		a.filterIDs.Set(t, id)
	}
	if a.filterByPtr == nil {
		a.filterByPtr = make(map[types.Type]filterID)
	}
	a.filterByPtr[t] = id
	return id
}

// admits reports whether a constraint with filter f acts on loc: loc
// begins a value of f's type, or its object's type is not known.
func (a *state) admits(f filterID, loc nodeID) bool {
	if f == 0 {
		return true
	}
	obj := a.nodes[loc].obj
	if obj == nil || obj.sumType != "" || obj.Kind == ObjFunc {
		return true
	}
	i := int(loc - obj.start)
	if i < 0 || i >= obj.layout.size() {
		return true
	}
	lf := &obj.layout.leaves[i]
	switch u := lf.typ.Underlying().(type) {
	case *types.Struct, *types.Array:
		return true // an opaque leaf: what begins inside it is not known
	case *types.Basic:
		if u.Kind() == types.UnsafePointer {
			return true
		}
	}
	t := a.filters[f]
	for _, s := range lf.starts {
		if s == t || types.Identical(s, t) || types.Identical(s.Underlying(), t.Underlying()) {
			return true
		}
	}
	if !a.frozen {
		a.stats.Filtered++
	}
	return false
}

// hasTypeParam reports whether t mentions a type parameter.
func hasTypeParam(t types.Type) bool {
	found := false
	var visit func(t types.Type, depth int)
	visit = func(t types.Type, depth int) {
		if found || depth > 8 {
			return
		}
		switch t := t.(type) {
		case *types.TypeParam:
			found = true
		case *types.Named:
			if args := t.TypeArgs(); args != nil {
				for i := range args.Len() {
					visit(args.At(i), depth+1)
				}
			}
		case *types.Pointer:
			visit(t.Elem(), depth+1)
		case *types.Slice:
			visit(t.Elem(), depth+1)
		case *types.Array:
			visit(t.Elem(), depth+1)
		case *types.Map:
			visit(t.Key(), depth+1)
			visit(t.Elem(), depth+1)
		case *types.Chan:
			visit(t.Elem(), depth+1)
		case *types.Struct:
			for i := range t.NumFields() {
				visit(t.Field(i).Type(), depth+1)
			}
		}
	}
	visit(t, 0)
	return found
}
