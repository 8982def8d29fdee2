package main

import (
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// TestReleaser runs the suite on the demo, which imports fmt, sync and
// their dependencies, through the releaser and directly: the same
// findings; every Result read and let go; the dependencies' syntax and
// type information dropped, the root's syntax kept for collect.
func TestReleaser(t *testing.T) {
	dir, err := filepath.Abs("../../testdata/demo")
	if err != nil {
		t.Fatal(err)
	}
	load := func() []*packages.Package {
		cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: dir}
		pkgs, err := packages.Load(cfg, ".")
		if err != nil || packages.PrintErrors(pkgs) > 0 {
			t.Fatalf("loading the demo: %v", err)
		}
		return pkgs
	}
	findings := func(graph *checker.Graph) []string {
		var out []string
		for _, act := range graph.Roots {
			if act.Err != nil {
				t.Fatalf("%s: %v", act, act.Err)
			}
			for _, d := range act.Diagnostics {
				out = append(out, act.Analyzer.Name+": "+act.Package.Fset.Position(d.Pos).String()+": "+d.Message)
			}
		}
		slices.Sort(out)
		return out
	}
	direct, err := checker.Analyze(suite, load(), nil)
	if err != nil {
		t.Fatal(err)
	}
	roots := load()
	rel, wrapped := newReleaser(suite, roots, nil)
	released, err := checker.Analyze(wrapped, roots, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, got := findings(direct), findings(released)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("through the releaser:\n%q\ndirectly:\n%q\nwant the same, and some", got, want)
	}
	if len(rel.results) != 0 || len(rel.passes) != 0 || len(rel.packages) != 0 {
		t.Errorf("after the run, the releaser holds %d results, the passes of %d packages, %d packages", len(rel.results), len(rel.passes), len(rel.packages))
	}
	deps := 0
	packages.Visit(roots, nil, func(p *packages.Package) {
		switch {
		case rel.roots[p.Types]:
			if p.Syntax == nil || p.TypesInfo != nil {
				t.Errorf("root %s: syntax %v, type information %v; want the syntax only", p, p.Syntax != nil, p.TypesInfo != nil)
			}
		case p.Syntax != nil || p.TypesInfo != nil:
			t.Errorf("dependency %s keeps its syntax or type information", p)
		default:
			deps++
		}
	})
	if deps < 10 {
		t.Errorf("%d dependencies released; the demo has more (fmt, sync, ...)", deps)
	}
}
