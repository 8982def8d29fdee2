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

// runSet is the set of runs of the tests trace that may have started a
// goroutine; nil when something other than a sequential test may have.
type runSet map[int]bool

// testRuns returns, for each origin, the runs of the sequential tests'
// root trace that may start it, directly or through its ancestors, or
// nil when something else may start it.
func testRuns(hb *shb.Result) (*shb.Trace, map[*pointer.Origin]runSet) {
	var tests *shb.Trace
	for _, t := range hb.Traces {
		if t.Entries != nil && t.Origin.Kind == 0 && t.Origin.Root == "tests" {
			tests = t
		}
	}
	if tests == nil {
		return nil, nil
	}
	// spawners lists, for each origin, the traces and events that start it.
	type spawn struct {
		t  *shb.Trace
		id int32
	}
	spawners := make(map[*pointer.Origin][]spawn)
	for _, t := range hb.Traces {
		for _, ev := range t.Events {
			if ev.Kind == shb.Spawn {
				for _, o := range ev.Spawned {
					spawners[o] = append(spawners[o], spawn{t, ev.ID})
				}
			}
		}
	}
	runs := make(map[*pointer.Origin]runSet)
	state := make(map[*pointer.Origin]int8) // 1: in progress, 2: done
	var visit func(o *pointer.Origin) runSet
	visit = func(o *pointer.Origin) runSet {
		switch state[o] {
		case 1:
			return runSet{} // a cycle adds nothing its other starters do not
		case 2:
			return runs[o]
		}
		state[o] = 1
		set := runSet{}
		for _, s := range spawners[o] {
			if s.t == tests {
				set[tests.Run(s.id)] = true
				continue
			}
			parent := visit(s.t.Origin)
			if parent == nil {
				set = nil
				break
			}
			for r := range parent {
				set[r] = true
			}
		}
		if len(spawners[o]) == 0 || !waitable(hb.TraceOf(o)) {
			set = nil // a root, started where no trace shows it, or a fire and forget
		}
		state[o], runs[o] = 2, set
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
	for r, in := range a {
		if in && b[r] {
			return false
		}
	}
	return true
}

// outside reports whether only tests other than run start o.
func (c *checker) outside(o *pointer.Origin, run int) bool {
	set := c.runsOf(o)
	return set != nil && run >= 0 && run < len(set) && !set[run]
}

// runsOf returns, by run of the tests trace, whether it may start o;
// nil when something else may start o. Asked of every pair of events,
// it is a slice by origin ID, made once.
func (c *checker) runsOf(o *pointer.Origin) []bool {
	if c.runSlices == nil {
		c.runSlices = make([][]bool, len(c.ptr.Origins))
		for origin, set := range c.runs {
			if set == nil || origin.ID >= len(c.runSlices) {
				continue
			}
			in := make([]bool, len(c.tests.Entries))
			for r := range set {
				if r >= 0 && r < len(in) {
					in[r] = true
				}
			}
			c.runSlices[origin.ID] = in
		}
	}
	if o.ID >= len(c.runSlices) {
		return nil
	}
	return c.runSlices[o.ID]
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
