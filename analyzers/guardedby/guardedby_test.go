package guardedby_test

import (
	"testing"

	"github.com/origo-dev/origo/analyzers/guardedby"
	"github.com/origo-dev/origo/analyzers/internal/kindtest"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestGuardedBy(t *testing.T) {
	kindtest.Covered(t, "guardedby", kindtest.Check(t, analysistest.Run(t, analysistest.TestData(), guardedby.Analyzer, "gb"), guardedbyHeads))
}

// TestAcrossPackages checks the annotations of package gblib, which
// reach gbuse as facts on its fields and methods.
func TestAcrossPackages(t *testing.T) {
	kindtest.Check(t, analysistest.Run(t, analysistest.TestData(), guardedby.Analyzer, "gblib", "gbuse"), guardedbyHeads)
}

// guardedbyHeads are the words the messages of each kind begin with.
var guardedbyHeads = map[string][]string{
	"guardedby/unguarded-access": {"read of ", "write to ", "access to "},
	"guardedby/unguarded-call":   {"call of "},
	"guardedby/bad-annotation":   {"bad +checklocks"},
}
