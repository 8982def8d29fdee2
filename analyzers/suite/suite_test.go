package suite_test

import (
	"slices"
	"testing"

	"github.com/origo-dev/origo/analyzers/directive"
	"github.com/origo-dev/origo/analyzers/internal/ignore"
	"github.com/origo-dev/origo/analyzers/suite"
	"golang.org/x/tools/go/analysis"
)

// TestListsAgree checks the lists that cannot import the suite against
// it: directive requires every other analyzer, and a directive may name
// exactly those.
func TestListsAgree(t *testing.T) {
	if err := analysis.Validate(suite.Analyzers); err != nil {
		t.Fatal(err)
	}
	if last := suite.Analyzers[len(suite.Analyzers)-1]; last != directive.Analyzer {
		t.Errorf("the suite's last analyzer is %s, want directive (it reads what the others silenced)", last.Name)
	}
	others := suite.Analyzers[:len(suite.Analyzers)-1]
	if !slices.Equal(directive.Analyzer.Requires, others) {
		t.Errorf("directive requires %v, want the suite's other analyzers %v", names(directive.Analyzer.Requires), names(others))
	}
	want := names(others)
	slices.Sort(want)
	if !slices.Equal(ignore.Analyzers, want) {
		t.Errorf("ignore.Analyzers = %v, want the suite's other analyzers %v", ignore.Analyzers, want)
	}
}

func names(as []*analysis.Analyzer) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}
