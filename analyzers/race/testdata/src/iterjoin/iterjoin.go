// Package iterjoin checks loops that start goroutines in each iteration
// and join them before the iteration ends: the goroutines of one
// iteration never run at once with the loop's code outside the window
// between their go statement and the join, whichever iteration that
// code is in, nor with their own runs in other iterations.
package main

import "sync"

// Conn reconnects in a loop; each connection's reader and writer run
// until the connection ends, and the loop waits for both (a WaitGroup
// declared in the loop body) before it dials again.
type Conn struct {
	conn    *int
	timeout int
	zxid    int
	pending int
	seen    int
}

func (c *Conn) dial(n int) {
	v := n
	c.conn = &v // silent "joined-per-iteration"
	c.timeout = n * 2
}

func (c *Conn) loop(n int) {
	for i := range n {
		c.dial(i)
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			_ = *c.conn + c.timeout
		}()
		go func() {
			defer wg.Done()
			c.zxid++      // silent "joined-per-iteration"
			c.pending = 0 // want `data race on Conn.pending: write at iterjoin.go:39 \(goroutine started at iterjoin.go:36, in a loop\) vs read at iterjoin.go:41`
		}()
		_ = c.pending
		wg.Wait()
		c.seen = c.zxid
	}
}

// Pump joins its one goroutine by a receive of the done channel each
// iteration makes, after the goroutine's write.
type Pump struct{ buf []int }

func (p *Pump) run(rounds int) {
	for r := range rounds {
		p.buf = make([]int, r) // silent "joined-per-iteration"
		done := make(chan struct{})
		go func() {
			p.buf = append(p.buf, r)
			close(done)
		}()
		<-done
	}
}

// Early joins only on the path that did not continue: a goroutine of an
// iteration that continued may still run when the next dials.
type Early struct{ state int }

func (e *Early) run(n int) {
	for i := range n {
		e.state = i // want `data race on Early.state`
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = e.state
		}()
		if i%2 == 0 {
			continue
		}
		wg.Wait()
	}
}

func main() {
	go new(Conn).loop(3)
	go new(Pump).run(3)
	go new(Early).run(3)
}
