package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/origo-dev/origo/cmd/internal/longtest"
)

// TestProgress checks the count written over itself, and erased at the
// end, on a whole run of the chain module, and that the run finds what
// it finds without the count.
func TestProgress(t *testing.T) {
	longtest.Skip(t)
	functional(t)
	t.Chdir("../../testdata/chain")
	quiet := analyze(suite, []string{"./..."}, true, "", nil)
	var buf bytes.Buffer
	res := analyze(suite, []string{"./..."}, true, "", &buf)
	if !slices.EqualFunc(res.diags, quiet.diags, func(x, y diagnostic) bool { return x.posn == y.posn && x.message == y.message }) ||
		!slices.Equal(res.errors, quiet.errors) {
		t.Errorf("with progress: %d findings, errors %q; without: %d, %q", len(res.diags), res.errors, len(quiet.diags), quiet.errors)
	}
	out := buf.String()
	n := strings.Count(out, "packages analyzed") - 1 // the first count is 0
	if n < 2 {
		t.Fatalf("progress %q: want a count per package, at least 2", out)
	}
	last := fmt.Sprintf("origo: %d/%d packages analyzed", n, n)
	for i := range n + 1 {
		if count := fmt.Sprintf("\rorigo: %d/%d packages analyzed", i, n); !strings.Contains(out, count) {
			t.Errorf("progress %q lacks %q", out, count)
		}
	}
	if end := "\r" + last + "\r\r" + strings.Repeat(" ", len(last)) + "\r"; !strings.HasSuffix(out, end) {
		t.Errorf("progress %q does not end with the last count erased, %q", out, end)
	}
}

// TestIsTerminal checks that a pipe, a file and a buffer, where tests
// and CI send standard error, get no progress.
func TestIsTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for name, out := range map[string]io.Writer{"pipe": w, "file": f, "buffer": new(bytes.Buffer)} {
		if isTerminal(out) {
			t.Errorf("%s taken for a terminal", name)
		}
	}
}
