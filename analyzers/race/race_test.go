package race_test

import (
	"testing"

	"github.com/origo-dev/origo/analyzers/race"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestRace(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), race.Analyzer, "basic", "subtests")
}

// TestAcrossPackages checks accesses and locks inside an imported
// package's functions, which reach xuse through facts.
func TestAcrossPackages(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), race.Analyzer, "xuse")
}
