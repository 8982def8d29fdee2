package paralleltests

import "testing"

// A helper that several parallel tests call runs a table of subtests
// with t.Run in a loop, each reading what the loop wrote just before
// it: the current case, a variable of the helper that its iterations
// share. Within one test, t.Run waits for each subtest (none calls
// t.Parallel); two tests run at once, but each call of the helper has a
// variable of its own. Silent.
type impl struct{ n int }

func runImpls(t *testing.T, check func(int)) {
	impls := []impl{{1}, {2}}
	var cur impl
	for _, x := range impls {
		cur = x // silent "test-objects"
		t.Run("impl", func(t *testing.T) {
			check(cur.n)
		})
	}
}

// The same, with the read in a nested subtest, through a helper.
func runNested(t *testing.T) {
	var cur impl
	for _, x := range []impl{{3}, {4}} {
		cur.n = x.n // silent "test-objects"
		t.Run("outer", func(t *testing.T) {
			t.Run("inner", func(t *testing.T) { readImpl(&cur) })
		})
	}
}

func readImpl(c *impl) { _ = c.n }

// The current case kept in a package-level variable is one for every
// test: the other test's subtest reads it while this one writes.
// Reported.
var shared impl

func runShared(t *testing.T) {
	for _, x := range []impl{{5}, {6}} {
		shared = x // want `data race on shared.n: write at tables_test.go:\d+ \(parallel tests\) vs read` `data race on shared.n: write at tables_test.go:\d+ \(parallel tests\) vs write`
		t.Run("shared", func(t *testing.T) { _ = shared.n })
	}
}

func TestImplsA(t *testing.T) {
	t.Parallel()
	runImpls(t, func(int) {})
	runNested(t)
	runShared(t)
}

func TestImplsB(t *testing.T) {
	t.Parallel()
	runImpls(t, func(int) {})
	runNested(t)
	runShared(t)
}
