package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeclaredOnce checks that each rule is declared once, with a
// statement, and that its manual section exists in its analyzer's
// documentation.
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
			b, err := os.ReadFile(filepath.Join("..", "..", "analyzers", r.Doc, "doc.go"))
			if err != nil {
				t.Fatal(err)
			}
			doc = string(b)
			docs[r.Doc] = doc
		}
		if !strings.Contains(doc, "// # "+r.Section) && !strings.Contains(doc, "// "+r.Section+".") {
			t.Errorf("rule %s: section %q not in analyzers/%s/doc.go", r.ID, r.Section, r.Doc)
		}
		if got, ok := Lookup(r.ID); !ok || got.ID != r.ID {
			t.Errorf("Lookup(%s) = %v, %v", r.ID, got, ok)
		}
	}
	if _, ok := Lookup("no such rule"); ok {
		t.Error("Lookup found an undeclared rule")
	}
}
