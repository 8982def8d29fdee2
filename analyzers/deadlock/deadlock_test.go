package deadlock_test

import (
	"testing"

	"github.com/origo-dev/origo/analyzers/deadlock"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestDeadlock(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), deadlock.Analyzer, "dl")
}

// TestAcrossPackages checks a second acquisition hidden inside an
// imported package's function.
func TestAcrossPackages(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), deadlock.Analyzer, "dlx")
}

// TestBlockingWhileLocked checks channel operations and WaitGroup.Wait
// under a lock that the unblocking goroutine needs.
func TestBlockingWhileLocked(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), deadlock.Analyzer, "dlblock")
}

// TestTransfer checks locks that a goroutine takes over from its
// starter: no double lock or lock left held for the starter and its
// callers, and the goroutine holds the lock until its Unlock.
func TestTransfer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), deadlock.Analyzer, "dltransfer")
}

// TestIgnore checks that //origo:ignore deadlock silences each kind of
// report, at the end of its line and from the line above.
func TestIgnore(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), deadlock.Analyzer, "dlignore")
}

// TestFixes checks the fix of a lock left held (an Unlock before the
// return) against main.go.golden, and the reports left without one.
func TestFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), deadlock.Analyzer, "dlfix")
}
