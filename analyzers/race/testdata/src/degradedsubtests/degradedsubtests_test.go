package degradedsubtests

import (
	"sync"
	"testing"
)

// TestSubtestCaches's subtests make a cache each, through the helper
// that the pointer analysis takes for one object: the callback that
// "count" gives its cache writes a map that "count" made, which the
// goroutines of "gets" never reach, though they call their own cache's
// callback; "record" gives its cache a method of a recorder it made.
// Silent.
func TestSubtestCaches(t *testing.T) {
	t.Run("count", func(t *testing.T) {
		t.Parallel()
		seen := make(map[string]int)
		c := newCache(func(k string) int {
			seen[k]++ // silent "subtest-objects"
			return len(k)
		})
		c.get("a")
	})
	t.Run("record", func(t *testing.T) {
		t.Parallel()
		r := &recorder{}
		c := newCache(r.add)
		c.get("b")
		if len(r.keys) != 1 {
			t.Error("not recorded")
		}
	})
	t.Run("gets", func(t *testing.T) {
		t.Parallel()
		c := newCache(func(k string) int { return 0 })
		var wg sync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c.get("y")
			}()
		}
		wg.Wait()
	})
}

// A recorder keeps the keys it is called with.
type recorder struct{ keys []string }

func (r *recorder) add(k string) int {
	r.keys = append(r.keys, k) // silent "subtest-objects"
	return 0
}

// TestSubtestShared's first subtest hands the meter it makes to its
// sibling through a variable of the test that both capture, and marks
// it while the sibling does: reported (a meter is documented as safe
// for concurrent use, evidence that holds with one context).
func TestSubtestShared(t *testing.T) {
	var last *meter
	var mu sync.Mutex
	t.Run("make", func(t *testing.T) {
		t.Parallel()
		m := &meter{}
		mu.Lock()
		last = m
		mu.Unlock()
		m.Mark()
	})
	t.Run("use", func(t *testing.T) {
		t.Parallel()
		mu.Lock()
		m := last
		mu.Unlock()
		if m != nil {
			m.Mark()
		}
	})
}

// A meter counts marks. It is safe for concurrent use.
type meter struct{ n int }

func (m *meter) Mark() {
	m.n++ // want `data race on meter.n`
}

// TestEvictCounts, a parallel test, counts in a map of its own what its
// cache's function is called with, on its own goroutine. The goroutines
// of TestParallelGets, a test that runs before the parallel tests, and
// of TestEvictGets, a parallel test running beside it, call their own
// caches' functions, though every cache is one object to the pointer
// analysis: silent.
func TestEvictCounts(t *testing.T) {
	t.Parallel()
	seen := make(map[string]int)
	c := newCache(func(k string) int {
		seen[k]++ // silent "test-objects"
		return len(k)
	})
	c.get("a")
}

// The same, with what a subtest of a parallel test makes.
func TestEvictSubtest(t *testing.T) {
	t.Parallel()
	t.Run("append", func(t *testing.T) {
		var got []string
		c := newCache(func(k string) int {
			got = append(got, k) // silent "test-objects"
			return 0
		})
		c.get("b")
	})
}

// TestEvictGets's goroutines call its own cache's function at once,
// which appends to its own slice: reported.
func TestEvictGets(t *testing.T) {
	t.Parallel()
	var keys []string
	c := newCache(func(k string) int {
		keys = append(keys, k) // want `concurrent append: data race on keys`
		return 0
	})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.get("y")
		}()
	}
	wg.Wait()
}
