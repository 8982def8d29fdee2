// Package testobjects checks that what a test function makes is that
// test's: another test's code, and the goroutines only another test
// starts, reach it through no object of their own, though the pointer
// analysis merges the constructors' objects of every test into one.
package testobjects

import "sync"

// A registry's goroutine reads and updates the nodes it is told of,
// under the lock. It is made by a function that fills the pointer it is
// given (an out parameter), which returns nothing and so is no factory:
// the pointer analysis analyzes it once for all its callers, and every
// test's registry is one object, run by one goroutine.
type node struct {
	addr string
	port int
}

type registry struct {
	mu    sync.Mutex
	nodes map[string]*node
	in    chan string
}

func newRegistry() *registry {
	var r *registry
	makeRegistry(&r)
	return r
}

func makeRegistry(out **registry) {
	r := &registry{nodes: make(map[string]*node), in: make(chan string)}
	go r.run()
	*out = r
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

func newCache(h func(string) int) *cache {
	var c *cache
	makeCache(h, &c)
	return c
}

func makeCache(h func(string) int, out **cache) { *out = &cache{hash: h} }

func (c *cache) get(k string) int { return c.hash(k) }

// A session is made by a helper the tests share, not by a test
// function: still, each test's session is its own, and a test's writes
// never meet the goroutine another test's session starts.
type session struct{ user string }

// newSession makes it through an out parameter, as newRegistry does.
func newSession() *session {
	var s *session
	makeSession(&s)
	return s
}

func makeSession(out **session) { *out = &session{} }

func (s *session) watch() { go func() { println(s.user) }() }

// current is the one session of the package: every test that asks
// gets it.
var current *session

func currentSession() *session {
	if current == nil {
		current = &session{}
	}
	return current
}
