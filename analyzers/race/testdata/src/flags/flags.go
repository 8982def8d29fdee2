// Package flags checks a flag set once before the goroutines that test
// it start: every write of the flag stores true, one happens before the
// goroutines start, so the code that runs where its Load returns false
// never runs there.
package main

import (
	"sync"
	"sync/atomic"
)

type nop struct {
	off atomic.Bool
	n   int
}

func (c *nop) run() {
	if c.off.Load() {
		return
	}
	c.n++ // silent "flag-skipped"
}

// Set before the goroutines start: silent.
func setFirst() {
	c := &nop{}
	c.off.Store(true)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.run()
		}()
	}
	wg.Wait()
}

type lateNop struct {
	off atomic.Bool
	n   int
}

func (c *lateNop) run() {
	if !c.off.Load() {
		c.n++ // want `data race on lateNop.n`
	}
}

// Set after the goroutines start: they may count at once.
func setLater() {
	c := &lateNop{}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.run()
		}()
	}
	c.off.Store(true)
	wg.Wait()
}

type toggled struct {
	off atomic.Bool
	n   int
}

func (c *toggled) run() {
	if c.off.Load() {
		return
	}
	c.n++ // want `data race on toggled.n`
}

// Set before, but a goroutine clears it: the others may count at once.
func cleared() {
	c := &toggled{}
	c.off.Store(true)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.off.Store(false)
			c.run()
		}()
	}
	wg.Wait()
}

func main() {
	setFirst()
	setLater()
	cleared()
}
