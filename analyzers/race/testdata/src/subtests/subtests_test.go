// Package subtests checks t.Run: subtests without t.Parallel run one at
// a time, even in a loop; parallel subtests run together.
package subtests

import (
	"sync"
	"testing"
)

type state struct{ cur int }

func TestSequential(t *testing.T) {
	var s state
	for i := range 3 {
		t.Run("case", func(t *testing.T) {
			s.cur = i // silent "subtests-wait"
		})
	}
	_ = s.cur
}

func TestParallel(t *testing.T) {
	var s state
	for i := range 3 {
		t.Run("case", func(t *testing.T) {
			t.Parallel()
			s.cur = i // want `data race on s.cur`
		})
	}
}

// Two parallel tests run at once: their writes race.
var both state

func TestParallelFirst(t *testing.T) {
	t.Parallel()
	both.cur = 1 // want `data race on both.cur`
}

func TestParallelSecond(t *testing.T) {
	t.Parallel()
	both.cur = 2
}

// A parallel test's sequential subtests, as in a table-driven test:
// t.Run waits for each, so the loop's next write of the case comes
// after the subtest that read it, whichever copy of the parallel tests
// the analysis pairs them in.
func TestParallelTable(t *testing.T) {
	t.Parallel()
	var tc state
	for i := range 3 {
		tc.cur = i // silent "subtests-wait"
		t.Run("case", func(t *testing.T) {
			_ = tc.cur
		})
	}
}

// A goroutine that the subtest starts is not waited for by t.Run: the
// next case's write races with it.
func TestParallelTableGo(t *testing.T) {
	t.Parallel()
	var tc state
	for i := range 3 {
		tc.cur = i // want `data race on tc.cur`
		t.Run("case", func(t *testing.T) {
			go func() { _ = tc.cur }()
		})
	}
}

// The same, the cases run by a helper the parallel test calls, each
// case's subtest nested in a sequential group: t.Run waits for each.
func TestParallelTableHelper(t *testing.T) {
	t.Parallel()
	var tc state
	runCases(t, &tc)
}

func runCases(t *testing.T, tc *state) {
	t.Run("group", func(t *testing.T) {
		for i := range 3 {
			tc.cur = i // silent "subtests-wait"
			t.Run("case", func(t *testing.T) {
				_ = tc.cur
			})
		}
	})
}

// A parallel test that alone writes alone runs once: its write, and
// its goroutine's to aloneGo, are not paired with copies of themselves.
var alone, aloneGo state

func TestParallelAlone(t *testing.T) {
	t.Parallel()
	alone.cur = 1 // silent "test-runs-once"
	done := make(chan bool)
	go func() {
		aloneGo.cur = 2 // silent "test-runs-once"
		done <- true
	}()
	<-done
}

// b.RunParallel returns when its bodies are done: the read after it is
// ordered, the locked writes in the bodies exclude each other.
func BenchmarkParallelLocked(b *testing.B) {
	var mu sync.Mutex
	n := 0
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.Lock()
			n++ // silent "common-lock"
			mu.Unlock()
		}
	})
	_ = n // silent "subtests-wait"
}

// The bodies run together: unlocked writes race with each other.
func BenchmarkParallelUnlocked(b *testing.B) {
	n := 0
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			n++ // want `data race on n`
		}
	})
	_ = n
}

// A table of sub-benchmarks, each running parallel bodies that read the
// case the loop set before b.Run: b.Run waits for the sub-benchmark,
// and RunParallel for its bodies, so the next case is set after they
// are done: silent.
var benchCase string

func BenchmarkCases(b *testing.B) {
	for _, name := range []string{"a", "b"} {
		benchCase = name // silent "subtests-wait"
		b.Run(name, func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					_ = len(benchCase)
				}
			})
		})
	}
}

// The same with the sub-benchmark a function of its own, whose parallel
// bodies run in a helper it calls: silent.
var helperCase string

func BenchmarkCasesHelper(b *testing.B) {
	for _, name := range []string{"a", "b"} {
		helperCase = name // silent "subtests-wait"
		b.Run(name, benchHelperCase)
	}
}

func benchHelperCase(b *testing.B) { readParallel(b) }

func readParallel(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_ = len(helperCase)
		}
	})
}

// A goroutine the benchmark starts before the cases and waits for only
// after them reads what the bodies write: RunParallel and b.Run wait for
// the bodies, not for it: reported.
var benchLast string

func BenchmarkCasesWatched(b *testing.B) {
	done := make(chan bool)
	go func() {
		_ = len(benchLast)
		done <- true
	}()
	for _, name := range []string{"a", "b"} {
		b.Run(name, func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					benchLast = name // want `data race on benchLast`
				}
			})
		})
	}
	<-done
}

// runBoth runs two subtests one after the other; each test that calls it
// starts them again, so each subtest is started at two places. They
// still run one at a time: t.Run waits for each.
func runBoth(t *testing.T, s *state) {
	t.Run("first", func(t *testing.T) {
		s.cur = 1 // silent "subtests-wait"
	})
	t.Run("second", func(t *testing.T) {
		s.cur = 2
	})
}

var shared state

func TestBothOnce(t *testing.T)  { runBoth(t, &shared) }
func TestBothTwice(t *testing.T) { runBoth(t, &shared) }

// A goroutine that a subtest starts and does not wait for outlives it:
// t.Run waits for the subtest's function, not for its goroutines.
func runLeaky(t *testing.T, s *state) {
	t.Run("leaky", func(t *testing.T) {
		go func() {
			s.cur = 1 // want `data race on leaky.cur`
		}()
	})
	t.Run("next", func(t *testing.T) {
		s.cur = 2
	})
}

var leaky state

func TestLeakyOnce(t *testing.T)  { runLeaky(t, &leaky) }
func TestLeakyTwice(t *testing.T) { runLeaky(t, &leaky) }
