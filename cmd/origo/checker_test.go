package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/origo-dev/origo/analyzers/blocking"
	"github.com/origo-dev/origo/analyzers/deadlock"
	"github.com/origo-dev/origo/analyzers/directive"
	"github.com/origo-dev/origo/analyzers/guardedby"
	"github.com/origo-dev/origo/analyzers/race"
	"github.com/origo-dev/origo/cmd/internal/longtest"
	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/effects"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/origins"
	"github.com/origo-dev/origo/passes/ownership"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// The tests of this file run the analyzers as other drivers do, through
// golang.org/x/tools/go/analysis/checker, on which analysistest and
// golangci-lint's runner are modelled: one analyzer at a time rather than
// the suite, with facts from the dependencies only, serialized between
// packages as go vet would (SanityCheck), and on packages that do not
// type-check.

// TestAnalyzerAlone runs each analyzer on its own, and within the suite,
// on a fixture of its own tests whose package imports another: the same
// diagnostics either way (no analyzer leans on another's side effects or
// on running with the others), some of them, and, where the fixture's
// reports name a line of the imported package, such a report, which only
// that package's facts can give (it is analyzed as a dependency, not a
// root).
func TestAnalyzerAlone(t *testing.T) {
	longtest.Skip(t)
	functional(t)
	for _, f := range []struct {
		analyzer *analysis.Analyzer
		gopath   string // an analysistest GOPATH
		pkg      string // the package analyzed
		lib      string // a package it imports, analyzed for its facts only; "" for none
		libFile  string // a file of lib that some diagnostic names; "" for none
	}{
		{race.Analyzer, "../../analyzers/race/testdata", "xuse", "xlib", "xlib.go"},
		{deadlock.Analyzer, "../../analyzers/deadlock/testdata", "dlx", "dlxlib", "dlxlib.go"},
		{blocking.Analyzer, "../../analyzers/blocking/testdata", "blkx", "blklib", ""},
		{directive.Analyzer, "../../analyzers/directive/testdata", "directives", "", ""},
	} {
		t.Run(f.analyzer.Name, func(t *testing.T) {
			pkgs := loadGOPATH(t, f.gopath, f.pkg)
			var imported bool
			for _, p := range pkgs {
				if p.PkgPath != f.pkg {
					t.Fatalf("loaded root %s, want only %s", p.PkgPath, f.pkg)
				}
				_, imported = p.Imports[f.lib]
			}
			if f.lib != "" && !imported {
				t.Fatalf("%s does not import %s", f.pkg, f.lib)
			}
			alone := diagnosticsOf(t, f.analyzer, []*analysis.Analyzer{f.analyzer}, pkgs)
			inSuite := diagnosticsOf(t, f.analyzer, suite, pkgs)
			if len(alone) == 0 {
				t.Fatalf("%s alone reports nothing on %s", f.analyzer.Name, f.pkg)
			}
			if !slices.Equal(alone, inSuite) {
				t.Errorf("%s alone reports:\n%s\nin the suite:\n%s", f.analyzer.Name, strings.Join(alone, "\n"), strings.Join(inSuite, "\n"))
			}
			if f.libFile != "" && !slices.ContainsFunc(alone, func(d string) bool { return strings.Contains(d, f.libFile) }) {
				t.Errorf("no report names %s, as only %s's facts can:\n%s", f.libFile, f.lib, strings.Join(alone, "\n"))
			}
		})
	}
}

// TestTypeErrorsUnderChecker runs each analyzer and each of the passes
// they require, alone, on packages that do not type-check (an undefined
// identifier and a wrong-typed assignment; a wrong-typed return) and on
// one that imports such a package. None panics (the checker recovers
// nothing: a panic would end the test binary). Built on SSA, which
// needs well-typed code, they are not run (directive, which requires
// the analyzers whose directives it checks, neither): each gives exactly one error for
// the package, x/tools' "failed prerequisites: ...", and what failed
// first, below it, is x/tools' own "analysis skipped due to errors in
// package" (ctrlflow, which buildir requires, does not run despite
// errors). cmd/origo turns that into one line that names the error
// (TestBadInput).
func TestTypeErrorsUnderChecker(t *testing.T) {
	functional(t)
	dir, err := filepath.Abs("../../testdata/broken")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: dir}
	pkgs, err := packages.Load(cfg, "./typeerr", "./undef", "./importer")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		if !p.IllTyped {
			t.Fatalf("%s type-checks; the test needs it not to", p.PkgPath)
		}
	}
	analyzers := []*analysis.Analyzer{
		race.Analyzer, deadlock.Analyzer, blocking.Analyzer, guardedby.Analyzer, directive.Analyzer,
		buildir.Analyzer, origins.Analyzer, pointer.SummaryAnalyzer, lockset.Analyzer, effects.Analyzer, pointer.Analyzer, shb.Analyzer, ownership.Analyzer,
	}
	for _, a := range analyzers {
		t.Run(a.Name, func(t *testing.T) {
			graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(graph.Roots) != len(pkgs) {
				t.Fatalf("%d actions for %d packages", len(graph.Roots), len(pkgs))
			}
			for _, act := range graph.Roots {
				if act.Err == nil || strings.Contains(act.Err.Error(), "\n") || len(act.Diagnostics) > 0 {
					t.Errorf("%s: error %v and %d diagnostics, want one line of error and none", act, act.Err, len(act.Diagnostics))
					continue
				}
				for _, c := range firstFailures(act) {
					if c.Err.Error() != "analysis skipped due to errors in package" || !c.Package.IllTyped {
						t.Errorf("%s failed first, on %v; want it skipped on a package with errors", c, c.Err)
					}
				}
			}
		})
	}
}

// firstFailures returns the failed actions below act, act included,
// whose prerequisites all succeeded: where the failure began.
func firstFailures(act *checker.Action) []*checker.Action {
	var out []*checker.Action
	seen := make(map[*checker.Action]bool)
	var visit func(a *checker.Action)
	visit = func(a *checker.Action) {
		if seen[a] || a.Err == nil {
			return
		}
		seen[a] = true
		first := true
		for _, d := range a.Deps {
			if d.Err != nil {
				first = false
				visit(d)
			}
		}
		if first {
			out = append(out, a)
		}
	}
	visit(act)
	return out
}

// loadGOPATH loads a package of an analysistest GOPATH, as analysistest
// does, but without its tests, so that the package is the only root.
func loadGOPATH(t *testing.T, gopath, pattern string) []*packages.Package {
	t.Helper()
	dir, err := filepath.Abs(gopath)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax | packages.NeedModule,
		Dir:  dir,
		Env:  append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, pattern)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("%s does not load", pattern)
	}
	return pkgs
}

// diagnosticsOf runs analyzers on pkgs, facts serialized between
// packages, and returns a's diagnostics on them, "file:line:col:
// message" with base file names and each related position on a line
// of its own beneath, sorted.
func diagnosticsOf(t *testing.T, a *analysis.Analyzer, analyzers []*analysis.Analyzer, pkgs []*packages.Package) []string {
	t.Helper()
	graph, err := checker.Analyze(analyzers, pkgs, &checker.Options{SanityCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, act := range graph.Roots {
		if act.Analyzer != a {
			continue
		}
		if act.Err != nil {
			t.Fatalf("%s: %v", act, act.Err)
		}
		for _, d := range act.Diagnostics {
			posn := act.Package.Fset.Position(d.Pos)
			s := fmt.Sprintf("%s:%d:%d: %s", filepath.Base(posn.Filename), posn.Line, posn.Column, d.Message)
			for _, r := range d.Related {
				rp := act.Package.Fset.Position(r.Pos)
				s += fmt.Sprintf("\n\t%s:%d:%d: %s", filepath.Base(rp.Filename), rp.Line, rp.Column, r.Message)
			}
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}
