package fixrun_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/origo-dev/origo/analyzers/internal/fixrun"
)

// TestRun checks a fix that unlocks the function's own mutex (good), one
// that unlocks the caller's (bad: the run dies), and one that go vet
// finds worse than the code it fixed (vetworse: a lock passed by value).
func TestRun(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("no go command: %v", err)
	}
	if err := fixrun.Run("testdata/good", t.TempDir()); err != nil {
		t.Errorf("good: %v", err)
	}
	err := fixrun.Run("testdata/bad", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "unlock of unlocked mutex") {
		t.Errorf("bad: got %v, want the run to die with unlock of unlocked mutex", err)
	}
	err = fixrun.Run("testdata/vetworse", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "go vet says") {
		t.Errorf("vetworse: got %v, want go vet's new finding", err)
	}
}
