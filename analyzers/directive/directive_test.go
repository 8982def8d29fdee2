package directive_test

import (
	"testing"

	"github.com/origo-dev/origo/analyzers/directive"
	"github.com/origo-dev/origo/analyzers/internal/kindtest"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestDirective checks each malformed form, reported once at its
// comment, and the well-formed ones and look-alikes, silent.
func TestDirective(t *testing.T) {
	kindtest.Covered(t, "directive", kindtest.Check(t, analysistest.Run(t, analysistest.TestData(), directive.Analyzer, "directives"), map[string][]string{
		"directive/malformed": {"bad //origo:ignore directive", "unknown origo directive"},
	}))
}

// TestStale checks the directives that silence nothing, each next to a
// silent twin that silences a report (a race, a double lock), at the
// end of the line and alone above it, and a list of analyzers of which
// one silences nothing.
func TestStale(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), directive.Analyzer, "stale")
}

// TestGenerated checks that the flag "generated" checks the directives
// of generated files too (the package directives has one, silent).
func TestGenerated(t *testing.T) {
	if err := directive.Analyzer.Flags.Set("generated", "true"); err != nil {
		t.Fatal(err)
	}
	defer directive.Analyzer.Flags.Set("generated", "false")
	analysistest.Run(t, analysistest.TestData(), directive.Analyzer, "generatedon")
}
