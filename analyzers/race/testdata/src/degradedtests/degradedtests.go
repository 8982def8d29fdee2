// Package degradedtests checks, in a package the pointer analysis
// analyzes with one context for all goroutines, that what a test function makes is that
// test's: another test's code, and the goroutines only another test
// starts, reach it through no object of their own, though the pointer
// analysis merges the constructors' objects of every test into one.
package degradedtests

import "sync"

// A registry's goroutine reads and updates the nodes it is told of,
// under the lock. Degraded, the pointer analysis has one context for
// all: every test's registry is one object, run by one goroutine.
type node struct {
	addr string
	port int
}

type registry struct {
	mu    sync.Mutex
	nodes map[string]*node
	in    chan string
}

func newRegistry() *registry { return buildRegistry() }

func buildRegistry() *registry { return makeRegistry() }

func makeRegistry() *registry {
	r := &registry{nodes: make(map[string]*node), in: make(chan string)}
	go r.run()
	return r
}

func (r *registry) run() {
	total := 0
	for name := range r.in {
		r.mu.Lock()
		if n := r.nodes[name]; n != nil {
			total += n.port
			n.addr = name
		}
		r.mu.Unlock()
	}
	println(total)
}

func (r *registry) put(name string, n *node) {
	r.mu.Lock()
	r.nodes[name] = n
	r.mu.Unlock()
}

func (r *registry) lookup(name string) *node {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.nodes[name]
}

// A cache calls the hash function it was made with; every test's cache
// is one object, so its hash is every test's function.
type cache struct {
	hash func(string) int
}

func newCache(h func(string) int) *cache { return buildCache(h) }

func buildCache(h func(string) int) *cache { return makeCache(h) }

func makeCache(h func(string) int) *cache { return &cache{hash: h} }

func (c *cache) get(k string) int { return c.hash(k) }
