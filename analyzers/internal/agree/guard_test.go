package agree_test

import (
	"os"
	"testing"

	"github.com/origo-dev/origo/passes/guard"
)

// TestMain fails the tests when a pass crashed during them, though the
// guard turned the crash into fewer findings (see guard.RunTests).
func TestMain(m *testing.M) { os.Exit(guard.RunTests(m)) }
