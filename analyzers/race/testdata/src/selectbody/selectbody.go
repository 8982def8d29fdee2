// Package selectbody checks the receives of select cases that have a
// body: a case's receive happens where its body starts, so the sender's
// writes happen before what that body does, but not before what runs
// after the select when another case, one that goes on past it too,
// may have been chosen instead.
package main

import (
	"sync"
	"time"
)

type Conn struct {
	mu    sync.Mutex
	index map[int]int
}

func (c *Conn) cleanUp() {
	c.mu.Lock()
	c.index = map[int]int{} // want `data race on Conn.index: write at selectbody.go:20 \(goroutine started at selectbody.go:29\) vs read at selectbody.go:108 \(main goroutine\)`
	c.mu.Unlock()
}

// Disconnect waits for the cleanup, or for a timeout after which it
// goes on without it: the caller's read after Disconnect is ordered
// after the cleanup only on the first path.
func (c *Conn) Disconnect(q int) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(time.Duration(q))
		c.cleanUp()
	}()
	delay := time.NewTimer(time.Duration(q) * time.Millisecond)
	select {
	case <-done:
		if !delay.Stop() {
			<-delay.C
		}
	case <-delay.C:
	}
}

type Closer struct{ state, last int }

// Close waits for its goroutine in the body of the one case that goes
// on; the other case panics, so what follows is ordered.
func (c *Closer) Close(stop chan struct{}) int {
	done := make(chan struct{})
	go func() {
		c.state = 1 // silent "happens-before"
		close(done)
	}()
	select {
	case <-done:
		c.last++
	case <-stop:
		panic("stopped")
	}
	return c.state
}

type Drainer struct{ last int }

// Drain reads in the body of the case that received: ordered after the
// sender's write, though the other case goes on past the select too.
func (c *Drainer) Drain(tick <-chan time.Time) int {
	done := make(chan int)
	go func() {
		c.last = 2 // silent "happens-before"
		done <- 1
	}()
	n := 0
	select {
	case v := <-done:
		n = v + c.last
	case <-tick:
		n = -1
	}
	return n
}

type Looper struct{ state, last int }

// Loop serves two channels; the work case's sender wrote c.state
// before its send, but the tick case's body is not ordered after that
// send: it may run first.
func (c *Looper) Loop(work chan int, tick <-chan time.Time, quit chan struct{}) {
	go func() {
		c.state = 3 // want `data race on Looper.state: write at selectbody.go:90 \(goroutine started at selectbody.go:89\) vs read at selectbody.go:98 \(main goroutine\)`
		work <- 1
	}()
	for {
		select {
		case v := <-work:
			c.last += v
		case <-tick:
			_ = c.state
		case <-quit:
			return
		}
	}
}

func main() {
	c := &Conn{index: map[int]int{}}
	c.Disconnect(500)
	_ = len(c.index)
	_ = new(Drainer).Drain(time.After(time.Second))
	new(Looper).Loop(make(chan int), time.Tick(time.Second), make(chan struct{}))
	_ = new(Closer).Close(make(chan struct{}))
}
