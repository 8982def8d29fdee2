// Package whytest checks, in the analyzers' tests, the silent twins of
// their fixtures against the -why explanations (see package rules): a
// fixture marks a line whose candidates a rule must rule out with
//
//	// silent "rule" ["rule" ...]
//
// and the check fails when the line has no candidate, when a candidate
// there is reported or cut by a bound of the analysis, or when a rule
// it names ruled none of them out (other pairs of the line, with
// goroutines of other programs say, may be ruled out by other rules).
package whytest

import (
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/origo-dev/origo/passes/rules"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

var (
	silentRe  = regexp.MustCompile(`// silent((?: "[a-z-]+")+)`)
	verdictRe = regexp.MustCompile(`: (reported|ruled out by ([a-z-]+))`)
)

// Testing is the part of testing.TB that Check uses.
type Testing interface {
	Errorf(format string, args ...any)
}

// Run runs a, whose -why flag the caller has set to all, on the
// packages that patterns name in dir, a GOPATH tree as analysistest's,
// with their tests, checks the silent comments of each against its
// diagnostics (Check), and returns how many it checked. Unlike
// analysistest.Run, it leaves out the main packages of the test
// binaries: generated, without silent comments, they import testing's
// fuzzing and profiling, which would take most of the run to analyze.
func Run(t testing.TB, dir string, a *analysis.Analyzer, patterns ...string) int {
	t.Helper()
	cfg := &packages.Config{
		Mode:  packages.LoadAllSyntax | packages.NeedModule,
		Dir:   dir,
		Tests: true,
		Env:   append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("%s do not load", patterns)
	}
	pkgs = slices.DeleteFunc(pkgs, func(p *packages.Package) bool { return strings.HasSuffix(p.ID, ".test") })
	g, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, act := range g.Roots {
		if act.Err != nil {
			t.Errorf("%s: %v", act, act.Err)
			continue
		}
		checked += Check(t, act.Package.Fset, act.Package.Syntax, act.Diagnostics)
	}
	return checked
}

// Check checks the silent comments of files against the why
// diagnostics among diags, and returns how many comments it checked.
func Check(t Testing, fset *token.FileSet, files []*ast.File, diags []analysis.Diagnostic) int {
	verdicts := make(map[string][]string) // by file:line
	for _, d := range diags {
		if d.Category != rules.WhyCategory {
			continue
		}
		p := fset.Position(d.Pos)
		m := verdictRe.FindStringSubmatch(d.Message)
		if m == nil {
			t.Errorf("%s: why diagnostic without a verdict: %s", p, d.Message)
			continue
		}
		v := m[2]
		if v == "" {
			v = "reported"
		}
		key := fmt.Sprintf("%s:%d", p.Filename, p.Line)
		verdicts[key] = append(verdicts[key], v)
	}
	checked := 0
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				m := silentRe.FindStringSubmatch(c.Text)
				if m == nil {
					continue
				}
				var want []string
				for _, q := range strings.Fields(m[1]) {
					want = append(want, strings.Trim(q, `"`))
				}
				p := fset.Position(c.Pos())
				got := verdicts[fmt.Sprintf("%s:%d", p.Filename, p.Line)]
				checked++
				if len(got) == 0 {
					t.Errorf("%s:%d: silent %v, but no candidate has this line", filepath.Base(p.Filename), p.Line, want)
				}
				for _, v := range got {
					if v == "reported" || v == string(rules.Budget) || v == string(rules.NotTraced) {
						t.Errorf("%s:%d: silent %v, but a candidate was %s", filepath.Base(p.Filename), p.Line, want, v)
					}
				}
				for _, w := range want {
					if len(got) > 0 && !slices.Contains(got, w) {
						t.Errorf("%s:%d: silent %q, but no candidate was ruled out by it (by: %v)", filepath.Base(p.Filename), p.Line, w, got)
					}
				}
			}
		}
	}
	return checked
}
