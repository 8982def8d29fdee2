package shb

import (
	"slices"

	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/rules"
)

// The tests of a package run one after the other: "go test" starts a
// Test only when the one before it has returned, and a test that calls
// t.Parallel runs concurrently with the other parallel tests only. The
// root trace of the tests runs them one after the other too (Entries),
// and a goroutine that a test starts and joins (its end happens before
// the test's return: a WaitGroup.Wait, a receive of its last send) ends
// before the next test starts. Such a goroutine and what later tests do
// never run at once (rules.TestsInSequence); one that the test does not
// join on every path (a select that may leave on a timeout, a goroutine
// left running) may run on into the next test. A library's entry points,
// called one after the other in its own program, are runs the same way.
//
// The parallel tests' root has two copies, so that each parallel test
// runs beside every other; a test function still runs once, so the two
// copies of one test's run, and the goroutines only that run starts,
// are one goroutine each (rules.TestRunsOnce).

// The roots of the sequential tests (with benchmarks and fuzz targets)
// and of the tests that call t.Parallel (see pointer's addRoots).
const (
	sequentialTests = "tests"
	parallelTests   = "parallel tests"
)

// runs is, for the roots that run functions one after the other, which
// of their runs start each origin.
type runs struct {
	seqs []*Trace // the roots of runs in sequence: the tests, a library's entry points
	// joined holds, by origin ID, the runs of the one root of seqs it
	// descends from that may start it, when each joins it; nil when
	// another root may start it, or some run may not join it.
	joined []runSet
	// parallel holds the two copies of the parallel tests' root.
	parallel [2]*Trace
	// onlyRun holds, by trace index, the one run of the parallel tests'
	// roots that starts the trace's goroutine, or -1: SameTestRun asks it
	// of every pair of events.
	onlyRun []int32
}

// runSet is a set of runs of a root trace, by index: a bitmap, as
// separateRuns intersects two of them for every pair of accesses (net's
// tests have hundreds of runs: a slice of bools was a quarter of its
// race check).
type runSet []uint64

func newRunSet(n int) runSet { return make(runSet, (n+63)/64) }

func (s runSet) add(r int)      { s[r/64] |= 1 << (r % 64) }
func (s runSet) has(r int) bool { return r >= 0 && r/64 < len(s) && s[r/64]&(1<<(r%64)) != 0 }

// single returns the one run of s, and whether it has exactly one.
func (s runSet) single() (int, bool) {
	run, n := -1, 0
	for i, w := range s {
		for b := range 64 {
			if w&(1<<b) != 0 {
				run, n = i*64+b, n+1
			}
		}
	}
	return run, n == 1
}

// findRuns fills r.runs, asking order whether each goroutine a run
// starts is joined before the run ends.
func (r *Result) findRuns(order *Order) {
	most := 0
	for _, t := range r.Traces {
		o := t.Origin
		if t.Entries == nil || o.Kind != 0 {
			continue
		}
		switch {
		case o.Root == sequentialTests || o.Root == pointer.EntriesRoot:
			r.runs.seqs = append(r.runs.seqs, t)
		case o.Root == parallelTests && o.Copy < 2:
			r.runs.parallel[o.Copy] = t
		default:
			continue
		}
		most = max(most, len(t.Entries))
	}
	if r.runs.seqs == nil && r.runs.parallel[1] == nil {
		return
	}
	spawners := make(map[*pointer.Origin][]spawnAt)
	for _, t := range r.Traces {
		for _, ev := range t.Events {
			if ev.Kind == Spawn {
				for _, o := range t.Spawned(ev.ID) {
					spawners[o] = append(spawners[o], spawnAt{t, ev.ID})
				}
			}
		}
	}
	n := len(r.Traces)
	// startedBy holds, by trace index, the runs of the root the trace's
	// goroutine descends from that may start it (joined or not); nil when
	// something else may.
	r.runs.joined = make([]runSet, n)
	startedBy := make([]runSet, n)
	roots := append(slices.Clone(r.runs.seqs), r.runs.parallel[:]...)
	state := make([]int8, n) // 1: in progress, 2: done
	rootOf := make([]*Trace, n)
	var visit func(t *Trace) runSet
	visit = func(t *Trace) runSet {
		i := t.index
		switch state[i] {
		case 1:
			return newRunSet(most) // a cycle adds nothing its other starters do not
		case 2:
			return startedBy[i]
		}
		state[i] = 1
		set := newRunSet(most)
		var root *Trace
		for _, s := range spawners[t.Origin] {
			from, parent := s.t, runSet(nil)
			if slices.Contains(roots, s.t) {
				if run := s.t.Run(s.id); run >= 0 {
					parent = newRunSet(most)
					parent.add(run)
				}
			} else {
				parent, from = visit(s.t), rootOf[s.t.index]
			}
			if parent == nil || from == nil || root != nil && root != from {
				set = nil
				break
			}
			root = from
			for j, w := range parent {
				set[j] |= w
			}
		}
		if len(spawners[t.Origin]) == 0 {
			set = nil
		}
		if set == nil {
			root = nil
		}
		state[i], rootOf[i], startedBy[i] = 2, root, set
		// Each call of a library's entry point is checked on its own:
		// whether two calls may overlap, with what one left running, is
		// the presumed callers' question (pointer.MethodsRoot), asked
		// only where the code shows sharing; the goroutines a call
		// starts pair with that call alone.
		if root != nil && slices.Contains(r.runs.seqs, root) && (root.Origin.Root == pointer.EntriesRoot || joined(order, t, root, set)) {
			r.runs.joined[i] = set
		}
		return set
	}
	for _, t := range r.Traces {
		if !slices.Contains(roots, t) {
			visit(t)
		}
	}
	r.runs.onlyRun = make([]int32, n)
	for i := range r.Traces {
		r.runs.onlyRun[i] = -1
		if set := startedBy[i]; set != nil && (rootOf[i] == r.runs.parallel[0] || rootOf[i] == r.runs.parallel[1]) {
			if one, ok := set.single(); ok {
				r.runs.onlyRun[i] = int32(one)
			}
		}
	}
}

type spawnAt struct {
	t  *Trace
	id int32
}

// joined reports whether the goroutine of t ends before each run of
// root that may start it (set) returns: its last access or Lock happens
// before the next run's first event (or the root's end). The operation
// that joins it (a Done, a send, a close) is the edge's own source, not
// ordered by it: what comes before it is.
func joined(order *Order, t, root *Trace, set runSet) bool {
	if t.Truncated {
		return false
	}
	last := int32(-1)
	for i := len(t.Events) - 1; i >= 0; i-- {
		if k := t.Events[i].Kind; k == Access || k == Acquire || k == TestReport {
			last = int32(i)
			break
		}
	}
	if last < 0 {
		return true // nothing it does is ordered or races
	}
	for run := range len(root.Entries) {
		if !set.has(run) {
			continue
		}
		end := int32(len(root.Events))
		if run+1 < len(root.Entries) {
			end = root.Entries[run+1]
		}
		if !order.HappensBefore(t, last, root, end, false) {
			return false
		}
	}
	return true
}

// RunsRule returns the rule by which SeparateRuns keeps events of t and
// u apart: calls-apart for a library's entry points, tests-in-sequence
// for the tests.
func (r *Result) RunsRule(t, u *Trace) rules.ID {
	for _, x := range []*Trace{t, u} {
		if x.Origin.Ancestor().Root == pointer.EntriesRoot {
			return rules.CallsApart
		}
	}
	return rules.TestsInSequence
}

// Sequenced reports whether t is a root that runs functions one after
// the other (the sequential tests, a library's entry points), whose
// runs SeparateRuns tells apart by event.
func (r *Result) Sequenced(t *Trace) bool { return t.Entries != nil && slices.Contains(r.runs.seqs, t) }

// SeparateRuns reports whether event x of t and event y of u run in
// goroutines that only different runs of one root of runs in sequence
// start and join (or in that root itself), so that one run's return
// comes between them. Asked of every pair of events: it allocates
// nothing.
func (r *Result) SeparateRuns(t *Trace, x int32, u *Trace, y int32) bool {
	if r.runs.seqs == nil {
		return false
	}
	st, su := r.Sequenced(t), r.Sequenced(u)
	switch {
	case st && su:
		return false // one goroutine, or two programs: not asked here
	case st:
		return r.outside(u, t, t.Run(x))
	case su:
		return r.outside(t, u, u.Run(y))
	}
	a, b := r.runs.joined[t.index], r.runs.joined[u.index]
	if a == nil || b == nil || len(a) != len(b) {
		return false
	}
	for i, w := range a {
		if w&b[i] != 0 {
			return false
		}
	}
	return true
}

// outside reports whether only runs of root other than run start and
// join the goroutine of t.
func (r *Result) outside(t, root *Trace, run int) bool {
	set := r.runs.joined[t.index]
	return set != nil && run >= 0 && run < len(root.Entries) && !set.has(run)
}

// SameTestRun reports whether t and u are the two copies of one run of
// a parallel test, or of a goroutine that only that run starts: a test
// function runs once, so they are one goroutine.
func (r *Result) SameTestRun(t *Trace, x int32, u *Trace, y int32) bool {
	p := r.runs.parallel
	if p[1] == nil {
		return false
	}
	run := func(t *Trace, x int32) (int, int) {
		if t == p[0] || t == p[1] {
			return t.Origin.Copy, t.Run(x)
		}
		if t.index >= int32(len(r.runs.onlyRun)) || r.runs.onlyRun[t.index] < 0 {
			return -1, -1
		}
		return t.Origin.Ancestor().Copy, int(r.runs.onlyRun[t.index])
	}
	ca, ra := run(t, x)
	cb, rb := run(u, y)
	return ca >= 0 && cb >= 0 && ca != cb && ra >= 0 && ra == rb && sameRole(t.Origin, u.Origin)
}

// sameRole reports whether two origins under the two copies of a root
// are the same goroutine of the program text: the same sites all the way
// up to the copies.
func sameRole(a, b *pointer.Origin) bool {
	for a.Parent != nil && b.Parent != nil {
		if a.Site != b.Site || a.Entry != b.Entry || a.Copy != b.Copy {
			return false
		}
		a, b = a.Parent, b.Parent
	}
	return a.Parent == nil && b.Parent == nil
}
