package directive_test

import (
	"testing"

	"github.com/origo-dev/origo/analyzers/directive"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestDirective checks each malformed form, reported once at its
// comment, and the well-formed ones and look-alikes, silent.
func TestDirective(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), directive.Analyzer, "directives")
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
