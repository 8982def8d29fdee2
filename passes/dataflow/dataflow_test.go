package dataflow_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"

	"github.com/origo-dev/origo/passes/dataflow"
	"github.com/origo-dev/origo/passes/internal/loops"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

const src = `package p

func g(int)

func f(c bool, n int) {
	g(1)
	if c {
		g(2)
	} else {
		g(3)
	}
	for i := 0; i < n; i++ {
		g(4)
	}
	g(5)
}
`

// TestForwardMust solves a must problem: the arguments of the calls of g
// made on every path from the entry, a set that meets by intersection.
func TestForwardMust(t *testing.T) {
	fn := build(t)
	atReturn := map[int][]int64{} // by block index of each return
	p := dataflow.Forward[[]int64]{
		Order: loops.ReversePostorder(fn),
		Round: func() { clear(atReturn) },
		Transfer: func(b *ssa.BasicBlock, in []int64) []int64 {
			out := slices.Clone(in)
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.Call:
					if c, ok := instr.Call.Args[0].(*ssa.Const); ok {
						out = append(out, c.Int64())
					}
				case *ssa.Return:
					atReturn[b.Index] = out
				}
			}
			return out
		},
		Meet: func(x, y []int64) []int64 {
			var out []int64
			for _, v := range x {
				if slices.Contains(y, v) {
					out = append(out, v)
				}
			}
			return out
		},
		Equal: slices.Equal[[]int64],
	}
	in := p.Solve(fn)
	if len(in) != len(fn.Blocks) {
		t.Fatalf("Solve returned %d states for %d blocks", len(in), len(fn.Blocks))
	}
	if len(atReturn) != 1 {
		t.Fatalf("returns seen in the last round: %v", atReturn)
	}
	for _, got := range atReturn {
		// 2 and 3 are on one branch each, 4 in a loop that may not run.
		if want := []int64{1, 5}; !slices.Equal(got, want) {
			t.Errorf("calls on every path to the return: %v, want %v", got, want)
		}
	}
}

func build(t *testing.T) *ssa.Function { return buildPackage(t, src).Func("f") }

// buildPackage builds package p of source text in SSA form.
func buildPackage(t *testing.T, text string) *ssa.Package {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", text, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset, types.NewPackage("p", ""), []*ast.File{f}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

// TestRangeUnevaluated checks which loads of an array are the range
// expression the spec leaves unevaluated: the index-only range over an
// array field and over an array variable, and not a range that copies
// the elements or a blank assignment.
func TestRangeUnevaluated(t *testing.T) {
	const src = `package p

type s struct{ segs [4]int }

var arr [4]int

func indexOnly(x *s) (n int) {
	for i := range x.segs {
		n += i
	}
	for range arr {
		n++
	}
	return n
}

func values(x *s) (n int) {
	for _, v := range x.segs {
		n += v
	}
	_ = arr
	return n
}
`
	pkg := buildPackage(t, src)
	count := func(name string) (loads, unevaluated int) {
		for _, b := range pkg.Func(name).Blocks {
			for _, instr := range b.Instrs {
				if u, ok := instr.(*ssa.UnOp); ok && u.Op == token.MUL {
					if _, isArray := u.Type().Underlying().(*types.Array); isArray {
						loads++
						if dataflow.RangeUnevaluated(u) {
							unevaluated++
						}
					}
				}
			}
		}
		return loads, unevaluated
	}
	if loads, n := count("indexOnly"); loads != 2 || n != 2 {
		t.Errorf("indexOnly: %d array loads, %d unevaluated; want 2 and 2", loads, n)
	}
	if loads, n := count("values"); loads == 0 || n != 0 {
		t.Errorf("values: %d array loads, %d unevaluated; want some and 0", loads, n)
	}
}
