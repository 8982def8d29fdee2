package loops_test

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"

	"github.com/origo-dev/origo/passes/internal/loops"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

const src = `package p

func f(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			s += j
		}
	}
	for k := 0; k < n; k++ {
		s--
	}
	return s
}

func once() (s int) {
	n := 1
	for i := 0; i < n; i++ {
		s++
	}
	for i := 1; i <= 1; i++ {
		s++
	}
	for i := range 1 {
		s += i
	}
	for i := 0; 2 > i; i++ {
		s--
	}
	return s
}
`

func TestComponents(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset,
		types.NewPackage("p", "p"), []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	fn := pkg.Func("f")
	comp := loops.Components(fn)
	// Two loops: the nested pair is one component, the second loop another.
	var ids []int
	for _, c := range comp {
		if c >= 0 && !slices.Contains(ids, c) {
			ids = append(ids, c)
		}
	}
	if len(ids) != 2 {
		t.Errorf("found %d loops, want 2: %v", len(ids), comp)
	}
	if comp[0] != -1 {
		t.Errorf("entry block is in a loop")
	}
	in := loops.Blocks(fn)
	for i := range comp {
		if in[i] != (comp[i] >= 0) {
			t.Errorf("Blocks and Components disagree at block %d", i)
		}
	}
	// Loops whose body runs at most once are none; the last runs twice.
	ids = nil
	for _, c := range loops.Components(pkg.Func("once")) {
		if c >= 0 && !slices.Contains(ids, c) {
			ids = append(ids, c)
		}
	}
	if len(ids) != 1 {
		var b bytes.Buffer
		ssa.WriteFunction(&b, pkg.Func("once"))
		t.Errorf("found %d loops in once, want 1 (the one that runs twice):\n%s", len(ids), b.String())
	}
}

const nested = `package p

func spawn() {}
func wait()  {}
func after() {}

func g(n int) {
	for try := 0; try < 3; try++ {
		for p := 0; p < n; p++ {
			spawn()
		}
		wait()
	}
	after()
}
`

// TestOrderNested checks that a loop nested in another comes before the
// blocks after it in the outer loop's body, as a loop comes before the
// blocks after it in the function: reverse postorder may put the inner
// loop's exit (the wait) before its body (the spawn).
func TestOrderNested(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", nested, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset,
		types.NewPackage("p", "p"), []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	fn := pkg.Func("g")
	order := loops.Order(fn)
	if len(order) != len(fn.Blocks) {
		t.Fatalf("Order gives %d blocks, want %d", len(order), len(fn.Blocks))
	}
	at := make(map[string]int)
	for i, b := range order {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok {
				if callee := call.Call.StaticCallee(); callee != nil {
					at[callee.Name()] = i
				}
			}
		}
	}
	if !(at["spawn"] < at["wait"] && at["wait"] < at["after"]) {
		t.Errorf("Order puts spawn at %d, wait at %d, after at %d; want them in that order", at["spawn"], at["wait"], at["after"])
	}
}
