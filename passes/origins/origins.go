package origins

import (
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/guard"
	"github.com/origo-dev/origo/passes/internal/loops"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Analyzer computes goroutine origins and exports them as facts.
var Analyzer = &analysis.Analyzer{
	Name:       "origins",
	Doc:        "find the goroutines each function may start, closed over callees",
	URL:        "https://pkg.go.dev/github.com/origo-dev/origo/passes/origins",
	Run:        run,
	Requires:   []*analysis.Analyzer{buildir.Analyzer, lockset.Analyzer},
	FactTypes:  []analysis.Fact{new(facts.OriginsTable)},
	ResultType: reflect.TypeFor[*Result](),
}

// Result is the result of Analyzer.
type Result struct {
	// Roots are the places where programs begin in this package.
	Roots []*Root
	// Unresolved counts calls into packages outside the direct imports
	// that carried no summary: under "go vet" their facts may be
	// invisible, so these calls may hide origins.
	Unresolved int

	// Exported lists the summaries exported for this package's
	// functions (the package's facts.OriginsTable), in source order.
	Exported []Exported

	summaries map[*ssa.Function]*facts.Origins
}

// Exported is the exported summary of one function.
type Exported struct {
	Func *types.Func
	Fact *facts.Origins
}

// Of returns the closed origins summary of fn, or nil if a call of fn
// starts no goroutine that the pass can see.
func (r *Result) Of(fn *ssa.Function) *facts.Origins { return r.summaries[fn] }

// RootKind says why a function is a root.
type RootKind uint8

// The kinds of roots.
const (
	RootMain      RootKind = iota + 1 // main.main
	RootInit                          // the package initializer
	RootTest                          // TestXxx(*testing.T)
	RootBenchmark                     // BenchmarkXxx(*testing.B)
	RootFuzz                          // FuzzXxx(*testing.F)
	RootMethod                        // exported method of a type meant for concurrent use
	RootEntry                         // exported function or method of a library that starts goroutines
)

func (k RootKind) String() string {
	return [...]string{"?", "main", "init", "test", "benchmark", "fuzz", "concurrent method", "entry point"}[k]
}

// Root is a function where a program, or a concurrent entry into a
// library, begins.
type Root struct {
	Func *ssa.Function
	Kind RootKind
	// Parallel is set for a test that calls t.Parallel: it runs
	// concurrently with the other parallel tests of its package.
	Parallel bool
	Origins  *facts.Origins // closed summary; nil if it starts none
}

func run(pass *analysis.Pass) (any, error) {
	ir := pass.ResultOf[buildir.Analyzer].(*buildir.IR)
	res := &Result{summaries: make(map[*ssa.Function]*facts.Origins)}
	if ir.Pkg == nil || !mayStartUserGoroutines(pass.Pkg) {
		return res, nil
	}
	if msg := guard.Do(pass, "origins", func() { analyze(pass, ir, res) }); msg != "" {
		return &Result{summaries: make(map[*ssa.Function]*facts.Origins)}, nil
	}
	return res, nil
}

func analyze(pass *analysis.Pass, ir *buildir.IR, res *Result) {
	a := &state{pass: pass, res: res, info: make(map[*ssa.Function]*funcInfo), tables: make(map[*types.Package]*facts.OriginsTable), importedSites: make(map[*facts.Origins][]siteID)}
	for _, fn := range ir.SrcFuncs {
		guard.At(pass, fn.String())
		a.visit(fn)
	}
	guard.At(pass, "")
	a.solve()
	a.export()
	res.Roots = findRoots(pass, ir, res)
}

// mayStartUserGoroutines reports whether the go statements of pkg start
// goroutines that user code can observe. The runtime's own workers (GC,
// finalizers, tracing) share no memory with user code, and the synthesized
// testmain package of "go test" is never vetted and starts only what the
// testing package does.
func mayStartUserGoroutines(pkg *types.Package) bool {
	path := pkg.Path()
	return path != "runtime" && !strings.HasPrefix(path, "runtime/") &&
		!strings.HasPrefix(path, "internal/") &&
		!(pkg.Name() == "main" && strings.HasSuffix(path, ".test"))
}

// state holds one run of the pass over a package.
type state struct {
	pass   *analysis.Pass
	res    *Result
	funcs  []*ssa.Function // every function with a body, in discovery order
	info   map[*ssa.Function]*funcInfo
	tables map[*types.Package]*facts.OriginsTable // the imports' facts, read once
	sites  sites                                  // every site's key, by its ID
	// importedSites holds the IDs of the sites of imported facts, in
	// their order.
	importedSites map[*facts.Origins][]siteID
}

// funcInfo is what one function's body says about origins, before
// closing over callees.
type funcInfo struct {
	spawns []spawnSite
	calls  []callEdge
	sum    summary // closed summary, filled by solve
}

// spawnSite is a place in the function's body that starts a goroutine.
type spawnSite struct {
	key    siteID
	flags  facts.SiteFlags
	target *ssa.Function // nil if unknown
}

// callEdge is a call that runs in the caller's goroutine.
type callEdge struct {
	callee   *ssa.Function // has a body in this package, or nil
	imported *facts.Origins
	multiple bool // the call may happen more than once per call of the caller
}

// visit records fn and, transitively, the functions with bodies that it
// calls or starts.
func (a *state) visit(fn *ssa.Function) *funcInfo {
	if fi, ok := a.info[fn]; ok {
		return fi
	}
	fi := new(funcInfo)
	a.info[fn] = fi
	a.funcs = append(a.funcs, fn)
	a.scan(fn, fi)
	return fi
}

func (a *state) scan(fn *ssa.Function, fi *funcInfo) {
	inLoop := loops.Blocks(fn)
	allMulti := fn.Synthetic == "range-over-func yield"
	for _, b := range fn.Blocks {
		multi := allMulti || inLoop[b.Index]
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Go:
				a.goStmt(fi, instr, multi)
			case ssa.CallInstruction: // *ssa.Call, *ssa.Defer
				a.call(fi, instr.Common(), instr.Pos(), multi)
			}
		}
	}
}

func (a *state) goStmt(fi *funcInfo, g *ssa.Go, multi bool) {
	var target *ssa.Function
	if !g.Call.IsInvoke() {
		target = g.Call.StaticCallee()
	}
	a.addSpawn(fi, facts.SpawnGo, g.Pos(), target, flagIf(multi, facts.Multiple))
	// Function values passed to the goroutine may be called by it.
	a.callbacks(fi, g.Call.Args, true)
}

func (a *state) call(fi *funcInfo, call *ssa.CallCommon, pos token.Pos, multi bool) {
	if call.IsInvoke() {
		a.callbacks(fi, call.Args, true)
		return
	}
	callee := call.StaticCallee()
	if callee == nil {
		a.callbacks(fi, call.Args, true)
		return
	}
	if a.spawnCall(fi, callee, call, pos, multi) {
		return
	}
	a.addCall(fi, callee, multi)
	if _, _, once := syncapi.OnceDo(call); !once {
		// A callback may be called any number of times.
		a.callbacks(fi, call.Args, true)
	} else {
		a.callbacks(fi, call.Args, multi)
	}
}

// callbacks treats function values passed as arguments as called by the
// caller: the callee may call them. Without the pointer analysis this is
// the sound choice for origins.
func (a *state) callbacks(fi *funcInfo, args []ssa.Value, multi bool) {
	for _, arg := range args {
		if fn := FuncOf(arg); fn != nil {
			a.addCall(fi, fn, multi)
		}
	}
}

func (a *state) addCall(fi *funcInfo, callee *ssa.Function, multi bool) {
	if len(callee.Blocks) > 0 {
		a.visit(callee)
		fi.calls = append(fi.calls, callEdge{callee: callee, multiple: multi})
		return
	}
	if o := a.importedFact(callee); o != nil {
		fi.calls = append(fi.calls, callEdge{imported: o, multiple: multi})
	}
}

func (a *state) addSpawn(fi *funcInfo, kind facts.SpawnKind, pos token.Pos, target *ssa.Function, flags facts.SiteFlags) {
	p := a.pass.Fset.Position(pos)
	key := siteKey{kind: kind, file: p.Filename, line: p.Line, col: p.Column}
	if target != nil {
		key.target = entryName(target)
		if len(target.Blocks) > 0 {
			a.visit(target)
		}
	}
	fi.spawns = append(fi.spawns, spawnSite{key: a.sites.id(key), flags: flags, target: target})
}

// importedFact returns the origins summary of a function without a body
// here: declared in another package, or an instance of a generic
// function declared elsewhere.
func (a *state) importedFact(fn *ssa.Function) *facts.Origins {
	obj := funcObject(fn)
	if obj == nil || obj.Pkg() == nil || obj.Pkg() == a.pass.Pkg {
		return nil
	}
	o := a.lookup(obj)
	if o == nil || !o.Valid() {
		// Most functions have no summary because they start nothing;
		// only outside the direct imports can one also be invisible.
		if !isDirectImport(a.pass.Pkg, obj.Pkg()) {
			a.res.Unresolved++
		}
		return nil
	}
	return o
}

// lookup returns the summary of obj, a function of another package:
// from its package's table when that is a direct import, else, for a
// method of an indirect import's type (called on a value a direct
// import hands over), from a direct import's table, which carries the
// methods of its own imports' tables on.
func (a *state) lookup(obj *types.Func) *facts.Origins {
	if isDirectImport(a.pass.Pkg, obj.Pkg()) {
		return a.table(obj.Pkg()).Lookup(obj.FullName())
	}
	if sig, ok := obj.Type().(*types.Signature); !ok || sig.Recv() == nil {
		return nil
	}
	for _, imp := range a.pass.Pkg.Imports() {
		if o := a.table(imp).Lookup(obj.FullName()); o != nil {
			return o
		}
	}
	return nil
}

// table returns the origins table of package pkg, an import, read once.
func (a *state) table(pkg *types.Package) *facts.OriginsTable {
	if t, ok := a.tables[pkg]; ok {
		return t
	}
	t := new(facts.OriginsTable)
	if !a.pass.ImportPackageFact(pkg, t) || !t.Valid() {
		t = &facts.OriginsTable{}
	}
	a.tables[pkg] = t
	return t
}

func isDirectImport(pkg, dep *types.Package) bool {
	for _, imp := range pkg.Imports() {
		if imp == dep {
			return true
		}
	}
	return false
}

// funcObject returns the declared function or method of fn, through
// instantiation and wrappers, or nil for function literals.
func funcObject(fn *ssa.Function) *types.Func {
	obj, _ := fn.Object().(*types.Func)
	if obj == nil {
		return nil
	}
	return obj.Origin()
}

// entryName names a goroutine entry: wrappers are named after the method
// they wrap.
func entryName(fn *ssa.Function) string {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	name := fn.String()
	name = strings.TrimSuffix(name, "$bound")
	name = strings.TrimSuffix(name, "$thunk")
	return name
}

// FuncOf returns the function that a function value denotes, if SSA
// shows it directly.
func FuncOf(v ssa.Value) *ssa.Function {
	switch v := v.(type) {
	case *ssa.Function:
		return v
	case *ssa.MakeClosure:
		fn, _ := v.Fn.(*ssa.Function)
		return fn
	case *ssa.ChangeType: // http.HandlerFunc(f)
		return FuncOf(v.X)
	case *ssa.MakeInterface: // f.Fuzz(func(...){...})
		if _, ok := v.X.Type().Underlying().(*types.Signature); ok {
			return FuncOf(v.X)
		}
	}
	return nil
}

func flagIf(cond bool, f facts.SiteFlags) facts.SiteFlags {
	if cond {
		return f
	}
	return 0
}
