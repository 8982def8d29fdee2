// Package testruns checks that the tests, which run one after the
// other in one goroutine, each work on the objects they make: a
// goroutine that one test starts and leaves running touches that test's
// objects, not the next test's, though they are one abstract object.
package testruns

import "sync"

type server struct {
	cfg int
}

func (s *server) start() {
	s.cfg = 1
	go s.run()
}

func (s *server) run() { println(s.cfg) }

// cache is started by one test and written by the next (see TestE).
type cache struct {
	size int
}

func (c *cache) start() {
	c.size = 1
	go c.run()
}

func (c *cache) run() { println(c.size) }

// A worker's queue is made two constructor calls deep, deeper than the
// pointer analysis tells contexts apart: every worker's queue is one
// object, while each worker's goroutine is its own.
type queue struct{ m map[int]int }

func newQueue() *queue  { return makeQueue() }
func makeQueue() *queue { return &queue{} }
func (q *queue) init()  { q.m = make(map[int]int) }

type worker struct{ q *queue }

func newWorker() *worker {
	w := &worker{q: newQueue()}
	w.q.init()
	go w.run()
	return w
}

func (w *worker) run() { _ = w.q.m[0] }

// pool's size is set by reset before its goroutine starts, and again
// under the lock by recoverPool, once the pool is shared.
type pool struct {
	mu   sync.Mutex
	size int
}

func setUpPool() *pool {
	p := &pool{}
	p.reset()
	go p.run()
	return p
}

func (p *pool) reset() { p.size = 1 }

func (p *pool) run() {
	p.mu.Lock()
	_ = p.size
	p.mu.Unlock()
}

func (p *pool) recoverPool() {
	p.mu.Lock()
	p.reset()
	p.mu.Unlock()
}
