package main

import "sync"

type lessor struct {
	mu sync.Mutex
	cp func()
	n  int
}

func (le *lessor) checkpoint() {
	le.mu.Lock() // want `double lock through a function value: le.mu is locked at callback.go:\d+ while already held by the caller of the function value called at callback.go:\d+`
	le.n++
	le.mu.Unlock()
}

// renew calls the checkpointer holding le.mu, and the checkpointer
// locks it again.
func (le *lessor) renew() {
	le.mu.Lock()
	defer le.mu.Unlock()
	if le.cp != nil {
		le.cp()
	}
}

type counter struct {
	mu   sync.Mutex
	hook func()
	n    int
}

func (c *counter) bump() {
	c.mu.Lock() // silent "not-held"
	c.n++
	c.mu.Unlock()
}

// fire copies the hook and calls it after unlocking: silent.
func (c *counter) fire() {
	c.mu.Lock()
	hook := c.hook
	c.mu.Unlock()
	if hook != nil {
		hook()
	}
}

func callbacks() {
	le := &lessor{}
	le.cp = func() { le.checkpoint() }
	le.renew()

	c := &counter{}
	c.hook = func() { c.bump() }
	c.fire()
}

func init() { go callbacks() }

// A client that a members API calls back through an interface.
type doer interface{ do() }

type cluster struct {
	sync.RWMutex
	api  doer
	eps  int
	seen int
}

func (c *cluster) do() {
	c.RLock() // want `double lock through an interface method: c.RWMutex is read-locked at callback.go:\d+ while already held by the caller of the interface method called at callback.go:\d+ \(goroutine started at callback.go:\d+\); RLock waits while the mutex is held for writing`
	c.RUnlock()
}

type members struct{ client doer }

func (m *members) do() { m.client.do() }

// sync holds the write lock while the members API calls back do.
func (c *cluster) sync() {
	c.Lock()
	defer c.Unlock()
	c.api.do()
}

type reader struct {
	mu  sync.RWMutex
	api doer
}

func (r *reader) do() {
	r.mu.RLock() // silent "read-locks"
	r.mu.RUnlock()
}

// peek holds only a read lock: the read lock in do does not wait for
// it (a writer in between would), silent here.
func (r *reader) peek() {
	r.mu.RLock()
	defer r.mu.RUnlock()
	r.api.do()
}

func interfaces() {
	c := &cluster{}
	c.api = &members{client: c}
	c.sync()
	r := &reader{}
	r.api = &members{client: r}
	r.peek()
}

func init() { go interfaces() }
