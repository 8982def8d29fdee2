package pointer

import (
	"cmp"
	"fmt"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/internal/guard"
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
	byName map[string]summaryRef
	// Exported is what the package exported, for -dump.
	Exported *facts.PointerSummaries
}

type summaryRef struct {
	set *facts.PointerSummaries
	fn  *facts.FuncSummary
}

func (s *Summaries) lookup(fn *ssa.Function) (summaryRef, bool) {
	if s == nil {
		return summaryRef{}, false
	}
	r, ok := s.byName[summaryName(fn)]
	return r, ok
}

// summaryName is the key of a function's summary: its SSA name, through
// instantiation.
func summaryName(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	return fn.String()
}

func runSummaries(pass *analysis.Pass) (any, error) {
	res := &Summaries{byName: make(map[string]summaryRef)}
	for _, imp := range pass.Pkg.Imports() {
		set := new(facts.PointerSummaries)
		if !pass.ImportPackageFact(imp, set) || !set.Valid() {
			continue
		}
		for i := range set.Funcs {
			res.byName[set.Str(set.Funcs[i].Name)] = summaryRef{set, &set.Funcs[i]}
		}
	}
	ir := pass.ResultOf[buildir.Analyzer].(*buildir.IR)
	if ir.Pkg == nil {
		return res, nil
	}
	guard.Do(pass, "ptsummary", func() {
		if set := summarize(ir, res); set != nil {
			pass.ExportPackageFact(set)
			res.Exported = set
		}
	})
	return res, nil
}

// summaryCandidates lists the functions importers can call by name:
// exported functions and exported methods, generic ones excepted.
func summaryCandidates(ir *buildir.IR) []*ssa.Function {
	var out []*ssa.Function
	for _, fn := range ir.SrcFuncs {
		obj, ok := fn.Object().(*types.Func)
		if fn.Parent() != nil || !ok || !obj.Exported() || fn.TypeParams().Len() > 0 || len(fn.Blocks) == 0 {
			continue
		}
		if origins.TestRootKind(fn.Prog.Fset, fn) != 0 {
			continue // no package calls a test
		}
		if recv := fn.Signature.Recv(); recv != nil {
			if named, ok := derefType(recv.Type()).(*types.Named); !ok || named.TypeParams().Len() > 0 || !named.Obj().Exported() {
				continue
			}
		}
		out = append(out, fn)
	}
	return out
}

func derefType(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
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

// summarize solves the package's candidates together, in one context,
// each with objects of its own for what its arguments point to, and
// projects each solution onto those objects, what it allocates and what
// it returns. Calls of imported functions apply their summaries, so that
// summaries are closed over callees in every package.
func summarize(ir *buildir.IR, imported *Summaries) *facts.PointerSummaries {
	cands := summaryCandidates(ir)
	if len(cands) == 0 {
		return nil
	}
	a := newState(ir.Pkg.Prog, Options{})
	a.summaries = imported
	a.summaryMode = true
	// One context for all (factories aside, which keep their call
	// sites so that a function calling a constructor twice gets two
	// objects); goroutines are calls (see connect).
	a.summaryCtx = a.context(&Origin{Root: "summary"}, [2]ssa.CallInstruction{})
	roots := make(map[*ssa.Function]*rootObjects)
	for _, fn := range cands {
		cg := a.cgnodeFor(fn, a.summaryCtx)
		r := new(rootObjects)
		for i, p := range fn.Params {
			block := a.valueNode(cg, p, 0)
			for j, lf := range a.layouts.of(p.Type()).leaves {
				t := pointee(lf.typ)
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
		// somewhere: one level of objects for that.
		for _, po := range slices.Clone(r.params) {
			for k, lf := range po.obj.layout.leaves {
				t := pointee(lf.typ)
				if t == nil {
					continue
				}
				sub := a.newObject(ObjUnknown, nil, t, a.summaryCtx, 0)
				sub.Label = po.obj.Label + " (indirect)"
				a.addLoc(po.obj.start+nodeID(k), sub.start)
				r.params = append(r.params, paramObject{obj: sub, kind: facts.SumSub, leaf: k, parent: po.obj})
			}
		}
		roots[fn] = r
	}
	a.solve()

	var strs facts.Interner
	set := &facts.PointerSummaries{V: facts.Version}
	for _, fn := range cands {
		if s := a.project(fn, roots[fn], roots, &strs); s != nil {
			set.Funcs = append(set.Funcs, *s)
		}
	}
	if len(set.Funcs) == 0 {
		return nil
	}
	set.Strings = strs.Strings()
	slices.SortFunc(set.Funcs, func(x, y facts.FuncSummary) int {
		return cmp.Compare(set.Strings[x.Name], set.Strings[y.Name])
	})
	return set
}

// project builds the summary of fn from the solution: the objects
// reachable from its arguments' objects and its results, the edges among
// them, and the results' targets. Objects that stand for other
// functions' arguments, globals and functions are left out.
func (a *state) project(fn *ssa.Function, r *rootObjects, all map[*ssa.Function]*rootObjects, strs *facts.Interner) *facts.FuncSummary {
	foreign := make(map[*Object]bool)
	for other, ro := range all {
		if other != fn {
			for _, po := range ro.params {
				foreign[po.obj] = true
			}
		}
	}
	s := &facts.FuncSummary{Name: strs.Intern(summaryName(fn))}
	index := make(map[*Object]int32)
	var queue []*Object
	add := func(obj *Object) (int32, bool) {
		if i, ok := index[obj]; ok {
			return i, true
		}
		if foreign[obj] || obj.Kind == ObjGlobal || obj.Kind == ObjFunc {
			return 0, false
		}
		if len(s.Objects) >= facts.MaxSumObjects {
			s.Truncated = true
			return 0, false
		}
		i := int32(len(s.Objects))
		index[obj] = i
		so := facts.SumObject{Kind: facts.SumAlloc, Size: uint32(obj.layout.size()), Type: strs.Intern(types.TypeString(obj.Type, shortQualifier))}
		if obj.sumType != "" {
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
		i, _ := add(po.obj)
		so := &s.Objects[i]
		so.Kind = po.kind
		so.Leaf = uint32(po.leaf)
		if po.kind == facts.SumParam {
			so.Param = uint16(po.param)
		} else {
			so.Parent = index[po.parent]
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
	cg := a.cgnodes[cgKey{fn, a.summaryCtx}]
	for leaf := range a.size(fn.Signature.Results()) {
		for _, loc := range a.nodes[cg.results+nodeID(leaf)].pts.AppendTo(nil) {
			if to, off, ok := target(nodeID(loc)); ok {
				s.Results = append(s.Results, facts.SumEdge{From: -1, FromOff: uint32(leaf), To: to, ToOff: off})
			}
		}
	}
	for len(queue) > 0 {
		obj := queue[0]
		queue = queue[1:]
		from := index[obj]
		for k := range obj.layout.size() {
			for _, loc := range a.nodes[obj.start+nodeID(k)].pts.AppendTo(nil) {
				to, off, ok := target(nodeID(loc))
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

// applySummary instantiates the summary of fn at a call site: objects
// for what the arguments point to are the arguments' targets, what the
// call allocates is a new object per call site, and the edges become
// stores. recv is the boxed receiver of an interface call, or nil.
func (a *state) applySummary(site *callSite, fn *ssa.Function, recv *Object, ref summaryRef) {
	s := ref.fn
	nodes := make([]nodeID, len(s.Objects)) // a node pointing to each object
	args := site.args
	for i, so := range s.Objects {
		n := a.newNodes(unsafePointer, nil)
		nodes[i] = n
		switch so.Kind {
		case facts.SumParam:
			param, leaf := int(so.Param), nodeID(so.Leaf)
			if recv != nil {
				if param == 0 {
					a.copyEdge(recv.start+leaf, n)
					continue
				}
				param--
			}
			if param < len(args) && int(leaf) < a.size(args[param].Type()) {
				a.copyEdge(a.val(site.at, args[param])+leaf, n)
			}
		case facts.SumSub:
			if so.Parent >= 0 && int(so.Parent) < i {
				a.addCons(nodes[so.Parent], loadCons{dst: n, off: int(so.Leaf), size: 1})
			}
		case facts.SumAlloc:
			// A new object per call site, context, iteration tag and
			// summary object.
			k := allocKey{site.instr, site.caller.ctx, (i+1)*2 + site.at.tag}
			obj, ok := a.allocs[k]
			if !ok {
				obj = a.newObject(ObjUnknown, nil, opaqueType(int(so.Size)), site.caller.ctx, 0)
				obj.Label = ref.set.Str(so.Type) + " made by " + facts.ShortName(fn.String())
				obj.sumType, obj.sumSite = ref.set.Str(so.Type), ref.set.Str(so.Site)
				a.allocs[k] = obj
			}
			a.addLoc(n, obj.start)
		}
	}
	at := func(obj int32, off uint32) nodeID {
		if off == 0 {
			return nodes[obj]
		}
		n := a.newNodes(unsafePointer, nil)
		a.addCons(nodes[obj], offsetCons{dst: n, off: int(off)})
		return n
	}
	for _, e := range s.Edges {
		if inRange(e.From, nodes) && inRange(e.To, nodes) {
			a.addCons(nodes[e.From], storeCons{src: at(e.To, e.ToOff), off: int(e.FromOff), size: 1})
		}
	}
	if site.result >= 0 {
		size := a.size(fn.Signature.Results())
		for _, e := range s.Results {
			if inRange(e.To, nodes) && int(e.FromOff) < size {
				a.copyEdge(at(e.To, e.ToOff), site.result+nodeID(e.FromOff))
			}
		}
	}
}

func inRange(i int32, nodes []nodeID) bool { return i >= 0 && int(i) < len(nodes) }

var unsafePointer = types.Typ[types.UnsafePointer]

// opaqueType returns a struct type of n leaves that may each hold a
// pointer: the layout of an object made in another package, whose type
// the importer may not know.
func opaqueType(n int) types.Type {
	fields := make([]*types.Var, max(n, 1))
	for i := range fields {
		fields[i] = types.NewField(0, nil, fmt.Sprintf("leaf%d", i), unsafePointer, false)
	}
	return types.NewStruct(fields, nil)
}

// DescribeSummary renders a summary for -dump: "summary F: edge; ...".
func DescribeSummary(set *facts.PointerSummaries, s *facts.FuncSummary) string {
	obj := func(i int32) string {
		o := s.Objects[i]
		switch o.Kind {
		case facts.SumParam:
			return fmt.Sprintf("*p%d.%d", o.Param, o.Leaf)
		case facts.SumSub:
			return fmt.Sprintf("*(o%d+%d)", o.Parent, o.Leaf)
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
