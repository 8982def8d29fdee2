package buildir

import (
	"go/ast"
	"go/types"
	"reflect"
	"strings"

	"github.com/origo-dev/origo/passes/guard"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/ssa"
)

// Analyzer builds the SSA form of the package, generics instantiated.
var Analyzer = &analysis.Analyzer{
	Name:       "buildir",
	Doc:        "build SSA form with instantiated generics for origo's passes",
	URL:        "https://pkg.go.dev/github.com/origo-dev/origo/passes/buildir",
	Run:        run,
	Requires:   []*analysis.Analyzer{ctrlflow.Analyzer},
	ResultType: reflect.TypeFor[*IR](),
}

// IR is the result of Analyzer.
type IR struct {
	Pkg *ssa.Package
	// SrcFuncs holds the functions declared in the package's files and
	// the function literals inside them, in source order. Generic
	// functions appear once, in their generic form.
	SrcFuncs []*ssa.Function
	// Failed is non-empty when building panicked (a bug in go/ssa or in
	// origo on unusual input): Pkg and SrcFuncs are then empty, and the
	// passes that follow find nothing in this package.
	Failed string
}

// FactsOnly is set by a driver that runs the passes on packages only
// for the facts they export, whose findings it drops: go vet's runs on
// the dependencies of the packages named (see cmd/origo's factsOnly).
// The SSA of a package about which no pass exports facts is then not
// built (see factless), and the passes find nothing in it.
var FactsOnly bool

// factless reports whether no pass exports facts about the package of
// this path, so that a run for facts alone needs no SSA of it: the
// runtime, whose memory and locks effects and lockset leave out
// (syncapi.Internal), whose goroutines origins leaves out (they share
// no memory with user code), and whose calls the pointer summaries
// leave opaque. Its SSA was a quarter of the runtime's vet process,
// which every other package waits for.
func factless(path string) bool { return path == "runtime" }

func run(pass *analysis.Pass) (any, error) {
	ir := new(IR)
	if FactsOnly && factless(pass.Pkg.Path()) {
		return ir, nil
	}
	if msg := guard.Do(pass, "buildir", func() { build(pass, ir) }); msg != "" {
		return &IR{Failed: msg}, nil
	}
	return ir, nil
}

func build(pass *analysis.Pass, ir *IR) {
	cfgs := pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs)

	// The analysis API gives each package its own Program; SSA values
	// are never shared across packages, only facts are.
	prog := ssa.NewProgram(pass.Fset, ssa.InstantiateGenerics)
	prog.SetNoReturn(cfgs.NoReturn)
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	pkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()
	ir.Pkg = pkg

	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		ir.SrcFuncs = append(ir.SrcFuncs, fn)
		for _, anon := range fn.AnonFuncs {
			add(anon)
		}
	}
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			decl, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			obj, ok := pass.TypesInfo.Defs[decl.Name].(*types.Func)
			if !ok {
				continue
			}
			if fn := prog.FuncValue(obj); fn != nil {
				add(fn)
			}
		}
	}
}

// NoImporters reports whether no package can import pkg: a command
// (package main) or an external test package (path ending in "_test").
// The facts that passes export for importers are then work for no one.
func NoImporters(pkg *types.Package) bool {
	return pkg.Name() == "main" || strings.HasSuffix(pkg.Path(), "_test")
}

// Importable reports whether another package can call fn by name, and
// so see a fact about it: an exported function, or a method with an
// exported name of a type that is not generic.
func Importable(fn *ssa.Function) bool {
	if fn.Parent() != nil || len(fn.Blocks) == 0 || fn.TypeParams().Len() > 0 || fn.TypeArgs() != nil {
		return false
	}
	if fn.Pkg == nil || NoImporters(fn.Pkg.Pkg) {
		return false
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || !obj.Exported() {
		return false
	}
	if recv := fn.Signature.Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if named, ok := t.(*types.Named); !ok || named.TypeParams().Len() > 0 {
			return false
		}
	}
	return true
}

// ImportedCallee returns the function of another package that call
// statically calls, by the name facts give it: a function without a
// body here, not an instantiation (facts name the generic function).
func ImportedCallee(call *ssa.CallCommon) (*ssa.Function, bool) {
	fn := call.StaticCallee()
	if fn == nil || call.IsInvoke() || !Imported(fn) {
		return nil, false
	}
	return fn, true
}

// Imported reports whether fn is a function of another package as facts
// name it (the other side of Importable): no body here, and not an
// instantiation.
func Imported(fn *ssa.Function) bool { return len(fn.Blocks) == 0 && fn.Origin() == nil }
