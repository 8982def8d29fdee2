// Package degradedlib is analyzed with a node limit too small for an
// origin per goroutine (TestDegradedRoots). Degraded, each function is
// analyzed once, and which goroutines run it is found by walking the
// calls from each root: from every exported method of a concurrent type,
// not only from the first, which is its group's entry. The race between
// two later methods is still reported, and its locked look-alike stays
// silent. The array that record's append makes is one object for every
// caller once contexts are merged, so the race on its elements is
// withheld, as only what the callers share (the receiver and what it
// reaches) holds without contexts.
package degradedlib

import "sync"

type Counter struct {
	mu    sync.Mutex
	n     int
	total int
	hits  []int
}

// First is the group's entry; it touches nothing.
func (c *Counter) First() {}

func (c *Counter) Add(k int) {
	c.mu.Lock()
	c.n++     // want `data race on Counter.n: write at degradedlib.go:\d+ \(concurrent methods\) vs read at degradedlib.go:\d+ \(concurrent methods\); locks held: \{c.mu\} vs \{\}`
	c.total++ // silent "common-lock"
	c.mu.Unlock()
	c.record(k)
}

func (c *Counter) record(k int) {
	c.mu.Lock()
	c.hits = append(c.hits, k) // want `concurrent append: data race on Counter.hits`
	c.mu.Unlock()
}

// Peek reads n without the mutex Add writes it under.
func (c *Counter) Peek() int { return c.n }

// Last reads the hits without the mutex, one call down.
func (c *Counter) Last() int { return c.last() }

func (c *Counter) last() int {
	if len(c.hits) == 0 {
		return 0
	}
	return c.hits[len(c.hits)-1]
}

func (c *Counter) Total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total
}
