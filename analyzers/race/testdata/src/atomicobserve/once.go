package main

import (
	"sync"
	"sync/atomic"
)

// A flag that starts at zero and is only ever set to something else
// (each of its writes stores a constant other than zero) is found at
// zero by one operation alone: the CompareAndSwap(&s, 0, 1) that
// swapped, or the Swap(&s, 1) that returned zero. What the branch that
// won dominates runs once, in one goroutine: a Close that any number of
// goroutines may call tears down once.
type conn struct {
	closed  int32
	stopped atomic.Bool
	done    uint32
	reset   int32
	buf     []byte
	out     []byte
	pending []byte
	spare   []byte
}

// Close wins the flag directly.
func (c *conn) Close() {
	if !atomic.CompareAndSwapInt32(&c.closed, 0, 1) {
		return
	}
	c.buf = nil // silent "runs-once"
}

// Stop wins it by a Swap of a typed atomic that returned false.
func (c *conn) Stop() {
	if c.stopped.Swap(true) {
		return
	}
	c.out = nil // silent "runs-once"
}

// Finish wins it one call away, through a method that returns the
// CompareAndSwap's result.
func (c *conn) setDone() bool { return atomic.CompareAndSwapUint32(&c.done, 0, 1) }

func (c *conn) Finish() {
	if !c.setDone() {
		return
	}
	c.pending = nil // silent "runs-once"
}

// Rearm wins a flag that Reopen sets back to zero: two goroutines may
// each find it at zero, one after the other's Reopen. Reported.
func (c *conn) Rearm() {
	if !atomic.CompareAndSwapInt32(&c.reset, 0, 1) {
		return
	}
	c.spare = nil // want `data race on conn.spare`
}

func (c *conn) Reopen() { atomic.StoreInt32(&c.reset, 0) }

func closeMany() {
	c := &conn{buf: make([]byte, 1), out: make([]byte, 1), pending: make([]byte, 1), spare: make([]byte, 1)}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Close()
			c.Stop()
			c.Finish()
			c.Rearm()
			c.Reopen()
		}()
	}
	wg.Wait()
}

func init() { closeMany() }

// Each connection's flag is won once, but the connections are many and
// their pool is one: two connections closing at once both update it.
// The block runs once for each connection, not once for the pool.
// Reported.
type pool struct{ active int }

type pconn struct {
	closed int32
	p      *pool
}

func (c *pconn) Close() {
	if !atomic.CompareAndSwapInt32(&c.closed, 0, 1) {
		return
	}
	c.p.active-- // want `data race on pool.active`
}

func newPconn(p *pool) *pconn { return &pconn{p: p} }

func closePooled() {
	p := &pool{active: 2}
	var conns []*pconn
	for range 2 {
		conns = append(conns, newPconn(p))
	}
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Close()
		}()
	}
	wg.Wait()
}

func init() { closePooled() }
