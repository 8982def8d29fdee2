package agree_test

import (
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/origo-dev/origo/analyzers/blocking"
	"github.com/origo-dev/origo/analyzers/deadlock"
	"github.com/origo-dev/origo/analyzers/internal/whytest"
	"github.com/origo-dev/origo/analyzers/race"
	"github.com/origo-dev/origo/passes/rules"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

var (
	expectRe = regexp.MustCompile(`// expect((?: [a-z]+ "[^"]*")+)`)
	pairRe   = regexp.MustCompile(`([a-z]+) "([^"]*)"`)
)

// TestTestsInSequence runs race, deadlock and blocking on two tests
// whose goroutines write one variable and take two mutexes in opposite
// orders: joined by their tests (seqjoin), all three are silent and
// race and deadlock name tests-in-sequence; waited for in a select with
// a timeout (seqtimeout), the goroutines may overlap and all three
// report; with t.Parallel (seqparallel), race and deadlock report. The
// three analyzers run in one checker over the three packages, as go vet
// runs them: their passes are shared, and the packages' dependencies
// analyzed once.
func TestTestsInSequence(t *testing.T) {
	for _, a := range []*analysis.Analyzer{race.Analyzer, deadlock.Analyzer} {
		if err := a.Flags.Set("why", "all"); err != nil {
			t.Fatal(err)
		}
		defer a.Flags.Set("why", "")
	}
	dir := analysistest.TestData()
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax,
		Dir:   dir,
		Tests: true,
		Env:   append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, "seqjoin", "seqtimeout", "seqparallel")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the fixtures do not load")
	}
	g, err := checker.Analyze([]*analysis.Analyzer{race.Analyzer, deadlock.Analyzer, blocking.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	type line struct {
		file string
		n    int
	}
	got := make(map[line][]string) // "analyzer: message" by line
	var whys []analysis.Diagnostic
	var files []*ast.File
	var fset *token.FileSet
	seen := make(map[*ast.File]bool)
	for _, act := range g.Roots {
		if act.Err != nil {
			t.Fatalf("%s: %v", act, act.Err)
		}
		fset = act.Package.Fset
		for _, f := range act.Package.Syntax {
			if !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
		for _, d := range act.Diagnostics {
			p := fset.Position(d.Pos)
			k := line{filepath.Base(p.Filename), p.Line}
			if d.Category == rules.WhyCategory {
				whys = append(whys, d)
				continue
			}
			got[k] = append(got[k], act.Analyzer.Name+": "+d.Message)
		}
	}
	expected := make(map[line]bool)
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				p := fset.Position(c.Pos())
				k := line{filepath.Base(p.Filename), p.Line}
				if m := expectRe.FindStringSubmatch(c.Text); m != nil {
					expected[k] = true
					for _, pm := range pairRe.FindAllStringSubmatch(m[1], -1) {
						re := regexp.MustCompile(pm[2])
						if !slices.ContainsFunc(got[k], func(s string) bool {
							name, msg, _ := strings.Cut(s, ": ")
							return name == pm[1] && re.MatchString(msg)
						}) {
							t.Errorf("%s:%d: no %s report matching %q; got %q", k.file, k.n, pm[1], pm[2], got[k])
						}
					}
				}
			}
		}
	}
	if whytest.Check(t, fset, files, whys) == 0 {
		t.Fatal("no // silent comment found in the fixtures")
	}
	for k, msgs := range got {
		if !expected[k] {
			for _, m := range msgs {
				t.Errorf("%s:%d: unexpected report: %s", k.file, k.n, m)
			}
		}
	}
}
