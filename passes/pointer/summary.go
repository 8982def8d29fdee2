package pointer

import (
	"cmp"
	"fmt"
	"go/token"
	"go/types"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/guard"
	"github.com/origo-dev/origo/passes/origins"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// SummaryAnalyzer computes what each exported function and method of a
// package does to memory and exports it as a package fact, which
// Analyzer applies where importers call them. It is an analyzer of its
// own because go vet runs fact-producing analyzers on every dependency:
// the summaries are needed everywhere, the whole-package analysis only
// where its results are used.
var SummaryAnalyzer = &analysis.Analyzer{
	Name:       "ptsummary",
	Doc:        "summarize the pointer effects of exported functions as facts",
	URL:        "https://pkg.go.dev/github.com/origo-dev/origo/passes/pointer",
	Run:        runSummaries,
	Requires:   []*analysis.Analyzer{buildir.Analyzer},
	FactTypes:  []analysis.Fact{new(facts.PointerSummaries)},
	ResultType: reflect.TypeFor[*Summaries](),
}

// Summaries is the result of SummaryAnalyzer: the summaries of the
// functions of the package's direct imports, by SSA name. Only direct
// imports: under go vet no other package's facts are visible, and the
// standalone driver must find the same.
type Summaries struct {
	byName  map[string]summaryRef
	globals []summaryRef // the contents of the imports' variables (see globalsName)
	// Exported is what the package exported, for -dump.
	Exported *facts.PointerSummaries
}

type summaryRef struct {
	set *facts.PointerSummaries
	fn  *facts.FuncSummary
}

func (s *Summaries) lookup(fn *ssa.Function) (summaryRef, bool) {
	return s.lookupName(summaryName(fn))
}

func (s *Summaries) lookupName(name string) (summaryRef, bool) {
	if s == nil {
		return summaryRef{}, false
	}
	r, ok := s.byName[name]
	return r, ok
}

// globalsName names the summary of what a package's variables point to
// once it is initialized: a function of no parameters whose objects are
// the variables.
func globalsName(pkgPath string) string { return pkgPath + ".<vars>" }

// applyGlobals gives the variables of the direct imports the contents
// their initialization gives them.
func (a *state) applyGlobals() {
	if a.summaries == nil {
		return
	}
	for _, ref := range a.summaries.globals {
		a.applySummary(&callSite{result: -1}, a.summaries.setName(ref), nil, nil, ref)
	}
}

func (s *Summaries) setName(ref summaryRef) string { return ref.set.Str(ref.fn.Name) }

// summaryName is the key of a function's summary: its SSA name, through
// instantiation.
func summaryName(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	return fn.String()
}

// summaryName is summaryName through fnString.
func (a *state) summaryName(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	return a.fnString(fn)
}

// fnString memoizes fn.String: the same callees are called at many
// sites, and each String makes the name anew (external's, lockset's
// and the summaries' were 2% of client_golang's units under go vet).
func (a *state) fnString(fn *ssa.Function) string {
	if name, ok := a.fnNames[fn]; ok {
		return name
	}
	if a.fnNames == nil {
		a.fnNames = make(map[*ssa.Function]string)
	}
	name := fn.String()
	a.fnNames[fn] = name
	return name
}

func runSummaries(pass *analysis.Pass) (any, error) {
	res := &Summaries{byName: make(map[string]summaryRef)}
	for _, imp := range pass.Pkg.Imports() {
		set := new(facts.PointerSummaries)
		if !pass.ImportPackageFact(imp, set) || !set.Valid() {
			continue
		}
		for i := range set.Funcs {
			name := set.Str(set.Funcs[i].Name)
			ref := summaryRef{set, &set.Funcs[i]}
			res.byName[name] = ref
			if name == globalsName(imp.Path()) {
				res.globals = append(res.globals, ref)
			}
		}
	}
	ir := pass.ResultOf[buildir.Analyzer].(*buildir.IR)
	if ir.Pkg == nil || pass.Pkg.Path() == "runtime" || buildir.NoImporters(pass.Pkg) {
		// The runtime's summaries were 4.6 MB (of grpc's 65 MB of facts)
		// and move no user pointers that matter to races; its calls stay
		// opaque.
		return res, nil
	}
	guard.Do(pass, "ptsummary", func() {
		set, degraded := summarizeBounded(ir, res, 0)
		if degraded != "" {
			fmt.Fprintf(os.Stderr, "origo: ptsummary degraded package %s: %s\n", pass.Pkg.Path(), degraded)
		}
		if set != nil {
			pass.ExportPackageFact(set)
			res.Exported = set
		}
	})
	return res, nil
}

// summarizeBounded summarizes the package within limit (0: ptsLimit) in
// the points-to sets and nodeLimit in nodes, degrading rather than
// giving up: its candidates all solved together first; past a limit,
// with twice the room; past that too, each exported function apart,
// with the literals inside it (what one function does to another through
// the package's variables is then not seen), and what the variables
// hold as the package's initialization leaves them; a function whose own
// solve is past the limit has no summary. degraded says what was given
// up, "" when nothing was.
func summarizeBounded(ir *buildir.IR, imported *Summaries, limit int) (set *facts.PointerSummaries, degraded string) {
	limit = cmp.Or(limit, ptsLimit)
	cands := summaryCandidates(ir)
	if len(cands) == 0 {
		return nil, ""
	}
	var strs facts.Interner
	set = &facts.PointerSummaries{V: facts.Version}
	stop := "the summaries' size forced by a test"
	if !forceSummaryGroups {
		if stop = summarizeWithin(ir, imported, cands, true, limit, &strs, set); stop == "" {
			return finish(set, &strs), ""
		}
		set, strs = &facts.PointerSummaries{V: facts.Version}, facts.Interner{}
		if summarizeWithin(ir, imported, cands, true, 2*limit, &strs, set) == "" {
			return finish(set, &strs), ""
		}
	}
	set, strs = &facts.PointerSummaries{V: facts.Version}, facts.Interner{}
	summarizeWithin(ir, imported, nil, true, limit, &strs, set) // the variables, as initialized
	groups := groupsOf(cands)
	lost := 0
	for _, g := range groups {
		if summarizeWithin(ir, imported, g, false, limit, &strs, set) != "" {
			lost++ // what it projected is dropped
		}
	}
	degraded = fmt.Sprintf("%s with all its functions solved together, even with twice the room, so each of its %d functions that importers may call was summarized apart, with the literals inside it, and its variables as its initialization leaves them: what one function stores through a variable is not seen by the others' summaries", stop, len(groups))
	if lost > 0 {
		degraded += fmt.Sprintf("; %d of them still past the bound have no summary, and their callers follow no pointer through them", lost)
	}
	return finish(set, &strs), degraded
}

// forceSummaryGroups makes summarizeBounded summarize each exported
// function apart, as past its bounds (for tests).
var forceSummaryGroups bool

// finish returns set, with the strings it refers to and its functions
// in order; nil when it summarizes nothing.
func finish(set *facts.PointerSummaries, strs *facts.Interner) *facts.PointerSummaries {
	if len(set.Funcs) == 0 {
		return nil
	}
	set.Strings = strs.Strings()
	slices.SortFunc(set.Funcs, func(x, y facts.FuncSummary) int {
		return cmp.Compare(set.Strings[x.Name], set.Strings[y.Name])
	})
	return set
}

// groupsOf splits the candidates by the package-level function each is
// or is a literal inside of, in the candidates' order.
func groupsOf(cands []*ssa.Function) [][]*ssa.Function {
	var groups [][]*ssa.Function
	index := make(map[*ssa.Function]int)
	for _, fn := range cands {
		top := fn
		for top.Parent() != nil {
			top = top.Parent()
		}
		i, ok := index[top]
		if !ok {
			i = len(groups)
			index[top] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], fn)
	}
	return groups
}

// summarizeWithin runs summarize and returns "" or, if it stopped at one
// of its size limits, which; what it projected is then dropped.
func summarizeWithin(ir *buildir.IR, imported *Summaries, cands []*ssa.Function, globals bool, limit int, strs *facts.Interner, set *facts.PointerSummaries) (stopped string) {
	n := len(set.Funcs)
	defer func() {
		if r := recover(); r != nil {
			stop, ok := r.(guard.Stop)
			if !ok {
				panic(r)
			}
			set.Funcs = set.Funcs[:n]
			stopped = stop.Reason
		}
	}()
	summarize(ir, imported, cands, globals, limit, strs, set)
	return ""
}

// summaryCandidates lists the functions importers can call: exported
// functions, methods with exported names (an importer may call them
// through an interface, whatever their type), and function literals
// (closures an exported function hands out), generic ones excepted.
func summaryCandidates(ir *buildir.IR) []*ssa.Function {
	var out []*ssa.Function
	for _, fn := range ir.SrcFuncs {
		if len(fn.Blocks) == 0 || fn.TypeParams().Len() > 0 || fn.TypeArgs() != nil {
			continue
		}
		if fn.Parent() != nil {
			if !hasTypeParams(fn) {
				out = append(out, fn)
			}
			continue
		}
		if !buildir.Importable(fn) || origins.TestRootKind(fn.Prog.Fset, fn) != 0 {
			continue // no package calls a test
		}
		out = append(out, fn)
	}
	return out
}

// hasTypeParams reports whether a function literal is inside a generic
// function.
func hasTypeParams(fn *ssa.Function) bool {
	for p := fn.Parent(); p != nil; p = p.Parent() {
		if p.TypeParams().Len() > 0 {
			return true
		}
	}
	return false
}

// rootObjects are the objects that stand for what one summarized
// function's arguments point to.
type rootObjects struct {
	params []paramObject
}

type paramObject struct {
	obj         *Object
	kind        facts.SumObjectKind
	param, leaf int
	parent      *Object // for SumSub
}

// summarize solves cands together, in one context,
// each with objects of its own for what its arguments point to, and
// projects each solution onto those objects, what it allocates and what
// it returns. Calls of imported functions apply their summaries, so that
// summaries are closed over callees in every package.
func summarize(ir *buildir.IR, imported *Summaries, cands []*ssa.Function, globals bool, limit int, strs *facts.Interner, set *facts.PointerSummaries) {
	a := newState(ir.Pkg.Prog, Options{PtsLimit: limit})
	a.summaries = imported
	a.summaryMode = true
	// One context for all (factories aside, which keep their call
	// sites so that a function calling a constructor twice gets two
	// objects); goroutines are calls (see connect).
	a.summaryCtx = a.context(&Origin{Root: "summary"}, [2]ssa.CallInstruction{}, nil)
	a.pkgPath = ir.Pkg.Pkg.Path()
	a.applyGlobals()
	if init := ir.Pkg.Func("init"); init != nil {
		a.cgnodeFor(init, a.summaryCtx) // what the variables hold
	}
	roots := make(map[*ssa.Function]*rootObjects)
	for _, fn := range cands {
		cg := a.cgnodeFor(fn, a.summaryCtx)
		r := new(rootObjects)
		if len(fn.FreeVars) > 0 {
			// A closure's free variables are the leaves of its closure
			// object, which the caller passes as a hidden parameter.
			env := a.newObject(ObjUnknown, nil, freeVarsType(fn), a.summaryCtx, 0)
			env.Label = "variables of " + fn.Name()
			for i, fv := range fn.FreeVars {
				src, size := a.part(env.start, a.layouts.offsetOf(env.Type, i), a.size(fv.Type()))
				a.copyBlock(src, a.valueNode(cg, fv, 0), size)
			}
			r.params = append(r.params, paramObject{obj: env, kind: facts.SumParam, param: facts.EnvParam})
		}
		for i, p := range fn.Params {
			block := a.valueNode(cg, p, 0)
			for j, lf := range a.layouts.of(p.Type()).leaves {
				t := contents(lf.typ)
				if t == nil {
					continue
				}
				obj := a.newObject(ObjUnknown, nil, t, a.summaryCtx, 0)
				obj.Label = fmt.Sprintf("parameter %d of %s", i, fn.Name())
				a.addLoc(block+nodeID(j), obj.start)
				r.params = append(r.params, paramObject{obj: obj, kind: facts.SumParam, param: i, leaf: j})
			}
		}
		// What the arguments point to at the call may itself point
		// somewhere: one level of objects for that, two for a closure's
		// variables (a captured variable is itself a pointer away).
		for _, po := range slices.Clone(r.params) {
			depth := 1
			if po.param == facts.EnvParam {
				depth = 2
			}
			a.subObjects(r, po.obj, depth)
		}
		roots[fn] = r
	}
	a.solve()
	a.statics = a.reachableFromGlobals(ir.Pkg)
	// Each root object belongs to the one candidate it was made for:
	// indexed once, not gathered again for every summary projected.
	owners := make(map[*Object]*rootObjects)
	for _, r := range roots {
		for _, po := range r.params {
			owners[po.obj] = r
		}
	}

	// Closures are summarized when a summary hands them out.
	wanted := make(map[*ssa.Function]bool)
	var queue []*ssa.Function
	want := func(fn *ssa.Function) {
		if !wanted[fn] && roots[fn] != nil {
			wanted[fn] = true
			queue = append(queue, fn)
		}
	}
	for _, fn := range cands {
		if fn.Parent() == nil {
			want(fn)
		}
	}
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		if s := a.project(fn, roots[fn], owners, strs, want); s != nil {
			set.Funcs = append(set.Funcs, *s)
		}
	}
	if !globals {
		return
	}
	if g := a.projectGlobals(ir.Pkg, strs, want); g != nil {
		set.Funcs = append(set.Funcs, *g)
		for len(queue) > 0 { // closures the variables hold
			fn := queue[0]
			queue = queue[1:]
			if s := a.project(fn, roots[fn], owners, strs, want); s != nil {
				set.Funcs = append(set.Funcs, *s)
			}
		}
	}
}

// reachableFromGlobals returns the objects that the package's variables
// may point to, directly or not: they exist once, not once per call of
// the function that returns them.
func (a *state) reachableFromGlobals(pkg *ssa.Package) map[*Object]bool {
	seen := make(map[*Object]bool)
	var queue []*Object
	for _, name := range sortedMembers(pkg) {
		if g, ok := pkg.Members[name].(*ssa.Global); ok {
			if obj, ok := a.globals[g.String()]; ok {
				queue = append(queue, obj)
			}
		}
	}
	for len(queue) > 0 {
		obj := queue[0]
		queue = queue[1:]
		for k := range obj.layout.size() {
			for _, loc := range a.nodes[obj.start+nodeID(k)].pts.appendTo(nil) {
				if o := a.nodes[loc].obj; o != nil && !seen[o] && o.Kind != ObjFunc {
					seen[o] = true
					queue = append(queue, o)
				}
			}
		}
	}
	return seen
}

// entryType names the type of an object for a person: a map's object,
// whose type is its entries' "(key K, value V)", as map[K]V.
func entryType(t string) string {
	if kv, ok := strings.CutPrefix(t, "(key "); ok {
		if k, v, ok := strings.Cut(strings.TrimSuffix(kv, ")"), ", value "); ok {
			return "map[" + k + "]" + v
		}
	}
	return t
}

// staticLabel describes an object known by its static name: a package
// variable ("variable http.DefaultClient"), or what one holds, made at a
// place in its package ("map made at client.go:248 in net/http").
func staticLabel(name string) string {
	pkg, site, ok := strings.Cut(name, ".<")
	if !ok {
		return "variable " + facts.ShortName(name)
	}
	parts := strings.SplitN(strings.TrimSuffix(site, ">"), ":", 5)
	if len(parts) < 5 {
		return "variable " + facts.ShortName(name)
	}
	return fmt.Sprintf("%s made at %s:%s in %s", parts[3], parts[0], parts[1], pkg)
}

// staticName names an object that package variables hold, so that every
// summary that mentions it, and every importer, means the same object.
func (a *state) staticName(obj *Object) string {
	if obj.global != "" {
		return obj.global
	}
	p := a.prog.Fset.Position(obj.Site.Pos())
	return fmt.Sprintf("%s.<%s:%d:%d:%s:%s>", a.pkgPath, baseName(p.Filename), p.Line, p.Column, obj.Kind, a.typeName(obj.Type, false))
}

// subObjects gives each pointer leaf of obj an object for what it points
// to at the call, depth levels down.
func (a *state) subObjects(r *rootObjects, obj *Object, depth int) {
	if depth == 0 {
		return
	}
	for k, lf := range obj.layout.leaves {
		t := contents(lf.typ)
		if t == nil {
			continue
		}
		sub := a.newObject(ObjUnknown, nil, t, a.summaryCtx, 0)
		sub.Label = obj.Label + " (indirect)"
		a.addLoc(obj.start+nodeID(k), sub.start)
		r.params = append(r.params, paramObject{obj: sub, kind: facts.SumSub, leaf: k, parent: obj})
		a.subObjects(r, sub, depth-1)
	}
}

// projectGlobals summarizes what the package's variables point to after
// initialization, as a function of no parameters named globalsName.
func (a *state) projectGlobals(pkg *ssa.Package, strs *facts.Interner, want func(*ssa.Function)) *facts.FuncSummary {
	r := new(rootObjects)
	for _, name := range sortedMembers(pkg) {
		if g, ok := pkg.Members[name].(*ssa.Global); ok && token.IsExported(name) {
			r.params = append(r.params, paramObject{obj: a.globalObject(g), kind: facts.SumGlobal})
		}
	}
	if len(r.params) == 0 {
		return nil
	}
	return a.projectRoots(globalsName(pkg.Pkg.Path()), nil, r, nil, strs, want)
}

func sortedMembers(pkg *ssa.Package) []string {
	names := make([]string, 0, len(pkg.Members))
	for name := range pkg.Members {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// project builds the summary of fn from the solution: the objects
// reachable from its arguments' objects and its results, the edges among
// them, and the results' targets. Objects that stand for other
// functions' arguments, globals and functions are left out.
func (a *state) project(fn *ssa.Function, r *rootObjects, owners map[*Object]*rootObjects, strs *facts.Interner, want func(*ssa.Function)) *facts.FuncSummary {
	cg := a.cgnodes[cgKey{fn, a.summaryCtx}]
	return a.projectRoots(a.summaryName(fn), cg, r, owners, strs, want)
}

// projectRoots builds a summary named name from the root objects r and
// the results of cg (if any). owners gives the candidate each root
// object stands for an argument of: those of other candidates are left
// out.
func (a *state) projectRoots(name string, cg *cgnode, r *rootObjects, owners map[*Object]*rootObjects, strs *facts.Interner, want func(*ssa.Function)) *facts.FuncSummary {
	foreign := func(obj *Object) bool {
		owner, ok := owners[obj]
		return ok && owner != r
	}
	s := &facts.FuncSummary{Name: strs.Intern(name)}
	index := make(map[*Object]int32)
	var queue []*Object
	add := func(obj *Object) (int32, bool) {
		if i, ok := index[obj]; ok {
			return i, true
		}
		if foreign(obj) || obj.Kind == ObjFunc {
			return 0, false
		}
		if len(s.Objects) >= facts.MaxSumObjects {
			s.Truncated = true
			return 0, false
		}
		i := int32(len(s.Objects))
		index[obj] = i
		so := facts.SumObject{Kind: facts.SumAlloc, Size: uint32(obj.layout.size()), Type: strs.Intern(a.typeName(obj.Type, true))}
		switch {
		case obj.Kind == ObjGlobal:
			so.Kind, so.Site = facts.SumGlobal, strs.Intern(obj.Site.String())
		case obj.global != "":
			so.Kind, so.Site = facts.SumGlobal, strs.Intern(obj.global)
		case a.statics[obj] && obj.Site != nil:
			so.Kind, so.Site = facts.SumGlobal, strs.Intern(a.staticName(obj))
		}
		switch {
		case obj.Kind == ObjClosure && obj.fn != nil:
			so.Func = strs.Intern(a.summaryName(obj.fn))
			want(obj.fn)
		case obj.sumFunc != "":
			so.Func = strs.Intern(obj.sumFunc)
		case obj.Kind == ObjInterface && obj.sumDyn == "":
			so.Dyn = strs.Intern(a.typeName(obj.Type, false))
		case obj.sumDyn != "":
			so.Dyn = strs.Intern(obj.sumDyn)
		}
		if so.Kind == facts.SumGlobal {
			so.Type = strs.Intern(a.typeName(obj.Type, true))
		} else if obj.sumType != "" {
			so.Type, so.Site = strs.Intern(obj.sumType), strs.Intern(obj.sumSite)
		} else if obj.Site != nil {
			if p := a.prog.Fset.Position(obj.Site.Pos()); p.IsValid() {
				so.Site = strs.Intern(fmt.Sprintf("%s:%d", baseName(p.Filename), p.Line))
			}
		}
		s.Objects = append(s.Objects, so)
		queue = append(queue, obj)
		return i, true
	}
	for _, po := range r.params {
		i, ok := add(po.obj)
		if !ok {
			continue
		}
		so := &s.Objects[i]
		switch po.kind {
		case facts.SumParam:
			so.Kind, so.Leaf, so.Param = po.kind, uint32(po.leaf), uint16(po.param)
		case facts.SumSub:
			so.Kind, so.Leaf, so.Parent = po.kind, uint32(po.leaf), index[po.parent]
		}
	}
	target := func(loc nodeID) (int32, uint32, bool) {
		obj := a.nodes[loc].obj
		if obj == nil {
			return 0, 0, false
		}
		i, ok := add(obj)
		return i, uint32(loc - obj.start), ok
	}
	for leaf := range a.resultSize(cg) {
		for _, loc := range a.nodes[cg.results+nodeID(leaf)].pts.appendTo(nil) {
			if to, off, ok := target(loc); ok {
				s.Results = append(s.Results, facts.SumEdge{From: -1, FromOff: uint32(leaf), To: to, ToOff: off})
			}
		}
	}
	for len(queue) > 0 {
		obj := queue[0]
		queue = queue[1:]
		from := index[obj]
		for k := range obj.layout.size() {
			for _, loc := range a.nodes[obj.start+nodeID(k)].pts.appendTo(nil) {
				to, off, ok := target(loc)
				if !ok {
					continue
				}
				// The object of an argument's indirect target already
				// stands for what it points to at the call.
				if to != from && s.Objects[to].Kind == facts.SumSub && s.Objects[to].Parent == from && s.Objects[to].Leaf == uint32(k) && off == 0 {
					continue
				}
				s.Edges = append(s.Edges, facts.SumEdge{From: from, FromOff: uint32(k), To: to, ToOff: off})
			}
		}
	}
	if len(s.Edges) == 0 && len(s.Results) == 0 {
		return nil
	}
	return s
}

// paramNode returns the node of the argument leaf that a SumParam
// object of a summary stands for at a call: the receiver's box of an
// interface call takes parameter 0. It reports false for the closure's
// free variables, and for a parameter the call does not have.
func (a *state) paramNode(site *callSite, recv *Object, so facts.SumObject) (nodeID, bool) {
	param, leaf := int(so.Param), nodeID(so.Leaf)
	if so.Param == facts.EnvParam {
		return 0, false
	}
	if recv != nil && recv.Kind == ObjInterface {
		if param == 0 {
			return recv.start + leaf, int(leaf) < recv.layout.size()
		}
		param--
	}
	if param < len(site.args) && int(leaf) < a.size(site.args[param].Type()) {
		return a.val(site.at, site.args[param]) + leaf, true
	}
	return 0, false
}

// applySummary instantiates the summary of fn at a call site: objects
// for what the arguments point to are the arguments' targets, what the
// call allocates is a new object per call site, and the edges become
// stores. recv is the boxed receiver of an interface call, or the
// closure object of a closure call, or nil; sig is the callee's type.
func (a *state) applySummary(site *callSite, name string, sig *types.Signature, recv *Object, ref summaryRef) {
	s := ref.fn
	ptrs := make([]sumPtr, len(s.Objects)) // a pointer to each object
	// What the call allocates is keyed by the call site, or by the
	// summary for the variables of a package (no caller).
	var key any = site.instr
	var ctx *Context
	tag := 0
	if site.caller != nil {
		ctx, tag = site.caller.ctx, site.at.tag
	} else {
		key = name
	}
	for i, so := range s.Objects {
		switch so.Kind {
		case facts.SumParam:
			if so.Param == facts.EnvParam {
				if recv != nil && recv.Kind == ObjClosure {
					ptrs[i] = knownPtr(recv.start)
				}
			} else if n, ok := a.paramNode(site, recv, so); ok {
				// The node of the argument itself: a node of its own
				// would only copy it.
				ptrs[i] = nodePtr(n)
			}
		case facts.SumSub:
			if so.Parent >= 0 && int(so.Parent) < i {
				ptrs[i] = a.derefPtr(ptrs[so.Parent], int(so.Leaf))
			}
		case facts.SumGlobal:
			obj := a.namedGlobal(ref.set.Str(so.Site), int(so.Size))
			obj.sumFunc, obj.sumDyn = ref.set.Str(so.Func), ref.set.Str(so.Dyn)
			switch {
			case obj.sumFunc != "" && obj.Kind == ObjUnknown:
				obj.Kind = ObjClosure
			case obj.sumDyn != "" && obj.Kind == ObjUnknown:
				obj.Kind = ObjInterface
			}
			if obj.sumType == "" {
				obj.sumType = ref.set.Str(so.Type)
			}
			ptrs[i] = knownPtr(obj.start)
		case facts.SumAlloc:
			// A new object per call site, context, iteration tag and
			// summary object.
			k := allocKey{key, ctx, (i+1)*2 + tag}
			obj, ok := a.allocs[k]
			if !ok {
				kind := ObjUnknown
				switch {
				case so.Func != 0:
					kind = ObjClosure
				case so.Dyn != 0:
					kind = ObjInterface
				}
				obj = a.newObject(kind, nil, a.opaqueType(int(so.Size)), ctx, 0)
				obj.Label = entryType(ref.set.Str(so.Type)) + " made by " + facts.ShortName(name)
				obj.sumType, obj.sumSite = ref.set.Str(so.Type), ref.set.Str(so.Site)
				obj.sumFunc, obj.sumDyn = ref.set.Str(so.Func), ref.set.Str(so.Dyn)
				obj.call = site.instr
				a.allocs[k] = obj
			}
			ptrs[i] = knownPtr(obj.start)
		}
	}
	for _, e := range s.Edges {
		if inRange(e.From, ptrs) && inRange(e.To, ptrs) {
			a.storePtr(ptrs[e.From], int(e.FromOff), a.offsetPtr(ptrs[e.To], int(e.ToOff)))
		}
	}
	if site.result >= 0 && sig != nil {
		size := a.size(sig.Results())
		for _, e := range s.Results {
			if inRange(e.To, ptrs) && int(e.FromOff) < size {
				a.movePtr(a.offsetPtr(ptrs[e.To], int(e.ToOff)), site.result+nodeID(e.FromOff))
			}
		}
	}
}

// sumPtr is a pointer to a summary's object at one call: a node whose
// points-to set is the object's locations, or the one location of an
// object the call allocates, a package variable or the closure called.
// Known locations take no node: a node per allocating call in every
// context, pointing to that call's one object, was a third of the
// nodes of badger's root package.
type sumPtr struct {
	n     nodeID
	state uint8 // 0: points to nothing; ptrNode: n; ptrKnown: only location n
}

const (
	ptrNode = 1 + iota
	ptrKnown
)

func nodePtr(n nodeID) sumPtr    { return sumPtr{n, ptrNode} }
func knownPtr(loc nodeID) sumPtr { return sumPtr{loc, ptrKnown} }

// derefPtr returns the pointer at leaf off of what p points to.
func (a *state) derefPtr(p sumPtr, off int) sumPtr {
	switch p.state {
	case ptrKnown:
		if leaf, ok := a.within(p.n, off); ok {
			return nodePtr(leaf)
		}
	case ptrNode:
		n := a.newNodes(unsafePointer, nil)
		a.addCons(p.n, loadCons{dst: n, off: off, size: 1})
		return nodePtr(n)
	}
	return sumPtr{}
}

// offsetPtr returns p moved off leaves into the objects it points to.
func (a *state) offsetPtr(p sumPtr, off int) sumPtr {
	if off == 0 {
		return p
	}
	switch p.state {
	case ptrKnown:
		if loc, ok := a.within(p.n, off); ok {
			return knownPtr(loc)
		}
	case ptrNode:
		n := a.newNodes(unsafePointer, nil)
		a.addCons(p.n, offsetCons{dst: n, off: off})
		return nodePtr(n)
	}
	return sumPtr{}
}

// storePtr stores src into leaf off of what p points to.
func (a *state) storePtr(p sumPtr, off int, src sumPtr) {
	switch p.state {
	case ptrKnown:
		if dst, ok := a.within(p.n, off); ok {
			a.movePtr(src, dst)
		}
	case ptrNode:
		switch src.state {
		case ptrNode:
			a.addCons(p.n, storeCons{src: src.n, off: off, size: 1})
		case ptrKnown:
			n := a.newNodes(unsafePointer, nil)
			a.addLoc(n, src.n)
			a.addCons(p.n, storeCons{src: n, off: off, size: 1})
		}
	}
}

// movePtr adds what src points to to pts(dst).
func (a *state) movePtr(src sumPtr, dst nodeID) {
	switch src.state {
	case ptrNode:
		a.copyEdge(src.n, dst)
	case ptrKnown:
		a.addLoc(dst, src.n)
	}
}

// callSummarized calls the closure or method that an object made by a
// summarized call stands for, through its summary.
func (a *state) callSummarized(site *callSite, name string, recv *Object) {
	ref, ok := a.summaries.lookupName(name)
	if !ok || site.spawn != nil && !a.summaryMode {
		a.stats.External++
		return
	}
	a.stats.External++
	a.stats.Summarized++
	a.applySummary(site, name, site.instr.Common().Signature(), recv, ref)
}

// methodName is the SSA name of method m of a dynamic type named t.
func methodName(t, m string) string { return "(" + t + ")." + m }

// namedGlobal returns the object of a package-level variable known by
// name only, from a summary; an importer that names the variable itself
// (an exported one) gets the same object from globalObject.
func (a *state) namedGlobal(name string, size int) *Object {
	if obj, ok := a.globals[name]; ok {
		return obj
	}
	obj := a.newObject(ObjUnknown, nil, a.opaqueType(size), nil, 0)
	obj.Label = staticLabel(name)
	obj.global = name
	a.globals[name] = obj
	return obj
}

func (a *state) resultSize(cg *cgnode) int {
	if cg == nil {
		return 0
	}
	return a.size(cg.fn.Signature.Results())
}

func inRange[T any](i int32, s []T) bool { return i >= 0 && int(i) < len(s) }

var unsafePointer = types.Typ[types.UnsafePointer]

// opaqueType returns a struct type of n leaves that may each hold a
// pointer: the layout of an object made in another package, whose type
// the importer may not know. One type per size: every object a summary
// makes had a type of its own, all identical, each made, then hashed
// and flattened again by layouts (2% of client_golang's units).
func (a *state) opaqueType(n int) types.Type {
	n = max(n, 1)
	if t, ok := a.opaque[n]; ok {
		return t
	}
	fields := make([]*types.Var, n)
	for i := range fields {
		fields[i] = types.NewField(0, nil, fmt.Sprintf("leaf%d", i), unsafePointer, false)
	}
	t := types.NewStruct(fields, nil)
	if a.opaque == nil {
		a.opaque = make(map[int]types.Type)
	}
	a.opaque[n] = t
	return t
}

// DescribeSummary renders a summary for -dump: "summary F: edge; ...".
func DescribeSummary(set *facts.PointerSummaries, s *facts.FuncSummary) string {
	obj := func(i int32) string {
		o := s.Objects[i]
		switch o.Kind {
		case facts.SumParam:
			if o.Param == facts.EnvParam {
				return "env"
			}
			return fmt.Sprintf("*p%d.%d", o.Param, o.Leaf)
		case facts.SumSub:
			return fmt.Sprintf("*(o%d+%d)", o.Parent, o.Leaf)
		case facts.SumGlobal:
			return set.Str(o.Site)
		}
		return fmt.Sprintf("new(%s)@%s", set.Str(o.Type), set.Str(o.Site))
	}
	var parts []string
	for _, e := range s.Results {
		parts = append(parts, fmt.Sprintf("result.%d → %s+%d", e.FromOff, obj(e.To), e.ToOff))
	}
	for _, e := range s.Edges {
		parts = append(parts, fmt.Sprintf("%s+%d → %s+%d", obj(e.From), e.FromOff, obj(e.To), e.ToOff))
	}
	return "summary " + facts.ShortName(set.Str(s.Name)) + ": " + strings.Join(parts, "; ")
}

// ImportedFresh reports whether a call of fn, a function of a direct
// import, returns an object that the call made and that, by fn's
// summary, nothing it was given and no package variable points to once
// it returns: its caller is the first to hold it (packets.NewControlPacket's
// packet). Whether the call started a goroutine that holds it is not in
// the summary: the caller asks the origins too.
func (r *Result) ImportedFresh(fn *ssa.Function) bool {
	if r == nil || r.a == nil || fn.Signature.Results().Len() != 1 {
		return false
	}
	ref, ok := r.a.summaries.lookup(fn)
	if !ok || ref.fn.Truncated {
		return false
	}
	s := ref.fn
	made := make(map[int32]bool) // the objects the result reaches
	for _, e := range s.Results {
		if e.To < 0 || int(e.To) >= len(s.Objects) || s.Objects[e.To].Kind != facts.SumAlloc {
			return false
		}
		made[e.To] = true
	}
	if len(made) == 0 {
		return false
	}
	for grew := true; grew; {
		grew = false
		for _, e := range s.Edges {
			if made[e.From] && !made[e.To] && s.Objects[e.To].Kind == facts.SumAlloc {
				made[e.To], grew = true, true
			}
		}
	}
	for _, e := range s.Edges {
		if made[e.To] && !made[e.From] {
			return false // stored where the caller or another goroutine finds it
		}
	}
	return true
}
