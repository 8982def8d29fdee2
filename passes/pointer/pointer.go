package pointer

import (
	"cmp"
	"flag"
	"fmt"
	"go/types"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/effects"
	"github.com/origo-dev/origo/passes/guard"
	"github.com/origo-dev/origo/passes/origins"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// Analyzer computes points-to sets and origin-shared locations.
var Analyzer = &analysis.Analyzer{
	Name:       "pointer",
	Doc:        "origin-sensitive points-to analysis and origin-shared locations",
	URL:        "https://pkg.go.dev/github.com/origo-dev/origo/passes/pointer",
	Run:        run,
	Requires:   []*analysis.Analyzer{buildir.Analyzer, origins.Analyzer, SummaryAnalyzer, effects.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
	Flags:      optionFlags(),
}

// optionFlags declares the Analyzer's options (see Options), for
// measurement: "origo-bench sensitivity" sets them.
func optionFlags() (fs flag.FlagSet) {
	fs.Bool("contextinsensitive", false, "analyze every function once, in one origin: the baseline that origin sensitivity is measured against")
	fs.Int("maxorigins", maxOrigins, "bound on the goroutine origins of a package; past it, goroutines share origins")
	fs.Int("nodelimit", nodeLimit, "bound on the size of the analysis of a package, in nodes; past it, the analysis starts again with less precision")
	fs.Int("ptslimit", ptsLimit, "bound on the total size of a package's points-to sets; past it, the analysis starts again with less precision")
	return fs
}

// optionsOf returns the options that the flags of pass's analyzer set.
func optionsOf(pass *analysis.Pass) Options {
	get := func(name string) any { return pass.Analyzer.Flags.Lookup(name).Value.(flag.Getter).Get() }
	return Options{ContextInsensitive: get("contextinsensitive").(bool), MaxOrigins: get("maxorigins").(int), NodeLimit: get("nodelimit").(int), PtsLimit: get("ptslimit").(int)}
}

// Stats counts what the analysis built and what it could not see.
type Stats struct {
	Nodes, Objects, Functions, Origins int
	PtsSize                            int // total members of the points-to sets (see ptsLimit)
	External                           int // calls of functions without a body here
	Summarized                         int // of which, calls with a summary from a direct import
	ExternalSpawns                     int // goroutines whose entry has no body here
	Unsafe                             int // conversions between unsafe.Pointer and *T
	OutOfBounds                        int // field offsets outside their object (type punning)
	Clamped                            int // constraints cut at the end of their block: a bug, see fits
	Filtered                           int // locations a dereference passed over, not of its pointer's type (see admits)
	// Overflow is set when the package was too large for an origin per
	// goroutine: the goroutines found after the budget share two origins.
	Overflow bool
}

// Result is the result of Analyzer.
type Result struct {
	// Origins lists the roots of the package and the goroutines they
	// may start, in the order they were found.
	Origins []*Origin
	Stats   Stats
	// ContextInsensitive is set when the analysis ran without origins
	// (see Options).
	ContextInsensitive bool
	// Incomplete says why the analysis of this package stopped, if it
	// did (it was too large, or failed); the Result is then empty.
	Incomplete string
	// Degraded says, in one line, what precision the analysis gave up
	// to stay within its bounds, if it did: it then ran context
	// insensitive (ContextInsensitive is set).
	Degraded string

	a        *state
	accesses []Access
}

// Options select variants of the analysis, for measurement; the
// Analyzer's flags set them.
type Options struct {
	// ContextInsensitive analyzes every function once, in one origin,
	// and starts goroutines in it: the baseline that origin sensitivity
	// is measured against.
	ContextInsensitive bool
	// MaxOrigins bounds the origins of the package (0: maxOrigins).
	MaxOrigins int
	// NodeLimit bounds the size of the analysis (0: nodeLimit).
	NodeLimit int
	// PtsLimit bounds the total size of its points-to sets (0:
	// ptsLimit).
	PtsLimit int
}

func run(pass *analysis.Pass) (any, error) {
	ir := pass.ResultOf[buildir.Analyzer].(*buildir.IR)
	orig := pass.ResultOf[origins.Analyzer].(*origins.Result)
	in := &inputs{
		sums:    pass.ResultOf[SummaryAnalyzer].(*Summaries),
		effects: pass.ResultOf[effects.Analyzer].(*effects.Result),
	}
	res := new(Result)
	if ir.Pkg == nil || len(orig.Roots) == 0 {
		return res, nil
	}
	opts := optionsOf(pass)
	analyzeBounded := func() {
		if analyzeWithin(ir, orig, in, res, opts) == "" {
			return
		}
		// Too large with an origin per goroutine: again with few
		// origins, the goroutines past them sharing two.
		*res = Result{}
		opts.MaxOrigins = fewOrigins
		stop := analyzeWithin(ir, orig, in, res, opts)
		if stop == "" {
			return
		}
		// Still too large: each function once for every goroutine, which
		// grows with the package and not with its goroutines, given
		// twice the room (in nodes and in points-to sets), rather than
		// no analysis at all.
		*res = Result{}
		opts.ContextInsensitive = true
		opts.NodeLimit = 2 * cmp.Or(opts.NodeLimit, nodeLimit)
		opts.PtsLimit = 2 * cmp.Or(opts.PtsLimit, ptsLimit)
		analyze(ir, orig, in, res, opts)
		res.Degraded = fmt.Sprintf("origo: pointer degraded package %s: %s with an origin per goroutine, so each function was analyzed once for all the goroutines that run it: objects are not told apart by the goroutine that makes them, and only the races that hold without origins are reported",
			pass.Pkg.Path(), stop)
	}
	if msg := guard.Do(pass, "pointer", analyzeBounded); msg != "" {
		return &Result{Incomplete: msg}, nil
	}
	if res.Degraded != "" {
		fmt.Fprintln(os.Stderr, res.Degraded)
	}
	return res, nil
}

// analyzeWithin runs analyze and returns "" or, if it stopped at one
// of its size limits, which ("more than 2000000 nodes").
func analyzeWithin(ir *buildir.IR, orig *origins.Result, in *inputs, res *Result, opts Options) (stopped string) {
	defer func() {
		if r := recover(); r != nil {
			stop, ok := r.(guard.Stop)
			if !ok {
				panic(r)
			}
			stopped = stop.Reason
		}
	}()
	analyze(ir, orig, in, res, opts)
	return ""
}

// state is one run of the analysis over a package.
type state struct {
	prog     *ssa.Program
	srcFuncs []*ssa.Function // the package's functions, for MadeFor
	opts     Options
	layouts  layouts
	nodes    []*node
	// nodeChunk holds nodes allocated and not yet used (see newNodes);
	// spareDeltas, sets that nodes' deltas may take (see deltaOf).
	nodeChunk   []node
	spareDeltas []*locSet
	fresh       locSet // scratch of flowInto
	objects     []*Object
	work        []nodeID                   // nodes whose delta is to be propagated
	ptsSize     int                        // total members of points-to sets (see grew)
	fanout      map[nodeID]map[nodeID]bool // the successors of nodes with many (see bigFanout)

	fnNames  map[*ssa.Function]string // see fnString
	operands []*ssa.Value             // scratch of genInstr
	// globalsByVar memoizes globalObject by variable: its name, which
	// globals is keyed by, is made anew at each String.
	globalsByVar map[*ssa.Global]*Object

	contexts     map[contextKey]*Context
	factories    map[*ssa.Function]bool
	initializers map[*ssa.Function]bool   // see isInitializer
	passes       map[*ssa.Function][2]int // see passedParam
	origins      []*Origin
	originIndex  map[originKey]*Origin
	splitSpawns  map[originKey]int   // see maxSpawnContexts
	splitCells   map[*Origin]*Object // see startOrigin
	splits       []*split            // see startUnsplit
	cgnodes      map[cgKey]*cgnode
	cgList       []*cgnode
	filled       map[ssa.Value]bool                      // arrays no append writes (see filledArrays)
	siteCallees  map[ssa.CallInstruction][]*ssa.Function // calls by site; nil for a callee not seen
	byFunc       map[*ssa.Function][]*cgnode             // cgList by function
	funcObjs     map[*ssa.Function]*Object
	globals      map[string]*Object // by name: see globalObject
	allocs       map[allocKey]*Object
	stats        Stats
	filters      []types.Type            // by filterID: the pointee types of dereferences (see admits)
	filterIDs    typeutil.Map            // types.Type -> filterID
	filterByPtr  map[types.Type]filterID // what filterIDs gave, by types.Type value: a cheaper first look

	// For the context-insensitive variant: the call graph, and the
	// origins that reach each function.
	callees     map[*cgnode][]*cgnode
	originEntry map[*Origin]*cgnode
	rootNodes   map[*Origin][]*cgnode // a root origin's roots, each walked from (see computeReaching)
	reaching    map[*cgnode][]*Origin
	spawnedIn   map[*Origin]*cgnode // see noteSpawn
	ciContext   *Context

	overflow [2]*Origin // see overflowOrigin

	// The call graph by origin, for the happens-before and lockset
	// passes: what each call site calls, and the goroutines it starts.
	calls     map[siteKey][]*ssa.Function
	externs   map[siteKey][]*ssa.Function // the dynamic callees without a body here
	callbacks map[callbackKey]bool        // the callback arguments started (see genCallbacks)
	spawns    map[siteKey][]*Origin
	rootFuncs map[*Origin][]*ssa.Function

	summaries       *Summaries                      // of the direct imports' functions
	effects         *effects.Result                 // the effects of the direct imports' functions (nil in summary mode)
	importedCalls   []importedCall                  // calls of functions of other packages, for their effects
	importedEntries map[*Origin]ssa.CallInstruction // see ImportedEntry
	summaryMode     bool                            // computing summaries: goroutines are calls
	dataAddrs       map[ssa.Value]bool              // memo of addrOfData
	summaryCtx      *Context                        // the context of the summarized functions
	statics         map[*Object]bool                // objects the package's variables hold (see reachableFromGlobals)
	pkgPath         string                          // the package being summarized
	frozen          bool                            // analysis done: queries write nothing (no Stats)
	typeNames       [2]map[types.Type]string        // memo of typeName, by qualifier (see typeName)
	opaque          map[int]types.Type              // opaqueType's types, by size
}

func newState(prog *ssa.Program, opts Options) *state {
	return &state{
		prog:            prog,
		opts:            opts,
		fanout:          make(map[nodeID]map[nodeID]bool),
		dataAddrs:       make(map[ssa.Value]bool),
		contexts:        make(map[contextKey]*Context),
		factories:       make(map[*ssa.Function]bool),
		initializers:    make(map[*ssa.Function]bool),
		passes:          make(map[*ssa.Function][2]int),
		originIndex:     make(map[originKey]*Origin),
		splitSpawns:     make(map[originKey]int),
		splitCells:      make(map[*Origin]*Object),
		cgnodes:         make(map[cgKey]*cgnode),
		byFunc:          make(map[*ssa.Function][]*cgnode),
		funcObjs:        make(map[*ssa.Function]*Object),
		globals:         make(map[string]*Object),
		allocs:          make(map[allocKey]*Object),
		callees:         make(map[*cgnode][]*cgnode),
		originEntry:     make(map[*Origin]*cgnode),
		rootNodes:       make(map[*Origin][]*cgnode),
		calls:           make(map[siteKey][]*ssa.Function),
		externs:         make(map[siteKey][]*ssa.Function),
		spawns:          make(map[siteKey][]*Origin),
		rootFuncs:       make(map[*Origin][]*ssa.Function),
		importedEntries: make(map[*Origin]ssa.CallInstruction),
	}
}

// inputs is what the analysis of a package learns from its imports'
// facts.
type inputs struct {
	sums    *Summaries      // what their functions do to pointers
	effects *effects.Result // what they do to memory and synchronization
}

func analyze(ir *buildir.IR, orig *origins.Result, in *inputs, res *Result, opts Options) {
	a := newState(ir.Pkg.Prog, opts)
	a.srcFuncs = ir.SrcFuncs
	a.summaries = in.sums
	a.effects = in.effects
	if opts.ContextInsensitive {
		a.ciContext = &Context{}
	}
	a.applyGlobals()
	a.addRoots(orig.Roots)
	a.solve()
	for a.startUnsplit() {
		a.solve()
	}
	if opts.ContextInsensitive {
		a.computeReaching()
		a.adoptSpawned()
	}
	a.stats.Nodes = len(a.nodes)
	a.stats.PtsSize = a.ptsSize
	a.stats.Objects = len(a.objects)
	a.stats.Functions = len(a.cgList)
	a.stats.Origins = len(a.origins)
	res.a = a
	res.Origins = a.origins
	res.Stats = a.stats
	res.ContextInsensitive = opts.ContextInsensitive
	a.filled = a.filledArrays()
	res.accesses = a.collectAccesses()
	// The Result is read-only from here: the passes that query it run
	// concurrently under go vet.
	a.frozen, a.layouts.frozen = true, true
}

// addRoots starts the root origins. Roots that run one after the other
// share one origin: the package initializer, main, and the tests that do
// not call t.Parallel (with benchmarks and fuzz targets). Roots that run
// concurrently share two: the parallel tests, and in library mode the
// exported methods of types meant for concurrent use, which run on one
// shared receiver per type. Two copies let each run concurrently with
// the others and with itself, at the cost of two origins, not two per
// function.
func (a *state) addRoots(roots []*origins.Root) {
	receivers := make(map[*types.TypeName]*Object)
	groups := make(map[string][]*Origin)
	for _, r := range roots {
		group, copies := r.Kind.String(), 1
		switch {
		case r.Kind == origins.RootMethod:
			group, copies = MethodsRoot, 2
		case r.Kind == origins.RootEntry:
			group = EntriesRoot
		case r.Kind == origins.RootTest && r.Parallel:
			group, copies = "parallel tests", 2
		case r.Kind == origins.RootTest || r.Kind == origins.RootBenchmark || r.Kind == origins.RootFuzz:
			group = "tests"
		}
		if groups[group] == nil {
			for c := range copies {
				o := &Origin{ID: len(a.origins), Entry: r.Func, Site: r.Func.Pos(), Copy: c, Multi: copies == 2, Root: group, Programs: ProgramsOf(group), recv: noReceiver}
				a.origins = append(a.origins, o)
				groups[group] = append(groups[group], o)
			}
		}
		for _, o := range groups[group] {
			a.rootFuncs[o] = append(a.rootFuncs[o], r.Func)
			cg := a.cgnodeFor(r.Func, a.context(o, [2]ssa.CallInstruction{}, nil))
			a.rootNodes[o] = append(a.rootNodes[o], cg)
			if a.originEntry[o] == nil {
				a.originEntry[o] = cg
			}
			for i, p := range r.Func.Params {
				if i == 0 && r.Kind == origins.RootMethod {
					if obj := a.sharedReceiver(receivers, p.Type()); obj != nil {
						a.addLoc(a.valueNode(cg, p, 0), obj.start)
					}
					continue
				}
				// Each caller of a concurrent method passes its own
				// arguments: the two copies that stand for two callers
				// get an object each (two goroutines calling
				// store.GetLog(i, &log) fill two logs). That they share
				// one is the callers' to show, as the receiver is.
				var ctx *Context
				if r.Kind == origins.RootMethod {
					ctx = cg.ctx
				}
				a.unknownBlock(a.valueNode(cg, p, 0), p.Type(), p, ctx, "parameter "+p.Name()+" of "+facts.ShortName(r.Func.String()))
			}
		}
	}
}

// sharedReceiver returns the one object that stands for every receiver
// of the methods of a pointer receiver's type.
func (a *state) sharedReceiver(receivers map[*types.TypeName]*Object, t types.Type) *Object {
	ptr, ok := t.(*types.Pointer)
	if !ok {
		return nil
	}
	named, ok := ptr.Elem().(*types.Named)
	if !ok {
		return nil
	}
	tn := named.Origin().Obj()
	if obj, ok := receivers[tn]; ok {
		return obj
	}
	obj := a.newObject(ObjUnknown, nil, ptr.Elem(), nil, 0)
	obj.Label = "receiver of the methods of " + tn.Name()
	obj.Callers = true
	receivers[tn] = obj
	budget := maxFillObjects
	a.fillReceiver(obj, tn, []*Object{obj}, &budget)
	return obj
}

// Bounds on the objects a shared receiver stands for (see
// fillReceiver): pointer fields followed, and objects made, per
// receiver type.
const (
	maxFillDepth   = 3
	maxFillObjects = 64
)

// fillReceiver gives each pointer field of obj, a shared receiver or an
// object one reaches (path: from the receiver to obj), an object of the
// package's struct type it points to: a caller's Ring reaches its
// ringSharding through r.sharding, and two methods that go through it
// reach the same one. Without it every field a method loads from its
// receiver points to nothing, and a method that keeps its state behind
// a pointer (r.sharding.mu, r.sharding.onNewNode) makes no access at
// all. Each field gets its own object (r.tickMu and b.tickMu are two
// mutexes), and a field whose type is already on the path points back
// to that object (a list's next), so that the tree is finite. Only the
// package's own struct types are followed further, and sync's (a
// *sync.RWMutex field is a mutex of its own): a struct of another
// package that holds a mutex gets an object whose pointer fields point
// nowhere, what its summaries say of it, so that a lock its methods
// hold (c.proc.lock, held by proc.WithLock while it calls back) is one
// the walk can name; another package's struct without one, none.
func (a *state) fillReceiver(obj *Object, root *types.TypeName, path []*Object, budget *int) {
	if len(path) > maxFillDepth {
		return
	}
	for i, lf := range obj.layout.leaves {
		if ch, ok := lf.typ.Underlying().(*types.Chan); ok {
			// A channel field holds one channel for the methods called
			// on one object (receiver-channels): Close's close(s.doneCh)
			// and Accept's <-s.doneCh are one channel's, and order as
			// one's close and receive do.
			if *budget <= 0 {
				return
			}
			*budget--
			sub := a.newObject(ObjChan, nil, ch.Elem(), nil, 0)
			sub.Label = "the channel in " + lf.path + " of a receiver of " + root.Name()
			sub.Callers = true
			sub.holderType, sub.holderPath = obj.Type, lf.path
			a.addLoc(obj.start+nodeID(i), sub.start)
			continue
		}
		p, ok := types.Unalias(lf.typ).(*types.Pointer)
		if !ok {
			continue
		}
		named, ok := types.Unalias(p.Elem()).(*types.Named)
		if !ok || named.Obj().Pkg() == nil {
			continue
		}
		if _, ok := named.Underlying().(*types.Struct); !ok {
			continue
		}
		own := named.Obj().Pkg() == root.Pkg() || named.Obj().Pkg().Path() == "sync"
		if !own && !hasMutex(named, 0) {
			continue
		}
		k := slices.IndexFunc(path, func(o *Object) bool { return types.Identical(o.Type, named) })
		if k >= 0 {
			a.addLoc(obj.start+nodeID(i), path[k].start)
			continue
		}
		if *budget <= 0 {
			return
		}
		*budget--
		sub := a.newObject(ObjUnknown, nil, named, nil, 0)
		sub.Label = "the " + named.Obj().Name() + " a receiver of " + root.Name() + " reaches"
		sub.Callers = true
		a.addLoc(obj.start+nodeID(i), sub.start)
		if own {
			a.fillReceiver(sub, root, append(path, sub), budget)
		}
	}
}

// hasMutex reports whether a value of type t holds a sync.Mutex or
// sync.RWMutex, in a field or a field's field.
func hasMutex(t types.Type, depth int) bool {
	if named, ok := types.Unalias(t).(*types.Named); ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "sync" {
		switch named.Obj().Name() {
		case "Mutex", "RWMutex":
			return true
		}
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || depth > maxFillDepth {
		return false
	}
	for f := range st.Fields() {
		if hasMutex(f.Type(), depth+1) {
			return true
		}
	}
	return false
}

// Location is a leaf of an abstract object: a field, an element, a
// variable.
type Location struct {
	Obj  *Object
	Leaf int
}

func (r *Result) location(n nodeID) Location { return r.a.location(n) }

// Path is the field path of the location within its object, as ".f".
func (l Location) Path() string { return l.Obj.layout.leaves[l.Leaf].path }

func (l Location) String() string { return l.Obj.String() + l.Path() }

func (o *Object) String() string {
	var b strings.Builder
	switch o.Kind {
	case ObjGlobal, ObjFunc:
		b.WriteString(facts.ShortName(o.Site.String()))
		return b.String()
	case ObjUnknown:
		if o.Label != "" {
			fmt.Fprintf(&b, "unknown(%s)", o.Label)
			break
		}
		fmt.Fprintf(&b, "unknown(%s)", types.TypeString(o.Type, shortQualifier))
	default:
		fmt.Fprintf(&b, "%s(%s)", o.Kind, types.TypeString(o.Type, shortQualifier))
	}
	if o.Site != nil {
		if fn := o.Site.Parent(); fn != nil {
			p := fn.Prog.Fset.Position(o.Site.Pos())
			if p.IsValid() {
				fmt.Fprintf(&b, "@%s:%d", baseName(p.Filename), p.Line)
			}
		}
	}
	if o.Tag > 0 && o.Kind != ObjUnknown {
		fmt.Fprintf(&b, "#%d", o.Tag)
	}
	if o.Ctx != nil && o.Ctx.Origin != nil {
		fmt.Fprintf(&b, "[o%d", o.Ctx.Origin.ID)
		for _, s := range o.Ctx.sites {
			if s != nil {
				p := s.Parent().Prog.Fset.Position(s.Pos())
				fmt.Fprintf(&b, " <%s:%d", baseName(p.Filename), p.Line)
			}
		}
		b.WriteString("]")
	}
	return b.String()
}

func shortQualifier(p *types.Package) string { return p.Name() }

// typeName is types.TypeString of t, qualified by package path (short
// false) or by package name (short, shortQualifier), memoized: the
// assertions of a summary-mode analysis compare the same types' names
// with boxes from other packages, and the projected summaries name the
// same objects' types, over and over. Only the analysis calls it,
// before the state is frozen.
func (a *state) typeName(t types.Type, short bool) string {
	i, q := 0, types.Qualifier(nil)
	if short {
		i, q = 1, shortQualifier
	}
	if s, ok := a.typeNames[i][t]; ok {
		return s
	}
	if a.typeNames[i] == nil {
		a.typeNames[i] = make(map[types.Type]string)
	}
	s := types.TypeString(t, q)
	a.typeNames[i][t] = s
	return s
}

func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

// PointsTo returns the locations that v may point to, in any context,
// sorted and without duplicates.
func (r *Result) PointsTo(v ssa.Value) []Location {
	return r.pointsTo(v, func(*cgnode) bool { return true })
}

// PointsToIn returns the locations that v may point to when its
// function runs in origin o, sorted and without duplicates.
func (r *Result) PointsToIn(o *Origin, v ssa.Value) []Location {
	if r.a == nil {
		return nil
	}
	if g, ok := v.(*ssa.Global); ok {
		// A package variable's address is the same in every context.
		if obj, ok := r.a.globals[g.String()]; ok {
			return []Location{{Obj: obj}}
		}
		return nil
	}
	return r.pointsTo(v, r.a.inOrigin(o, v.Parent()))
}

// UnboxedIn returns the locations that v, an interface value, holds a
// pointer to, when its function runs in origin o: a box made of a
// pointer (var l sync.Locker = &mu) stands for what the pointer points
// to, so that l.Lock() and mu.Lock() name one mutex. Other locations
// (a box of a non-pointer, an unknown object) are kept as they are.
func (r *Result) UnboxedIn(o *Origin, v ssa.Value) []Location {
	if r.a == nil || !types.IsInterface(v.Type()) {
		return r.PointsToIn(o, v)
	}
	a := r.a
	var set locSet
	for _, n := range a.valueNodes(v, a.inOrigin(o, v.Parent())) {
		for _, loc := range a.nodes[n].pts.appendTo(nil) {
			obj := a.nodes[loc].obj
			if obj != nil && obj.Kind == ObjInterface && obj.start == loc && obj.Type != nil && !a.nodes[loc].pts.isEmpty() {
				if _, ok := obj.Type.Underlying().(*types.Pointer); ok {
					set.unionWith(&a.nodes[loc].pts)
					continue
				}
			}
			set.insert(loc)
		}
	}
	return r.locations(&set)
}

// Holds reports whether a pointer stored in from (in any of its
// fields or elements) may point to to: from holds to directly.
func (r *Result) Holds(from, to *Object) bool {
	if r.a == nil || from.layout == nil {
		return false
	}
	for i := range from.layout.size() {
		for _, m := range r.a.nodes[from.start+nodeID(i)].pts.appendTo(nil) {
			if r.a.nodes[m].obj == to {
				return true
			}
		}
	}
	return false
}

// MadeFor returns, for a channel that stands for the one the library's
// callers' objects hold in a field (see fillReceiver), the instructions
// that make the channels the package's code stores in that field (a
// constructor's &mutex{ch: make(chan struct{}, 1)}, which the analysis
// of the callers' calls does not run); nil for the other objects, and
// for a field of a field.
func (r *Result) MadeFor(obj *Object) []*ssa.MakeChan {
	if r.a == nil || !obj.Callers || obj.holderType == nil {
		return nil
	}
	st, ok := obj.holderType.Underlying().(*types.Struct)
	path := obj.holderPath
	if !ok || !strings.HasPrefix(path, ".") || strings.ContainsAny(path[1:], ".[#") {
		return nil
	}
	field := -1
	for i := range st.NumFields() {
		if st.Field(i).Name() == path[1:] {
			field = i
		}
	}
	var out []*ssa.MakeChan
	for _, fn := range r.a.srcFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				store, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := store.Addr.(*ssa.FieldAddr)
				mc, isMake := store.Val.(*ssa.MakeChan)
				if !ok || !isMake || fa.Field != field {
					continue
				}
				if p, ok := fa.X.Type().Underlying().(*types.Pointer); ok && types.Identical(p.Elem(), obj.holderType) {
					out = append(out, mc)
				}
			}
		}
	}
	return out
}

// HeldByGlobals returns the objects that a package-level variable of
// the package may point to, and those they point to (the elements of a
// global slice or map): published, one object shared by every goroutine
// that reads the variable.
func (r *Result) HeldByGlobals() map[*Object]bool {
	held := make(map[*Object]bool)
	if r.a == nil {
		return held
	}
	var next []*Object
	for _, obj := range r.a.objects {
		if obj.Kind == ObjGlobal {
			next = append(next, obj)
		}
	}
	for range 2 {
		objs := next
		next = nil
		for _, obj := range objs {
			for i := range obj.layout.size() {
				for _, m := range r.a.nodes[obj.start+nodeID(i)].pts.appendTo(nil) {
					if o := r.a.nodes[m].obj; o != nil && !held[o] {
						held[o] = true
						next = append(next, o)
					}
				}
			}
		}
	}
	return held
}

// Reachable returns the objects that v may point to when its function
// runs in origin o, and those reached from them through at most depth
// pointers stored in them, at most limit objects in all: what a value
// handed to another goroutine (sent on a channel) carries with it.
func (r *Result) Reachable(o *Origin, v ssa.Value, depth, limit int) map[*Object]bool {
	return r.reachable(o, v, depth, limit, true)
}

// Handed returns what Reachable does, except what is reached only
// through a channel's element: a channel given to a goroutine is the
// channel, and what is later sent on it is handed over by the send.
func (r *Result) Handed(o *Origin, v ssa.Value, depth, limit int) map[*Object]bool {
	return r.reachable(o, v, depth, limit, false)
}

func (r *Result) reachable(o *Origin, v ssa.Value, depth, limit int, throughChans bool) map[*Object]bool {
	seen := make(map[*Object]bool)
	var next []*Object
	reach := func(obj *Object) {
		if !seen[obj] {
			seen[obj] = true
			next = append(next, obj)
		}
	}
	if _, ok := v.(*ssa.Global); ok || r.a == nil {
		for _, loc := range r.PointsToIn(o, v) {
			reach(loc.Obj)
		}
	} else {
		// Every pointer of the value: a struct sent by value
		// (WatchResponse{Events: evs}) carries what each field points to.
		size := nodeID(r.a.size(v.Type()))
		for _, n := range r.a.valueNodes(v, r.a.inOrigin(o, v.Parent())) {
			for leaf := range size {
				for _, m := range r.a.nodes[n+leaf].pts.appendTo(nil) {
					reach(r.a.nodes[m].obj)
				}
			}
		}
	}
	for ; depth > 0 && len(next) > 0; depth-- {
		objs := next
		next = nil
		for _, obj := range objs {
			if obj.layout == nil || obj.Kind == ObjChan && !throughChans {
				continue
			}
			for leaf := range obj.layout.size() {
				for _, n := range r.a.nodes[obj.start+nodeID(leaf)].pts.appendTo(nil) {
					to := r.a.nodes[n].obj
					if len(seen) >= limit {
						return seen
					}
					if !seen[to] {
						seen[to] = true
						next = append(next, to)
					}
				}
			}
		}
	}
	return seen
}

// inOrigin selects the analysis of fn in origin o (in the one context
// of the context-insensitive variant).
func (a *state) inOrigin(o *Origin, fn *ssa.Function) func(*cgnode) bool {
	return func(cg *cgnode) bool {
		return cg.fn == fn && (cg.ctx.Origin == o || a.ciContext != nil)
	}
}

// valueNodes returns the nodes of v in the functions in context that
// keep selects, for every loop iteration tag.
func (a *state) valueNodes(v ssa.Value, keep func(*cgnode) bool) []nodeID {
	var nodes []nodeID
	// A value of a function has nodes only in the analyses of that
	// function; a constant, global or function value, in any.
	cgs := a.cgList
	if fn := v.Parent(); fn != nil {
		cgs = a.byFunc[fn]
	}
	for _, cg := range cgs {
		if !keep(cg) {
			continue
		}
		for tag := range int8(merged + 1) {
			if n, ok := cg.values[valueKey{v, tag}]; ok {
				nodes = append(nodes, n)
			}
		}
	}
	return nodes
}

// pointsTo returns the union of what v points to in the functions in
// context that keep selects.
func (r *Result) pointsTo(v ssa.Value, keep func(*cgnode) bool) []Location {
	if r.a == nil {
		return nil
	}
	var set locSet
	for _, n := range r.a.valueNodes(v, keep) {
		set.unionWith(&r.a.nodes[n].pts)
	}
	return r.locations(&set)
}

// locations returns the locations of set, in its order.
func (r *Result) locations(set *locSet) []Location {
	var locs []Location
	for _, n := range set.appendTo(nil) {
		locs = append(locs, r.location(n))
	}
	return locs
}

// siteKey is a call site in an origin.
type siteKey struct {
	origin *Origin
	instr  ssa.CallInstruction
}

// Callees returns the functions with a body here that the call site
// may call when it runs in origin o, including the function arguments
// that a function without a body calls back (sync.Once.Do's f).
func (r *Result) Callees(o *Origin, site ssa.CallInstruction) []*ssa.Function {
	if r.a == nil {
		return nil
	}
	return r.a.calls[r.a.siteOf(o, site)]
}

// ExternalCallees returns the functions without a body here (of other
// packages) that an interface method call or a call of a function value
// at site may call when it runs in origin o; their effects come from
// facts.
func (r *Result) ExternalCallees(o *Origin, site ssa.CallInstruction) []*ssa.Function {
	if r.a == nil {
		return nil
	}
	return r.a.externs[r.a.siteOf(o, site)]
}

// Calls calls yield with every call site that calls functions with a
// body here, the origin it runs in and the functions it may call, in no
// particular order.
func (r *Result) Calls(yield func(o *Origin, site ssa.CallInstruction, callees []*ssa.Function) bool) {
	if r.a == nil {
		return
	}
	for k, fns := range r.a.calls {
		if !yield(k.origin, k.instr, fns) {
			return
		}
	}
}

// Spawned returns the origins that the site starts when it runs in
// origin o: a go statement, or a call such as WaitGroup.Go or t.Run.
func (r *Result) Spawned(o *Origin, site ssa.CallInstruction) []*Origin {
	if r.a == nil {
		return nil
	}
	return r.a.spawns[r.a.siteOf(o, site)]
}

// RootFuncs returns the functions that root origin o runs, one after
// the other, in order: the initializer, main, the tests.
func (r *Result) RootFuncs(o *Origin) []*ssa.Function {
	if r.a == nil {
		return nil
	}
	return r.a.rootFuncs[o]
}

// OriginsOf returns the origins in which fn is analyzed.
func (r *Result) OriginsOf(fn *ssa.Function) []*Origin {
	if r.a == nil {
		return nil
	}
	var out []*Origin
	for _, cg := range r.a.byFunc[fn] {
		if cg.fn == fn && !slices.Contains(out, cg.ctx.Origin) {
			out = append(out, cg.ctx.Origin)
		}
	}
	return out
}

// siteOf keys a call site in origin o; the context-insensitive variant
// records its calls in no origin.
func (a *state) siteOf(o *Origin, site ssa.CallInstruction) siteKey {
	if a.ciContext != nil {
		o = nil
	}
	return siteKey{o, site}
}
