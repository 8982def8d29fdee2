package docs

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const src = `// Package p is what godoc shows first.
//
// # Analyzer one
//
// one: report the first thing
//
// One finds things:
//
//	x := 1
//
// # What stays silent
//
// Nothing else.
//
// # Analyzer two
//
// two: report the second thing
package p
`

func TestExtract(t *testing.T) {
	got, err := Extract(src, "one")
	if err != nil {
		t.Fatal(err)
	}
	want := "report the first thing\n\nOne finds things:\n\n\tx := 1\n\n# What stays silent\n\nNothing else.\n"
	if got != want {
		t.Errorf("Extract(one) = %q, want %q", got, want)
	}
	if got, err := Extract(src, "two"); err != nil || got != "report the second thing" {
		t.Errorf("Extract(two) = %q, %v", got, err)
	}
	for name, wantErr := range map[string]string{
		"three": `no "# Analyzer three" heading`,
		"on":    `no "# Analyzer on" heading`,
	} {
		if _, err := Extract(src, name); err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("Extract(%s): error %v, want %q", name, err, wantErr)
		}
	}
	if _, err := Extract(strings.Replace(src, "one: report", "report", 1), "one"); err == nil {
		t.Error("Extract accepted a section without its title line")
	}
	if _, err := Extract("package p\n", "one"); err == nil {
		t.Error("Extract accepted a file without a package comment")
	}
}

// TestLineComment checks that the package comment found without the
// parser is the parser's, on the analyzers' manuals and on shapes the
// shortcut leaves to the parser.
func TestLineComment(t *testing.T) {
	manuals, err := filepath.Glob("../../*/doc.go")
	if err != nil || len(manuals) == 0 {
		t.Fatalf("no manuals: %v", err)
	}
	srcs := map[string]string{"fixture": src}
	for _, name := range manuals {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		srcs[name] = string(data)
	}
	for name, s := range map[string]string{
		"header":      "// Copyright\n\n// Package p does.\n//go:build x\npackage p\n",
		"detached":    "// Package p does.\n\npackage p\n",
		"block":       "/* Package p does. */\npackage p\n",
		"indented":    "// Package p\n  // does.\npackage p\n",
		"crlf":        "// Package p does.\r\n// More.\r\npackage p\r\n",
		"none":        "package p\n",
		"trailing":    "// Package p does.   \n//\n//\n// More.\npackage p // p\n",
		"no clause":   "// Package p does.\n",
		"clause last": "// Package p does.\npackage p",
	} {
		srcs[name] = s
	}
	for name, s := range srcs {
		var want string
		f, err := parser.ParseFile(token.NewFileSet(), "doc.go", s, parser.ParseComments|parser.PackageClauseOnly)
		if err == nil && f.Doc != nil {
			want = f.Doc.Text()
		}
		doc, ok := lineComment(s)
		if !ok {
			if strings.HasSuffix(name, "doc.go") || name == "fixture" {
				t.Errorf("%s: the shortcut does not take a manual", name)
			}
			continue
		}
		if got := doc.Text(); got != want || err != nil {
			t.Errorf("%s: shortcut gives %q, parser %q (%v)", name, got, want, err)
		}
	}
}
