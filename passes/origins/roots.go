package origins

import (
	"go/token"
	"go/types"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// findRoots lists the functions of the package where programs begin, in
// source order.
func findRoots(pass *analysis.Pass, ir *buildir.IR, res *Result) []*Root {
	var roots []*Root
	add := func(fn *ssa.Function, kind RootKind) {
		r := &Root{Func: fn, Kind: kind, Origins: res.summaries[fn]}
		if kind == RootTest {
			r.Parallel = CallsParallel(fn)
		}
		roots = append(roots, r)
	}
	if init := ir.Pkg.Func("init"); init != nil {
		add(init, RootInit)
	}
	for _, fn := range ir.SrcFuncs {
		if fn.Parent() != nil || fn.Signature.Recv() != nil {
			continue
		}
		if kind := testRootKind(pass, fn); kind != 0 {
			add(fn, kind)
		} else if fn.Name() == "main" && ir.Pkg.Pkg.Name() == "main" {
			add(fn, RootMain)
		}
	}
	// Library mode: a package main is not imported, so its methods run
	// only where main's goroutines call them.
	if ir.Pkg.Pkg.Name() != "main" {
		methods := concurrentMethods(pass, ir)
		held := enteredHeld(pass, ir, pass.ResultOf[lockset.Analyzer].(*lockset.Result))
		methods = slices.DeleteFunc(methods, func(fn *ssa.Function) bool { return held[fn] })
		for _, fn := range methods {
			add(fn, RootMethod)
		}
		for _, fn := range entryPoints(pass, ir, res) {
			if !slices.Contains(methods, fn) && !held[fn] {
				add(fn, RootEntry)
			}
		}
	}
	return roots
}

// testRootKind classifies TestXxx, BenchmarkXxx and FuzzXxx functions
// declared in _test.go files, as the go test command does.
func testRootKind(pass *analysis.Pass, fn *ssa.Function) RootKind {
	return TestRootKind(pass.Fset, fn)
}

// TestRootKind returns RootTest, RootBenchmark or RootFuzz for a test
// function the go test command runs, and 0 for any other function.
func TestRootKind(fset *token.FileSet, fn *ssa.Function) RootKind {
	if !strings.HasSuffix(fset.Position(fn.Pos()).Filename, "_test.go") {
		return 0
	}
	sig := fn.Signature
	if sig.Params().Len() != 1 || sig.Results().Len() != 0 || sig.TypeParams().Len() != 0 {
		return 0
	}
	param := sig.Params().At(0).Type().String()
	for _, c := range []struct {
		prefix, param string
		kind          RootKind
	}{
		{"Test", "*testing.T", RootTest},
		{"Benchmark", "*testing.B", RootBenchmark},
		{"Fuzz", "*testing.F", RootFuzz},
	} {
		if param == c.param && isTestName(fn.Name(), c.prefix) {
			return c.kind
		}
	}
	return 0
}

// isTestName reports whether name is prefix followed by nothing or by a
// character that is not a lower-case letter, as go test requires.
func isTestName(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLower(r)
}

// entryPoints returns the library's exported functions, and the
// exported methods of its exported types, that may start goroutines:
// any goroutine of an importer may call them, with no test or main of
// the package's own to show it, and what one call does with the
// goroutines it starts and joins is the library's code alone (a Sum
// that adds its items' results up in goroutines it starts). A call that
// starts none is one goroutine's sequential code: it races only with
// other calls, which library mode presumes only where the code shows
// sharing (concurrentMethods).
func entryPoints(pass *analysis.Pass, ir *buildir.IR, res *Result) []*ssa.Function {
	var out []*ssa.Function
	for _, fn := range ir.SrcFuncs {
		if fn.Parent() != nil || fn.Object() == nil || !fn.Object().Exported() || fn.TypeParams().Len() > 0 || res.summaries[fn] == nil {
			continue
		}
		if testRootKind(pass, fn) != 0 || strings.HasSuffix(pass.Fset.Position(fn.Pos()).Filename, "_test.go") {
			continue // the tests' own code runs in the test binary
		}
		if recv := fn.Signature.Recv(); recv != nil {
			t := recv.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if named, ok := t.(*types.Named); !ok || !named.Obj().Exported() || named.TypeParams().Len() > 0 {
				continue
			}
		}
		out = append(out, fn)
	}
	return out
}

// concurrentMethods returns the exported methods of the package's named
// struct types that carry a mutex or an atomic value, or whose
// documentation says they are safe for concurrent use ("Cache is a
// thread-safe implementation of ..."): such a type says it is meant to
// be used from several goroutines at once.
func concurrentMethods(pass *analysis.Pass, ir *buildir.IR) []*ssa.Function {
	atomic := atomicallyUsed(ir)
	documented := syncapi.DocumentedTypes(pass.Files, pass.TypesInfo, 1)
	var out []*ssa.Function
	for _, fn := range ir.SrcFuncs {
		recv := fn.Signature.Recv()
		if recv == nil || fn.Parent() != nil || !fn.Object().Exported() {
			continue
		}
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		// Only exported types: an unexported type's concurrent use is
		// the package's own business, which its goroutines show.
		if named, ok := t.(*types.Named); ok && named.Obj().Exported() && (carriesSync(named, 0) || atomic[named.Obj()] || documented[named.Obj()]) {
			out = append(out, fn)
		}
	}
	return out
}

// atomicallyUsed returns the package's struct types a field of which the
// package's code hands by address to a function of sync/atomic
// (atomic.AddUint32(&rr.counter, 1)): a plain integer used through
// atomics says, as an atomic.Uint32 field does, that the type is meant
// to be used from several goroutines at once.
func atomicallyUsed(ir *buildir.IR) map[*types.TypeName]bool {
	out := make(map[*types.TypeName]bool)
	for _, fn := range ir.SrcFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				callee := call.Call.StaticCallee()
				if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "sync/atomic" || len(call.Call.Args) == 0 {
					continue
				}
				fa, ok := call.Call.Args[0].(*ssa.FieldAddr)
				if !ok {
					continue
				}
				ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
				if !ok {
					continue // a type parameter's pointer
				}
				if named, ok := types.Unalias(ptr.Elem()).(*types.Named); ok && named.Obj().Pkg() == ir.Pkg.Pkg {
					out[named.Obj()] = true
				}
			}
		}
	}
	return out
}

// carriesSync reports whether t is a struct with a field (or an embedded
// struct's field) of a sync or sync/atomic type.
func carriesSync(t types.Type, depth int) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || depth > 3 {
		return false
	}
	for f := range st.Fields() {
		ft := f.Type()
		if syncapi.ConcurrentField(ft) {
			return true
		}
		if f.Embedded() && carriesSync(ft, depth+1) {
			return true
		}
	}
	return false
}
