// Package degradedsubtests checks, analyzed with one context for all
// goroutines, that what a subtest makes is that subtest's run's, and
// what a test makes is that test's whichever root of the tests (the
// sequential tests, a copy of the parallel tests) the other access
// runs in.
package degradedsubtests

// A node is what a subtest hands to its sibling.
type node struct{ port int }

// A cache calls the function it was made with; with one context, every
// cache is one object and its function every test's.
type cache struct {
	hash func(string) int
}

func newCache(h func(string) int) *cache { return &cache{hash: h} }

func (c *cache) get(k string) int { return c.hash(k) }
