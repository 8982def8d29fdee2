package guardedby_test

import (
	"testing"

	"github.com/origo-dev/origo/analyzers/guardedby"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestGuardedBy(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), guardedby.Analyzer, "gb")
}

// TestAcrossPackages checks the annotations of package gblib, which
// reach gbuse as facts on its fields and methods.
func TestAcrossPackages(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), guardedby.Analyzer, "gblib", "gbuse")
}
