package agree_test

import (
	"fmt"
	"go/ast"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/origo-dev/origo/analyzers/blocking"
	"github.com/origo-dev/origo/analyzers/deadlock"
	"github.com/origo-dev/origo/analyzers/race"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

var (
	expectRe  = regexp.MustCompile(`// expect((?: [a-z]+ "[^"]*")+)`)
	pairRe    = regexp.MustCompile(`([a-z]+) "([^"]*)"`)
	silentRe  = regexp.MustCompile(`// silent((?: "[a-z-]+")+)`)
	verdictRe = regexp.MustCompile(`: (reported|ruled out by ([a-z-]+))`)
)

// TestTestsInSequence runs race, deadlock and blocking on two tests
// whose goroutines write one variable and take two mutexes in opposite
// orders: joined by their tests (seqjoin), all three are silent and race
// names tests-in-sequence; waited for in a select with a timeout
// (seqtimeout), the goroutines may overlap and all three report; with
// t.Parallel (seqparallel), race and deadlock report.
func TestTestsInSequence(t *testing.T) {
	for _, pkg := range []string{"seqjoin", "seqtimeout", "seqparallel"} {
		t.Run(pkg, func(t *testing.T) { check(t, pkg) })
	}
}

func check(t *testing.T, pkg string) {
	if err := race.Analyzer.Flags.Set("why", "all"); err != nil {
		t.Fatal(err)
	}
	defer race.Analyzer.Flags.Set("why", "")
	type line struct {
		file string
		n    int
	}
	got := make(map[line][]string) // "analyzer: message" by line
	whys := make(map[line][]string)
	var files []*analysisFile
	for _, a := range []*analysis.Analyzer{race.Analyzer, deadlock.Analyzer, blocking.Analyzer} {
		for _, r := range analysistest.Run(ignoreErrors{}, analysistest.TestData(), a, pkg) {
			if a == race.Analyzer {
				for _, f := range r.Pass.Files {
					files = append(files, &analysisFile{r.Pass, f.Comments})
				}
			}
			for _, d := range r.Diagnostics {
				p := r.Pass.Fset.Position(d.Pos)
				k := line{filepath.Base(p.Filename), p.Line}
				if d.Category == race.WhyCategory {
					if m := verdictRe.FindStringSubmatch(d.Message); m != nil {
						v := m[2]
						if v == "" {
							v = "reported"
						}
						whys[k] = append(whys[k], v)
					}
					continue
				}
				got[k] = append(got[k], a.Name+": "+d.Message)
			}
		}
	}
	expected := make(map[line]bool)
	for _, f := range files {
		for _, cg := range f.comments {
			for _, c := range cg.List {
				p := f.pass.Fset.Position(c.Pos())
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
				if m := silentRe.FindStringSubmatch(c.Text); m != nil {
					var want []string
					for _, q := range strings.Fields(m[1]) {
						want = append(want, strings.Trim(q, `"`))
					}
					if len(whys[k]) == 0 {
						t.Errorf("%s:%d: silent %v, but race has no candidate there", k.file, k.n, want)
					}
					for _, w := range want {
						if !slices.Contains(whys[k], w) {
							t.Errorf("%s:%d: silent %q, but race ruled its candidates out by %v", k.file, k.n, w, whys[k])
						}
					}
					if slices.Contains(whys[k], "reported") {
						t.Errorf("%s:%d: silent %v, but race reported a candidate", k.file, k.n, want)
					}
				}
			}
		}
	}
	for k, msgs := range got {
		if !expected[k] {
			for _, m := range msgs {
				t.Errorf("%s:%d: unexpected report: %s", k.file, k.n, m)
			}
		}
	}
	_ = fmt.Sprint
}

type analysisFile struct {
	pass     *analysis.Pass
	comments []*ast.CommentGroup
}

// ignoreErrors is an analysistest.Testing that drops analysistest's own
// complaints: the fixtures use expect comments, not want.
type ignoreErrors struct{}

func (ignoreErrors) Errorf(string, ...any) {}
