package edits_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"

	"github.com/origo-dev/origo/analyzers/internal/edits"
	"golang.org/x/tools/go/analysis"
)

const src = `package p

func f(x bool) int {
	a := 1 // one
	if x { return 0 }
	b := 2
	return a + b
}
`

// open parses src and opens its file at the statement whose text begins
// with prefix, returning the statement too.
func open(t *testing.T, src, prefix string) (*edits.File, *token.File, ast.Stmt) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	pass := &analysis.Pass{Fset: fset, Files: []*ast.File{f}, ReadFile: func(string) ([]byte, error) { return []byte(src), nil }}
	var stmt ast.Stmt
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(ast.Stmt); ok && stmt == nil && strings.HasPrefix(src[fset.Position(s.Pos()).Offset:], prefix) {
			if _, block := s.(*ast.BlockStmt); !block {
				stmt = s
			}
		}
		return stmt == nil
	})
	if stmt == nil {
		t.Fatalf("no statement %q", prefix)
	}
	file, ok := edits.Open(pass, stmt.Pos())
	if !ok {
		t.Fatal("Open failed")
	}
	return file, fset.File(stmt.Pos()), stmt
}

func apply(tf *token.File, src string, es ...analysis.TextEdit) string {
	slices.SortFunc(es, func(a, b analysis.TextEdit) int { return int(b.Pos - a.Pos) })
	for _, e := range es {
		src = src[:tf.Offset(e.Pos)] + string(e.NewText) + src[tf.Offset(e.End):]
	}
	return src
}

func TestInsertBefore(t *testing.T) {
	f, tf, stmt := open(t, src, "b := 2")
	got := apply(tf, src, f.InsertBefore(stmt.Pos(), "c()"))
	if want := strings.Replace(src, "\tb := 2", "\tc()\n\tb := 2", 1); got != want {
		t.Errorf("on its own line: got\n%s\nwant\n%s", got, want)
	}
	got = apply(tf, src, f.InsertBefore(stmt.Pos(), "c()\nd()"))
	if want := strings.Replace(src, "\tb := 2", "\tc()\n\td()\n\tb := 2", 1); got != want {
		t.Errorf("two statements on their own lines: got\n%s\nwant\n%s", got, want)
	}
	f, tf, stmt = open(t, src, "return 0")
	got = apply(tf, src, f.InsertBefore(stmt.Pos(), "c()"))
	if want := strings.Replace(src, "{ return 0 }", "{ c(); return 0 }", 1); got != want {
		t.Errorf("after other text: got\n%s\nwant\n%s", got, want)
	}
	got = apply(tf, src, f.InsertBefore(stmt.Pos(), "c()\nd()"))
	if want := strings.Replace(src, "{ return 0 }", "{ c(); d(); return 0 }", 1); got != want {
		t.Errorf("two after other text: got\n%s\nwant\n%s", got, want)
	}
}

func TestInsertAtEnd(t *testing.T) {
	f, tf, stmt := open(t, src, "a := 1")
	body := f.Path(stmt.Pos(), stmt.End())[1].(*ast.BlockStmt)
	got := apply(tf, src, f.InsertAtEnd(body, "c()"))
	if want := strings.Replace(src, "a + b\n}", "a + b\n\tc()\n}", 1); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDelete(t *testing.T) {
	f, tf, stmt := open(t, src, "b := 2")
	got := apply(tf, src, f.Delete(stmt))
	if want := strings.Replace(src, "\tb := 2\n", "", 1); got != want {
		t.Errorf("alone on its line: got\n%s\nwant\n%s", got, want)
	}
	f, tf, stmt = open(t, src, "a := 1")
	got = apply(tf, src, f.Delete(stmt))
	if want := strings.Replace(src, "a := 1 // one", " // one", 1); got != want {
		t.Errorf("with a comment: got\n%s\nwant\n%s", got, want)
	}
	const oneLine = "package p\n\nfunc f() {\n\tgo func() { a(); b() }()\n}\n"
	f2, tf2, stmt2 := open(t, oneLine, "a()")
	if got, want := apply(tf2, oneLine, f2.Delete(stmt2)), strings.Replace(oneLine, "a(); ", "", 1); got != want {
		t.Errorf("before a semicolon: got\n%s\nwant\n%s", got, want)
	}
	if text := f.Text(stmt); text != "a := 1" {
		t.Errorf("Text = %q, want %q", text, "a := 1")
	}
}
