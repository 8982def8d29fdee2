package blocking_test

import (
	"testing"

	"github.com/origo-dev/origo/analyzers/blocking"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestBlocking(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), blocking.Analyzer, "blk")
}
