package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/origo-dev/origo/cmd/internal/longtest"
)

// TestPlainVetUncached checks what the wall times of origo-bench vet
// rest on, by what go vet -x says it runs rather than by time: a plain
// go vet with a new nonce analyses the package again, with either tool;
// the same command again takes every result from the cache.
func TestPlainVetUncached(t *testing.T) {
	longtest.Skip(t) // origo's cold runs analyse the demo's std dependencies, twice
	dir, err := filepath.Abs("../../testdata/demo")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	origo := filepath.Join(tmp, "origo")
	if out, err := exec.Command("go", "build", "-o", origo, "../origo").CombinedOutput(); err != nil {
		t.Fatalf("building origo: %v\n%s", err, out)
	}
	// ran reports whether go vet -x ran a vet tool on the demo: it then
	// prints the tool's command line, with the package's vet.cfg.
	ran := func(c *exec.Cmd) bool {
		t.Helper()
		c.Args = slices.Insert(c.Args, 2, "-x")
		out, _ := c.CombinedOutput()
		return strings.Contains(string(out), "vet.cfg")
	}
	for _, isOrigo := range []bool{false, true} {
		var seen []bool
		// The nonces are new on every run: go's cache outlives the test,
		// and a nonce seen by an earlier run (of the same demo and, for
		// origo, the same binary) would be a cache hit when cold.
		now := strconv.FormatInt(time.Now().UnixNano(), 36)
		for _, nonce := range []string{"a" + now, "b" + now} {
			cmd, done, err := plainVet(dir, []string{"."}, isOrigo, origo, tmp, nonce)
			if err != nil {
				t.Fatal(err)
			}
			seen = append(seen, ran(cmd()), ran(cmd()))
			done()
			if isOrigo {
				if _, err := os.Stat(filepath.Join(tmp, "origo-"+nonce)); !os.IsNotExist(err) {
					t.Errorf("the copy of origo for nonce %s is left behind", nonce)
				}
			}
		}
		if want := []bool{true, false, true, false}; !slices.Equal(seen, want) {
			t.Errorf("origo %v: vet tool ran (cold, warm, new nonce cold, warm): %v, want %v", isOrigo, seen, want)
		}
	}
}
