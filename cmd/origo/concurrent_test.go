package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/origo-dev/origo/cmd/internal/longtest"
)

// TestConcurrentAnalyzers runs the race and deadlock analyzers, which
// both drivers run at the same time on one package, over packages where
// both have work, under the standalone driver (go/analysis/checker) and
// as go vet's tool (unitchecker), and requires the same findings from
// both. Under "go test -race" the origo binary is built with -race (see
// TestMain), so a pass Result written after its Run, read by the other
// analyzer, fails the test with the race detector's report.
func TestConcurrentAnalyzers(t *testing.T) {
	longtest.Skip(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fixtures := []struct {
		pattern string
		want    []string // in some finding each
	}{
		{"./testdata/demo", []string{"data race", "double lock"}},
		{"./analyzers/deadlock/testdata/src/dl", []string{"double lock", "lock order inversion"}},
		{"./analyzers/deadlock/testdata/src/dlblock", []string{"blocking while holding a lock"}},
		{"./analyzers/race/testdata/src/basic", []string{"data race", "concurrent map access"}},
	}
	for _, f := range fixtures {
		t.Run(strings.TrimPrefix(f.pattern, "./"), func(t *testing.T) {
			bothDrivers(t, root, f.pattern, f.want)
		})
	}
	// Go's goroutine-leak tests: one package where race and deadlock
	// both report, on which go vet once died of origo's own map race.
	t.Run("testgoroutineleakprofile", func(t *testing.T) {
		bothDrivers(t, leakCorpus(t), "./...", []string{"data race", "double lock", "lock order inversion"})
	})
}

// bothDrivers runs origo on pattern in dir standalone and under go vet,
// and requires the same findings from both, among them one containing
// each of want.
func bothDrivers(t *testing.T, dir, pattern string, want []string) {
	t.Helper()
	vetOut, vetErr, code := runCmd(t, exec.Command("go", "vet", "-vettool="+origoBin, "-json", pattern), dir)
	if code != 0 {
		t.Fatalf("go vet exited %d:\n%s", code, vetErr)
	}
	standOut, standErr, code := run(t, dir, "-test=false", "-json", pattern)
	if code != exitClean {
		t.Fatalf("origo -json exited %d, want %d, as go vet -json:\n%s", code, exitClean, standErr)
	}
	vet, standalone := findings(t, dir, vetOut+vetErr), findings(t, dir, standOut)
	for _, w := range want {
		if !slices.ContainsFunc(vet, func(s string) bool { return strings.Contains(s, w) }) {
			t.Errorf("no %q finding under go vet:\n%s", w, strings.Join(vet, "\n"))
		}
	}
	if !slices.Equal(vet, standalone) {
		t.Errorf("go vet and standalone differ:\n--- vet\n%s\n--- standalone\n%s", strings.Join(vet, "\n"), strings.Join(standalone, "\n"))
	}
}

// leakCorpus copies $GOROOT/src/runtime/testdata/testgoroutineleakprofile
// into a scratch module and returns its directory.
func leakCorpus(t *testing.T) string {
	t.Helper()
	src := filepath.Join(runtime.GOROOT(), "src", "runtime", "testdata", "testgoroutineleakprofile")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("no goroutine-leak corpus in this Go installation: %v", err)
	}
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dst, "go.mod"), []byte("module leakcorpus\n\ngo 1.26\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	return dst
}
