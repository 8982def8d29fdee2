package rules

import (
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeclaredOnce checks that each rule is declared once, with a
// statement, and that its manual section exists in the documentation
// of its package (an analyzer's manual, or the pass that decides it).
func TestDeclaredOnce(t *testing.T) {
	seen := make(map[ID]bool)
	docs := make(map[string]string)
	for _, r := range All {
		if seen[r.ID] {
			t.Errorf("rule %s declared twice", r.ID)
		}
		seen[r.ID] = true
		if r.Statement == "" || r.Section == "" || r.Doc == "" {
			t.Errorf("rule %s: statement, section and doc are required", r.ID)
			continue
		}
		doc, ok := docs[r.Doc]
		if !ok {
			b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(r.Doc), "doc.go"))
			if err != nil {
				t.Fatal(err)
			}
			doc = string(b)
			docs[r.Doc] = doc
		}
		if !strings.Contains(doc, "// # "+r.Section) && !strings.Contains(doc, "// "+r.Section+".") {
			t.Errorf("rule %s: section %q not in %s/doc.go", r.ID, r.Section, r.Doc)
		}
		if got, ok := Lookup(r.ID); !ok || got.ID != r.ID {
			t.Errorf("Lookup(%s) = %v, %v", r.ID, got, ok)
		}
	}
	if _, ok := Lookup("no such rule"); ok {
		t.Error("Lookup found an undeclared rule")
	}
}

func TestTarget(t *testing.T) {
	fset := token.NewFileSet()
	f := fset.AddFile("/src/cmd/x/main.go", -1, 100)
	f.SetLines([]int{0, 10, 20, 30})
	pos := f.Pos(25) // line 3
	for _, tc := range []struct {
		target string
		match  bool
	}{
		{"main.go:3", true}, {"x/main.go:3", true}, {"/src/cmd/x/main.go:3", true},
		{"main.go:2", false}, {"ain.go:3", false}, {"all", true},
	} {
		tg, err := ParseTarget(tc.target)
		if err != nil {
			t.Fatal(err)
		}
		if got := tg.Matches(fset, pos); got != tc.match {
			t.Errorf("ParseTarget(%q).Matches = %v, want %v", tc.target, got, tc.match)
		}
	}
	for _, bad := range []string{"main.go", "main.go:0", "main.go:x", ":3"} {
		if _, err := ParseTarget(bad); err == nil {
			t.Errorf("ParseTarget(%q) gave no error", bad)
		}
	}
}

func TestTargetFlag(t *testing.T) {
	var v string
	f := TargetFlag{Value: &v}
	if err := f.Set("main.go:3"); err != nil || v != "main.go:3" || f.String() != "main.go:3" {
		t.Errorf("Set(main.go:3): %v, value %q", err, v)
	}
	if err := f.Set("main.go"); err == nil || v != "main.go:3" {
		t.Errorf("Set(main.go): %v, value %q; want an error and the value kept", err, v)
	}
	if err := f.Set(""); err != nil || v != "" {
		t.Errorf("Set(\"\"): %v, value %q", err, v)
	}
}
