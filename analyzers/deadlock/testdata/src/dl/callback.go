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
	c.mu.Lock()
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
