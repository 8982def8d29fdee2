package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/origo-dev/origo/analyzers/directive"
	"github.com/origo-dev/origo/cmd/origo/internal/factdump"
	"golang.org/x/tools/go/analysis"
)

// TestIgnoreNames checks that the names a directive may give are the
// analyzers of the suite that report findings: each one's directive is
// well-formed, and an unknown name's message lists exactly them.
func TestIgnoreNames(t *testing.T) {
	var names []string
	for _, a := range suite {
		if a != factdump.Analyzer && a != directive.Analyzer {
			names = append(names, a.Name)
		}
	}
	slices.Sort(names)
	src := "package p\n\n"
	for _, name := range names {
		src += "//origo:ignore " + name + " well-formed\n"
	}
	src += "//origo:ignore zzz unknown\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	pass := &analysis.Pass{
		Analyzer: directive.Analyzer,
		Fset:     fset,
		Files:    []*ast.File{f},
		Report:   func(d analysis.Diagnostic) { got = append(got, fset.Position(d.Pos).String()+": "+d.Message) },
	}
	if _, err := directive.Analyzer.Run(pass); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`p.go:%d:1: bad //origo:ignore directive: origo has no analyzer "zzz" (the analyzers are %s), so it silences nothing; write //origo:ignore NAME unknown`,
		len(names)+3, strings.Join(names, ", "))
	if len(got) != 1 || got[0] != want {
		t.Errorf("directive reports:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

// TestDirectives runs both drivers on a race silenced by a directive,
// one silenced from the line above, and one whose directive has a space
// after the slashes: the last race is reported, and its directive once
// (not once per analyzer), the same under both.
func TestDirectives(t *testing.T) {
	functional(t)
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod": "module example.com/directives\n\ngo 1.26\n",
		"p/p.go": `package main

var a, b, c int

func main() {
	go func() { a = 1 }() //origo:ignore race the test checks that this silences
	a = 2
	//origo:ignore race the test checks that this silences the line under it
	go func() { b = 1 }()
	b = 2
	go func() { c = 1 }() // origo:ignore race a space after the slashes
	c = 2
}
`,
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		`p/p.go:11:14: data race on c: write at p.go:11 (goroutine started at p.go:11) vs write at p.go:12 (main goroutine); locks held: {} vs {}`,
		`p/p.go:11:24: bad //origo:ignore directive: "// origo:ignore" has a space after //, so it is an ordinary comment and silences nothing; write //origo:ignore race a space after the slashes`,
	}
	stdout, stderr, code := run(t, dir, "-json", "./p")
	if code != exitClean {
		t.Errorf("standalone -json: exit %d, want %d\n%s", code, exitClean, stderr)
	}
	vetOut, vetErr, _ := runCmd(t, exec.Command("go", "vet", "-vettool="+origoBin, "-json", "./p"), dir)
	for name, got := range map[string][]string{
		"standalone": findings(t, dir, stdout),
		"go vet":     findings(t, dir, vetOut+vetErr),
	} {
		if !slices.Equal(got, want) {
			t.Errorf("%s reports:\n%s\nwant:\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
