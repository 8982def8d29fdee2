package ignore

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		text    string
		names   []string
		problem string
	}{
		{text: "//origo:ignore race the workers own it", names: []string{"race"}},
		{text: "//origo:ignore race,deadlock\tboth are known", names: []string{"race", "deadlock"}},
		{text: "//origo:ignore blocking // want `x`", names: []string{"blocking"}},

		{text: "// ordinary comment"},
		{text: "// origo: this is prose"},
		{text: "// origin: where it started"},
		{text: "//\t//origo:ignore race quoted in a doc comment"},
		{text: `// "//origo:ignore race <reason>" on either access`},
		{text: "// note //origo:ignore race the counter is approximate"}, // after other text: part of the comment
		{text: "/* origo:foo */"},

		{text: "//origo:ignore", problem: `bad //origo:ignore directive: it names no analyzer and gives no reason, so it silences nothing; write //origo:ignore NAME reason (NAME: blocking, deadlock, guardedby, race)`},
		{text: "//origo:ignore   ", problem: `bad //origo:ignore directive: it names no analyzer and gives no reason, so it silences nothing; write //origo:ignore NAME reason (NAME: blocking, deadlock, guardedby, race)`},
		{text: "//origo:ignore race", problem: `bad //origo:ignore directive: it gives no reason after race, so it silences nothing; write //origo:ignore race reason`},
		{text: "//origo:ignore rase the workers own it", problem: `bad //origo:ignore directive: origo has no analyzer "rase" (did you mean race?), so it silences nothing; write //origo:ignore race the workers own it`},
		{text: "//origo:ignore race,deadlok x", problem: `bad //origo:ignore directive: origo has no analyzer "deadlok" (did you mean deadlock?), so it silences nothing; write //origo:ignore race,deadlock x`},
		{text: "//origo:ignore vet x", problem: `bad //origo:ignore directive: origo has no analyzer "vet" (the analyzers are blocking, deadlock, guardedby, race), so it silences nothing; write //origo:ignore NAME x`},
		{text: "//origo:ignore unused", problem: `bad //origo:ignore directive: origo has no analyzer "unused" (the analyzers are blocking, deadlock, guardedby, race), so it silences nothing; write //origo:ignore NAME reason`},
		{text: "// origo:ignore race x", problem: `bad //origo:ignore directive: "// origo:ignore" has a space after //, so it is an ordinary comment and silences nothing; write //origo:ignore race x`},
		{text: "//  origo:ignore rase", problem: `bad //origo:ignore directive: "//  origo:ignore" has a space after //, so it is an ordinary comment and silences nothing; write //origo:ignore race reason`},
		{text: "//origo:ingore race x", problem: `bad //origo:ignore directive: "//origo:ingore" is misspelled and silences nothing; write //origo:ignore race x`},
		{text: "//orgio:ignore race x", problem: `bad //origo:ignore directive: "//orgio:ignore" is misspelled and silences nothing; write //origo:ignore race x`},
		{text: "//origo-ignore race x", problem: `bad //origo:ignore directive: "//origo-ignore" is misspelled and silences nothing; write //origo:ignore race x`},
		{text: "//Origo:Ignore race x", problem: `bad //origo:ignore directive: "//Origo:Ignore" is misspelled and silences nothing; write //origo:ignore race x`},
		{text: "//origo:ignore-race x", problem: `bad //origo:ignore directive: "//origo:ignore-race" is misspelled and silences nothing; write //origo:ignore race x`},
		{text: "// origo:ingore race x", problem: `bad //origo:ignore directive: "// origo:ingore" has a space after // and is misspelled, so it is an ordinary comment and silences nothing; write //origo:ignore race x`},
		{text: "/*origo:ignore race x*/", problem: `bad //origo:ignore directive: "/*origo:ignore" is a /* */ comment, which silences nothing; write //origo:ignore race x`},
		{text: "//origo:silence race x", problem: `unknown origo directive "//origo:silence": the only one is //origo:ignore NAME reason`},
	} {
		names, problem := Parse(tc.text)
		if !slices.Equal(names, tc.names) || problem != tc.problem {
			t.Errorf("Parse(%q) = %q, %q\nwant %q, %q", tc.text, names, problem, tc.names, tc.problem)
		}
	}
}

// TestFind checks the lines a directive silences: its own at the end of
// code, the one under its block of comments when alone on its line.
func TestFind(t *testing.T) {
	const src = `package p

func f(x, y int) {
	x++ //origo:ignore race 4
	y++

	// why:
	//origo:ignore race 9
	x++

	//origo:ignore race 11, under a blank line

	y++
	/* c */ //origo:ignore race 14
	x++ //origo:ignore deadlock 15
	x++ //origo:ignore race,deadlock 16
	x++ //origo:ignore race
	x++ // origo:ignore race 18
}
`
	dir := t.TempDir()
	name := filepath.Join(dir, "p.go")
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	pass := &analysis.Pass{
		Analyzer: &analysis.Analyzer{Name: "race"},
		Fset:     fset,
		Files:    []*ast.File{f},
		ReadFile: os.ReadFile,
	}
	l := Find(pass)
	tf := fset.File(f.Pos())
	var got []int
	for n := 1; n <= tf.LineCount(); n++ {
		if l.Has(tf.LineStart(n)) {
			got = append(got, n)
		}
	}
	if want := []int{4, 9, 12, 14, 16}; !slices.Equal(got, want) {
		t.Errorf("silenced lines %v, want %v", got, want)
	}

	// A report shown at several lines is silenced at any of them.
	if line := tf.LineStart; !l.Any(line(5), line(4)) || !l.Any(line(16)) || l.Any(line(5), line(15)) || l.Any() {
		t.Errorf("Any(5, 4) = %v, Any(16) = %v, Any(5, 15) = %v, Any() = %v; want true, true, false, false",
			l.Any(line(5), line(4)), l.Any(line(16)), l.Any(line(5), line(15)), l.Any())
	}

	// Unreadable, a directive silences its own line only.
	pass.ReadFile = nil
	l = Find(pass)
	if !l.Has(tf.LineStart(8)) || l.Has(tf.LineStart(9)) {
		t.Errorf("without the file's text: line 8 silenced %v, line 9 %v; want true, false", l.Has(tf.LineStart(8)), l.Has(tf.LineStart(9)))
	}
}

// TestSilenced checks the record of the directives that silenced a
// report: those of the lines asked about, and only those, whether the
// directive ends its line or stands above it; two directives for one
// line are both used.
func TestSilenced(t *testing.T) {
	const src = `package p

func f(x, y int) {
	x++ //origo:ignore race 4
	y++ //origo:ignore race 5

	//origo:ignore race 7
	x++ //origo:ignore race 8
	//origo:ignore race 9
	y++
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	pass := &analysis.Pass{
		Analyzer: &analysis.Analyzer{Name: "race"},
		Fset:     fset,
		Files:    []*ast.File{f},
		ReadFile: func(string) ([]byte, error) { return []byte(src), nil },
	}
	l := Find(pass)
	tf := fset.File(f.Pos())
	if before := l.Silenced(); len(before.dirs) != 0 {
		t.Errorf("before any report, %d directives used", len(before.dirs))
	}
	for _, n := range []int{4, 8} { // the reports: lines 4 and 8
		if !l.Has(tf.LineStart(n)) {
			t.Errorf("line %d not silenced", n)
		}
	}
	s := l.Silenced()
	var used []int
	for _, c := range f.Comments {
		if s.Used(c.Pos()) {
			used = append(used, tf.Line(c.Pos()))
		}
	}
	if want := []int{4, 7, 8}; !slices.Equal(used, want) {
		t.Errorf("directives used on lines %v, want %v", used, want)
	}
}

// TestMatching checks another tool's comments read by the directive's
// rule, and that a generated file is not Matching's to skip.
func TestMatching(t *testing.T) {
	const src = `// Code generated by x. DO NOT EDIT.

package p

func f(x int) {
	x++ // +checklocksignore
	x++

	// +checklocksignore
	x++
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	pass := &analysis.Pass{
		Analyzer: &analysis.Analyzer{Name: "guardedby"},
		Fset:     fset,
		Files:    []*ast.File{f},
		ReadFile: func(string) ([]byte, error) { return []byte(src), nil },
	}
	l := Matching(pass, func(text string) bool { return text == "// +checklocksignore" })
	tf := fset.File(f.Pos())
	var got []int
	for n := 1; n <= tf.LineCount(); n++ {
		if l.Has(tf.LineStart(n)) {
			got = append(got, n)
		}
	}
	if want := []int{6, 10}; !slices.Equal(got, want) {
		t.Errorf("silenced lines %v, want %v", got, want)
	}
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{
		{"ignore", "ignore", 0},
		{"ingore", "ignore", 1},
		{"ignor", "ignore", 1},
		{"rase", "race", 1},
		{"", "race", 4},
		{"origin:", "origo:ignore", 6},
	} {
		if d := distance(tc.a, tc.b); d != tc.d {
			t.Errorf("distance(%q, %q) = %d, want %d", tc.a, tc.b, d, tc.d)
		}
	}
}

// funcs reports each function declared in a file that is not generated
// (ignore.Find's lines say which).
var funcs = &analysis.Analyzer{
	Name: "funcs",
	Doc:  "reports each function declared outside generated files",
	Run: func(pass *analysis.Pass) (any, error) {
		l := Find(pass)
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && !l.Has(fd.Pos()) {
					pass.Reportf(fd.Pos(), "function %s", fd.Name.Name)
				}
			}
		}
		return nil, nil
	},
}

// TestCgoFiles checks that the files of a package that imports "C",
// which cgo rewrites into files marked generated, are the user's code:
// reported in, while a generated file of the package is not.
func TestCgoFiles(t *testing.T) {
	if out, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skipf("cgo is not enabled here (%v)", err)
	}
	analysistest.Run(t, analysistest.TestData(), funcs, "cgouser")
}
