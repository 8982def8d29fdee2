// Package future checks the future pattern: a leader fills an object
// and closes the channel in one of its fields; a joiner that found the
// object under a mutex waits on that channel and reads the object
// through the same value. The objects of every leader are one abstract
// object, and the joiner's receive names them all, but a joiner that
// reads this object waited on this object's channel, which only its
// leader closes, after its writes.
package main

import "sync"

type call struct {
	ready chan struct{}
	val   int
	note  int
	kick  chan struct{}
}

type group struct {
	mu  sync.Mutex
	cur *call
}

// do makes the leader's call or joins the current one: the joiner's
// read of val after <-c.ready is silent.
func (g *group) do(f func() int) int {
	g.mu.Lock()
	if c := g.cur; c != nil {
		g.mu.Unlock()
		<-c.ready
		return c.val // silent "future"
	}
	c := &call{ready: make(chan struct{}), kick: make(chan struct{}, 1)}
	g.cur = c
	g.mu.Unlock()
	c.val = f()
	close(c.ready)
	g.mu.Lock()
	g.cur = nil
	g.mu.Unlock()
	return c.val
}

// poke's channel is sent on as well as closed: a receive from it may
// return before the writer's close, so its read races.
func (g *group) poke() int {
	g.mu.Lock()
	if c := g.cur; c != nil {
		g.mu.Unlock()
		<-c.kick
		return c.note
	}
	c := &call{ready: make(chan struct{}), kick: make(chan struct{}, 1)}
	g.cur = c
	g.mu.Unlock()
	c.kick <- struct{}{}
	c.note = 1 // want `data race on call.note`
	close(c.kick)
	return 0
}

type result struct {
	ready chan struct{}
	err   int
}

type rgroup struct {
	mu  sync.Mutex
	cur *result
}

// doGuarded's leader closes ready after writing err at the end, or, when
// f panics, in its deferred function: each write is followed by a close
// on every path, and a channel is closed once. Silent.
func (g *rgroup) doGuarded(f func() int) int {
	g.mu.Lock()
	if r := g.cur; r != nil {
		g.mu.Unlock()
		<-r.ready
		return r.err // silent "future"
	}
	r := &result{ready: make(chan struct{})}
	g.cur = r
	g.mu.Unlock()
	panicked := true
	defer func() {
		if panicked {
			r.err = -1
			close(r.ready)
		}
	}()
	r.err = f()
	panicked = false
	close(r.ready)
	return r.err
}

// doLate's leader writes err after it closed ready, and closes it again
// only on one path: the joiner may read err at once. Reported.
func (g *rgroup) doLate(f func() int) int {
	g.mu.Lock()
	if r := g.cur; r != nil {
		g.mu.Unlock()
		<-r.ready
		return r.err
	}
	r := &result{ready: make(chan struct{})}
	g.cur = r
	g.mu.Unlock()
	close(r.ready)
	r.err = f() // want `data race on result.err`
	if r.err > 0 {
		close(r.ready)
	}
	return r.err
}

func main() {
	rg := &rgroup{}
	for range 2 {
		go rg.doGuarded(func() int { return 1 })
	}
	lg := &rgroup{}
	for range 2 {
		go lg.doLate(func() int { return 1 })
	}
	g := &group{}
	done := make(chan bool)
	for range 2 {
		go func() {
			g.do(func() int { return 1 })
			g.poke()
			done <- true
		}()
	}
	<-done
	<-done
	co := &coalescer{}
	for range 2 {
		go func() {
			release := co.gather(func() func() { return func() {} })
			defer release()
			if f := co.peek(); f != nil {
				f()
			}
		}()
	}
}

// cycle is a gather that every caller may lead or join, as in
// promhttp's coalescing gatherer: the leader fills it and closes ready
// on every path after its write; joiners wait on ready. The release
// function reads done when it runs, after the value it was made from
// was waited for, or closed by the leader itself.
type cycle struct {
	ready chan struct{}
	done  func()
	refs  int
}

type coalescer struct {
	mu  sync.Mutex
	cur *cycle
}

func (c *coalescer) gather(f func() func()) func() {
	c.mu.Lock()
	if cy := c.cur; cy != nil {
		cy.refs++
		c.mu.Unlock()
		<-cy.ready
		return c.release(cy)
	}
	cy := &cycle{ready: make(chan struct{}), refs: 1}
	c.cur = cy
	c.mu.Unlock()
	// If f panics, the joiners must not wait forever. The deferred
	// function captures cy: cy lives in memory, read by each use.
	panicked := true
	defer func() {
		if panicked {
			close(cy.ready)
		}
	}()
	cy.done = f() // want `data race on cycle.done: write at future.go:\d+ \(goroutine started at future.go:\d+, in a loop\) vs read at future.go:220 `
	panicked = false
	close(cy.ready)
	return c.release(cy)
}

func (c *coalescer) release(cy *cycle) func() {
	return func() {
		c.mu.Lock()
		cy.refs--
		last := cy.refs == 0
		if last && c.cur == cy {
			c.cur = nil
		}
		c.mu.Unlock()
		if last {
			cy.done() // silent "future"
		}
	}
}

// peek hands out a function that reads done of the current cycle
// without waiting for it to be ready: reported (at the leader's write).
func (c *coalescer) peek() func() {
	c.mu.Lock()
	cy := c.cur
	c.mu.Unlock()
	if cy == nil {
		return nil
	}
	return c.early(cy)
}

func (c *coalescer) early(cy *cycle) func() {
	return func() {
		cy.done()
	}
}
