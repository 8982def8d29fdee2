package race

import (
	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
)

// The tests of a package run one after the other: "go test" starts a
// Test only when the one before it has returned, and a test that calls
// t.Parallel runs concurrently with the other parallel tests only. The
// root trace of the tests runs them one after the other too, but a
// goroutine that a test starts has no edge to the test's return unless
// the test joins it in a way the happens-before graph sees, and one the
// test stops through a Close that several tests' objects merge into does
// not. Such a goroutine then looks concurrent with every later test.
//
// origo takes a test's goroutines that can be waited for to end before
// the test returns: those that send, receive, close or call Done (the
// test joins them or stops them), and those the testing package, a
// WaitGroup, an errgroup or an HTTP server's Close waits for. A
// goroutine that outlives its test is a leak, which the join it was
// written with, seen or not, is there to prevent. So two events whose
// goroutines only tests start, and no two of the same tests, are not
// concurrent. A goroutine that does not synchronize at all cannot be
// waited for and may well run on into the next test; one started from
// anywhere else (the package initializer, main, a parallel test, the
// library's methods) is not scoped either, and pairs with them are
// judged as before.

// testRuns returns the sequential tests' root trace and, by origin ID,
// the runs of that trace that may start the origin, directly or through
// its ancestors (by run index: whether it may); nil for an origin that
// something else may start.
func testRuns(hb *shb.Result, spawners map[*pointer.Origin][]spawn, numOrigins int) (*shb.Trace, []runSet) {
	var tests *shb.Trace
	for _, t := range hb.Traces {
		if t.Entries != nil && t.Origin.Kind == 0 && t.Origin.Root == "tests" {
			tests = t
		}
	}
	if tests == nil {
		return nil, nil
	}
	runs := make([]runSet, numOrigins)
	state := make(map[*pointer.Origin]int8) // 1: in progress, 2: done
	var visit func(o *pointer.Origin) runSet
	visit = func(o *pointer.Origin) runSet {
		switch state[o] {
		case 1:
			return newRunSet(len(tests.Entries)) // a cycle adds nothing its other starters do not
		case 2:
			return runs[o.ID]
		}
		state[o] = 1
		set := newRunSet(len(tests.Entries))
		for _, s := range spawners[o] {
			if s.t == tests {
				r := tests.Run(s.id)
				if r < 0 {
					set = nil // before the first run: no test's
					break
				}
				set.add(r)
				continue
			}
			parent := visit(s.t.Origin)
			if parent == nil {
				set = nil
				break
			}
			for i, w := range parent {
				set[i] |= w
			}
		}
		if len(spawners[o]) == 0 || !waitable(hb.TraceOf(o)) {
			set = nil // a root, started where no trace shows it, or a fire and forget
		}
		state[o] = 2
		if o.ID < len(runs) {
			runs[o.ID] = set
		}
		return set
	}
	for _, t := range hb.Traces {
		if t != tests {
			visit(t.Origin)
		}
	}
	return tests, runs
}

// separateRuns reports whether event x of t and event y of u run in
// goroutines that only different sequential tests start (or in those
// tests themselves), so that one test's return comes between them.
// Asked of every pair of events: it allocates nothing.
func (c *checker) separateRuns(t *shb.Trace, x int32, u *shb.Trace, y int32) bool {
	if c.tests == nil {
		return false
	}
	switch {
	case t == c.tests && u == c.tests:
		return false // one goroutine: program order decides
	case t == c.tests:
		return c.outside(u.Origin, t.Run(x))
	case u == c.tests:
		return c.outside(t.Origin, u.Run(y))
	}
	a, b := c.runsOf(t.Origin), c.runsOf(u.Origin)
	if a == nil || b == nil {
		return false
	}
	for i, w := range a {
		if w&b[i] != 0 {
			return false
		}
	}
	return true
}

// runSet is a set of runs of the tests trace, by index: a bitmap, as
// separateRuns intersects two of them for every pair of accesses (net's
// tests have hundreds of runs: a slice of bools was a quarter of its
// race check).
type runSet []uint64

func newRunSet(n int) runSet { return make(runSet, (n+63)/64) }

func (s runSet) add(r int)      { s[r/64] |= 1 << (r % 64) }
func (s runSet) has(r int) bool { return s[r/64]&(1<<(r%64)) != 0 }

// outside reports whether only tests other than run start o.
func (c *checker) outside(o *pointer.Origin, run int) bool {
	set := c.runsOf(o)
	return set != nil && run >= 0 && run < 64*len(set) && !set.has(run)
}

// runsOf returns, by run of the tests trace, whether it may start o;
// nil when something else may start o.
func (c *checker) runsOf(o *pointer.Origin) runSet {
	if o.ID >= len(c.runs) {
		return nil
	}
	return c.runs[o.ID]
}

// waitable reports whether the goroutine of t can be waited for: the
// testing package, a WaitGroup, an errgroup or an HTTP server waits for
// it, or it sends, receives, closes or calls Done, which is how a test
// joins or stops a goroutine it started.
func waitable(t *shb.Trace) bool {
	if t == nil {
		return false
	}
	switch t.Origin.Kind {
	case facts.SpawnWaitGroupGo, facts.SpawnErrgroupGo, facts.SpawnHTTPHandler, facts.SpawnSubtest, facts.SpawnRunParallel, facts.SpawnFuzz:
		return true
	}
	for _, ev := range t.Events {
		switch ev.Kind {
		case shb.Send, shb.Recv, shb.Close, shb.WGDone:
			return true
		}
	}
	return false
}
