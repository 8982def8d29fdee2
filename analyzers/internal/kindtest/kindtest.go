// Package kindtest checks, in an analyzer's tests, the kind of each of
// its reports (analysis.Diagnostic.Category, see package kinds), which
// analysistest's "// want" comments do not cover: a kind of the
// analyzer, and the kind its message says.
package kindtest

import (
	"strings"
	"testing"

	"github.com/origo-dev/origo/analyzers/kinds"
	"golang.org/x/tools/go/analysis/analysistest"
)

// Check checks the category of each report in results: it is the ID of
// a kind of the analyzer that made it, and the message begins with one
// of the heads of that kind, heads[ID], or with its Title when heads has
// none. It returns the kinds met, by ID.
func Check(t *testing.T, results []*analysistest.Result, heads map[string][]string) map[string]bool {
	t.Helper()
	met := make(map[string]bool)
	for _, res := range results {
		for _, d := range res.Diagnostics {
			posn := res.Pass.Fset.Position(d.Pos)
			k, ok := kinds.Lookup(d.Category)
			if !ok || k.Analyzer() != res.Pass.Analyzer.Name {
				t.Errorf("%s: category %q is no kind of %s: %s", posn, d.Category, res.Pass.Analyzer.Name, d.Message)
				continue
			}
			met[k.ID] = true
			want := heads[k.ID]
			if len(want) == 0 {
				want = []string{k.Title}
			}
			found := false
			for _, h := range want {
				found = found || strings.HasPrefix(d.Message, h)
			}
			if !found {
				t.Errorf("%s: a report of kind %s begins otherwise than %q: %s", posn, k.ID, want, d.Message)
			}
		}
	}
	return met
}

// Covered checks that met, the kinds Check met in an analyzer's
// fixtures, holds every kind of that analyzer.
func Covered(t *testing.T, analyzer string, met map[string]bool) {
	t.Helper()
	for _, k := range kinds.Of(analyzer) {
		if !met[k.ID] {
			t.Errorf("no fixture report of kind %s", k.ID)
		}
	}
}
