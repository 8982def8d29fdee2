// Package internalapi uses its internal package ring: the calls that
// run at once are its own, and a race through them is reported here,
// at its calls.
package internalapi

import (
	"sync"

	"internalapi/internal/ring"
)

// Pool guards its counter with its own mutex: every call holds p.mu.
// Silent.
type Pool struct {
	mu sync.Mutex
	c  ring.Counter
}

func (p *Pool) Add() {
	p.mu.Lock()
	p.c.Inc()
	p.mu.Unlock()
}

func (p *Pool) Clear() {
	p.mu.Lock()
	p.c.Reset() // silent "common-lock"
	p.mu.Unlock()
}

// Spread resets a counter while the goroutines it starts increment it:
// the module's own concurrent calls of ring's API, reported at the
// call.
func Spread(c *ring.Counter) {
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc()
		}()
	}
	c.Reset() // want `data race on Counter.n: write at ring/ring.go:\d+ \(in \(\*ring.Counter\).Reset, called at internalapi.go:\d+\) \(caller's goroutine\)`
	wg.Wait()
}

// Drain resets the counter one call away, in a goroutine, while it
// increments it: reported at reset's call of Reset.
func Drain(c *ring.Counter) {
	done := make(chan struct{})
	go func() {
		reset(c)
		close(done)
	}()
	c.Inc()
	<-done
}

func reset(c *ring.Counter) {
	c.Reset() // want `data race on Counter.n: write at ring/ring.go:\d+ \(in \(\*ring.Counter\).Reset, called at internalapi.go:\d+\) \(goroutine started at internalapi.go:\d+\)`
}
