package main

import "sync"

// Status is updated by senders that hold mu while they send, and read
// by a loop that receives and then locks mu: from the loop's second run
// on, the receiver locks mu before it receives (Kubernetes 10182).
type Status struct {
	mu sync.Mutex
	ch chan bool
	n  int
}

func (s *Status) syncLoop() {
	for range 2 {
		<-s.ch
		s.mu.Lock() // the other side of the deadlock: a related position of the report
		s.n++
		s.mu.Unlock()
	}
}

func (s *Status) set() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ch <- true // want `blocking while holding a lock: goroutine started at loops.go:\d+ sends on s.ch at loops.go:\d+ while holding s.mu \(locked at loops.go:\d+\); the receive that would unblock it \(at loops.go:\d+, goroutine started at loops.go:\d+\) runs in a loop that locks s.mu after it \(at loops.go:\d+\): from the loop's second run on it must lock s.mu first, so if this goroutine locks it first, both block forever`
}

func statusTwoSenders() {
	s := &Status{ch: make(chan bool)}
	go s.syncLoop()
	go s.set()
	go s.set()
}

// One sender sends once: the loop's first receive takes it before the
// loop ever locks mu. Silent.
type Once struct {
	mu sync.Mutex
	ch chan bool
	n  int
}

func (s *Once) syncLoop() {
	for range 2 {
		<-s.ch
		s.mu.Lock()
		s.n++
		s.mu.Unlock()
	}
}

func (s *Once) set() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ch <- true // silent "free-partner"
}

func statusOneSender() {
	s := &Once{ch: make(chan bool)}
	go s.syncLoop()
	go s.set()
}

// The loop locks mu only on some runs: the receive may always come
// first. Silent.
type Maybe struct {
	mu sync.Mutex
	ch chan int
	n  int
}

func (s *Maybe) syncLoop() {
	for range 2 {
		if v := <-s.ch; v > 0 {
			s.mu.Lock()
			s.n += v
			s.mu.Unlock()
		}
	}
}

func (s *Maybe) set(v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ch <- v // silent "free-partner"
}

func statusMaybe() {
	s := &Maybe{ch: make(chan int)}
	go s.syncLoop()
	go s.set(1)
	go s.set(0)
}

// A monitor polls stop and, when nothing is sent, probes under mu; the
// sender holds mu while it sends stop: the monitor may be waiting for
// mu in its probe while the sender waits for it at the select (Moby
// 28462).
type Container struct {
	mu   sync.Mutex
	stop chan struct{}
	n    int
}

func (c *Container) monitor() {
	for {
		select {
		case <-c.stop:
			return
		default:
			c.probe()
		}
	}
}

func (c *Container) probe() {
	c.mu.Lock() // the other side of the deadlock: a related position of the report
	defer c.mu.Unlock()
	c.n++
}

func (c *Container) halt() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stop <- struct{}{} // want `blocking while holding a lock: goroutine started at loops.go:\d+ sends on c.stop at loops.go:\d+ while holding c.mu \(locked at loops.go:\d+\); the receive that would unblock it \(at loops.go:\d+, goroutine started at loops.go:\d+\) is a case of a select in a loop whose other way out locks c.mu \(at loops.go:\d+\): if that goroutine is waiting there for c.mu, both block forever`
}

func monitorLocked() {
	c := &Container{stop: make(chan struct{})}
	go c.monitor()
	go c.halt()
}

// The monitor's other way out does not lock, or locks only for some
// values: silent.
type Poller struct {
	mu   sync.Mutex
	stop chan struct{}
	tick chan int
	n    int
}

func (p *Poller) monitor() {
	for {
		select {
		case <-p.stop:
			return
		case v := <-p.tick:
			if v > 10 {
				p.mu.Lock()
				p.n += v
				p.mu.Unlock()
			}
		default:
			p.n--
		}
	}
}

func (p *Poller) halt() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stop <- struct{}{} // silent "free-partner"
}

func monitorFree() {
	p := &Poller{stop: make(chan struct{}), tick: make(chan int)}
	go p.monitor()
	go p.halt()
	p.tick <- 1
}

// relay holds r.mu while it waits for stop; stop is closed by the
// starter once ready is, and ready is closed by a helper after it has
// locked r.mu: if relay locks first, all three wait forever.
type relay struct{ mu sync.Mutex }

func (r *relay) serve(stop chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	<-stop // want `blocking while holding a lock: goroutine started at loops.go:\d+ receives from stop at loops.go:\d+ while holding r.mu \(locked at loops.go:\d+\); the close that would unblock it \(at loops.go:\d+, goroutine started at \S+\) comes after a receive \(at loops.go:\d+\) whose close \(at loops.go:\d+, goroutine started at loops.go:\d+\) must first lock r.mu \(at loops.go:\d+\)`
}

func relays() {
	r := &relay{}
	stop := make(chan struct{})
	defer close(stop)
	go r.serve(stop)
	ready := make(chan struct{})
	go func() {
		r.mu.Lock() // the other side of the deadlock: a related position of the report
		close(ready)
		r.mu.Unlock()
	}()
	<-ready
}

// relayFirst's helper closes ready before it locks: silent.
type relayFirst struct{ mu sync.Mutex }

func (r *relayFirst) serve(stop chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	<-stop // silent "free-partner"
}

func relaysFirst() {
	r := &relayFirst{}
	stop := make(chan struct{})
	defer close(stop)
	go r.serve(stop)
	ready := make(chan struct{})
	go func() {
		close(ready)
		r.mu.Lock()
		r.mu.Unlock()
	}()
	<-ready
}

func init() {
	go relays()
	go relaysFirst()
}
