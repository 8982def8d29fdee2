package lib // want package:`effects/lib`

// Package lib exports lock helpers and a method whose effect importers
// apply through the facts.Effects package fact.

import "sync"

type Counter struct {
	mu sync.Mutex
	n  int
}

// Lock returns with c.mu held.
func (c *Counter) Lock() { c.mu.Lock() }

// Unlock releases c.mu.
func (c *Counter) Unlock() { c.mu.Unlock() }

// Inc locks c.mu around a write of c.n.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Ready is closed by Start.
var Ready = make(chan struct{})

// Start writes c.n, then closes Ready.
func Start(c *Counter) {
	c.n = 1
	close(Ready)
}

func unexported(c *Counter) { c.mu.Lock() }

// ResetAsync hands c.mu, which the caller holds, to a goroutine that
// resets c.n and releases it.
func (c *Counter) ResetAsync() {
	go func() {
		c.n = 0
		c.mu.Unlock()
	}()
}
