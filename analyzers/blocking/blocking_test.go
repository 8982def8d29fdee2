package blocking_test

import (
	"testing"

	"github.com/origo-dev/origo/analyzers/blocking"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestBlocking(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), blocking.Analyzer, "blk")
}

// TestAcrossPackages checks partners in another package: a channel
// given to its function is judged no more, one it never sees still is.
func TestAcrossPackages(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), blocking.Analyzer, "blkx")
}

// TestIgnore checks that //origo:ignore blocking silences each kind of
// report, at the end of its line and from the line above.
func TestIgnore(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), blocking.Analyzer, "blkignore")
}
