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
	"go/types"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/origo-dev/origo/passes/rules"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

var (
	silentRe  = regexp.MustCompile(`// silent((?: "[a-z-]+")+)`)
	verdictRe = regexp.MustCompile(`: (reported|ruled out by ([a-z-]+))`)
)

// Testing is the part of testing.TB that Check uses.
type Testing interface {
	Errorf(format string, args ...any)
}

// Split returns a copy of a that hands its why diagnostics (category
// rules.WhyCategory) to the returned Verdicts instead of reporting them,
// so that one analysistest run of it, with -why set to all, checks the
// fixtures' `// want` comments against the reports and, through
// Verdicts.Check, their `// silent` comments against the verdicts: the
// fixtures and their imports are analysed once for both.
func Split(a *analysis.Analyzer) (*analysis.Analyzer, *Verdicts) {
	v := &Verdicts{byPkg: make(map[*types.Package][]analysis.Diagnostic)}
	c := *a
	c.Run = func(pass *analysis.Pass) (any, error) {
		p := *pass
		p.Report = func(d analysis.Diagnostic) {
			if d.Category != rules.WhyCategory {
				pass.Report(d)
				return
			}
			v.mu.Lock()
			v.byPkg[pass.Pkg] = append(v.byPkg[pass.Pkg], d)
			v.mu.Unlock()
		}
		return a.Run(&p)
	}
	return &c, v
}

// Verdicts are the why diagnostics a Split analyzer set aside, by
// package.
type Verdicts struct {
	mu    sync.Mutex
	byPkg map[*types.Package][]analysis.Diagnostic
}

// Check checks the silent comments of each result's files against the
// verdicts of its package (see Check), and returns how many it checked.
func (v *Verdicts) Check(t Testing, results []*analysistest.Result) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	checked := 0
	for _, r := range results {
		if r.Pass == nil {
			continue
		}
		checked += Check(t, r.Pass.Fset, r.Pass.Files, v.byPkg[r.Pass.Pkg])
	}
	return checked
}

// Named returns the rules that the silent comments of results' files
// name.
func Named(results []*analysistest.Result) map[rules.ID]bool {
	named := make(map[rules.ID]bool)
	for _, r := range results {
		if r.Pass == nil {
			continue
		}
		for _, f := range r.Pass.Files {
			for _, cg := range f.Comments {
				for _, c := range cg.List {
					if m := silentRe.FindStringSubmatch(c.Text); m != nil {
						for _, q := range strings.Fields(m[1]) {
							named[rules.ID(strings.Trim(q, `"`))] = true
						}
					}
				}
			}
		}
	}
	return named
}

// Covered fails t for each rule documented in doc (a rule's Doc, the
// package whose manual has its section) that no silent comment names:
// every rule of an analyzer's own has a twin it silences. The bounds of
// the analysis (rules.Budget, rules.NotTraced) silence no twin, and
// missing lists the rules whose twins are still to be written: each of
// them fails once a twin names it, to be taken off the list.
func Covered(t Testing, doc string, named map[rules.ID]bool, missing ...rules.ID) {
	for _, r := range rules.All {
		if r.Doc != doc || r.ID == rules.Budget || r.ID == rules.NotTraced {
			continue
		}
		switch {
		case !named[r.ID] && !slices.Contains(missing, r.ID):
			t.Errorf("rule %s silences no twin in the fixtures", r.ID)
		case named[r.ID] && slices.Contains(missing, r.ID):
			t.Errorf("rule %s has a twin now: take it off the missing list", r.ID)
		}
	}
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
