// Package main holds one scenario per kind of sequel: a goroutine left
// stuck by another that blocks forever first (here on a double lock that
// the deadlock analyzer reports, or a send this analyzer reports). Each
// reported scenario has a silent twin.
package main

import "sync"

// Pool's grow locks p.mu twice: a goroutine calling it blocks forever
// there (the deadlock analyzer's report), holding p.mu, which another
// goroutine's grow then waits for.
type Pool struct {
	mu sync.Mutex
	n  int
}

func (p *Pool) grow() {
	p.mu.Lock() // want `Lock blocks forever: goroutine started at main.go:\d+, in a loop locks p.mu, which goroutine started at main.go:\d+, in a loop holds while it may block forever at main.go:\d+ \(reported there; locked by this same Lock\)`
	p.resize()
	p.mu.Unlock()
}

func (p *Pool) resize() {
	p.mu.Lock()
	p.n++
	p.mu.Unlock()
}

// growAll waits for workers that deadlock before they call Done.
func growAll(p *Pool) {
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.grow()
		}()
	}
	wg.Wait() // want `WaitGroup.Wait blocks forever: goroutine started at main.go:\d+ waits for wg, and goroutine started at main.go:\d+, in a loop calls Done on it only after main.go:\d+, where it may block forever \(reported there\)`
}

// growAfterDone's worker calls Done before it deadlocks: the Wait
// returns.
func growAfterDone(p *Pool) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		wg.Done()
		p.grow()
	}()
	wg.Wait() // silent "partner"
}

type Pair struct{ a, b sync.Mutex }

func (p *Pair) ab() {
	p.a.Lock()
	p.b.Lock()
	p.b.Unlock()
	p.a.Unlock()
}

func (p *Pair) ba() {
	p.b.Lock()
	p.a.Lock()
	p.a.Unlock()
	p.b.Unlock()
}

// startThenInvert's worker can deadlock only with a goroutine started
// after the Wait returns: the Wait does return.
func startThenInvert(p *Pair) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		for i := 0; ; i++ {
			p.ab()
			if i == 0 {
				wg.Done()
			}
		}
	}()
	wg.Wait() // silent "happens-before"
	go p.ba()
}

// waitGrown's goroutine closes done only after it deadlocks.
func waitGrown(p *Pool) {
	done := make(chan struct{})
	go func() {
		p.grow()
		close(done)
	}()
	<-done // want `receive blocks forever: goroutine started at main.go:\d+ receives from done \(made at main.go:\d+\), but every goroutine that sends on or closes it may block forever before it does: goroutine started at main.go:\d+ at main.go:\d+ \(reported there\)`
}

// closeFirst's goroutine closes done before it deadlocks.
func closeFirst(p *Pool) {
	done := make(chan struct{})
	go func() {
		close(done)
		p.grow()
	}()
	<-done // silent "partner"
}

// eitherSends has a second sender, which nothing stops.
func eitherSends(p *Pool) {
	done := make(chan struct{}, 2)
	go func() {
		p.grow()
		done <- struct{}{}
	}()
	go func() { done <- struct{}{} }()
	<-done // silent "partner"
}

// collect's producer closes results only after it deadlocks: the range
// waits for the close forever.
func collect(p *Pool) {
	results := make(chan int)
	go func() {
		results <- 1
		p.grow()
		close(results)
	}()
	for r := range results { // want `range over channel blocks forever: goroutine started at main.go:\d+ ranges over results \(made at main.go:\d+\), but every goroutine that closes it may block forever before it does`
		_ = r
	}
}

// collectClosed's producer closes results before it deadlocks.
func collectClosed(p *Pool) {
	results := make(chan int)
	go func() {
		results <- 1
		close(results)
		p.grow()
	}()
	for r := range results { // silent "partner"
		_ = r
	}
}

// handOff's receiver deadlocks before it receives.
func handOff(p *Pool) {
	ch := make(chan int)
	go func() {
		p.grow()
		<-ch
	}()
	ch <- 1 // want `send blocks forever: goroutine started at main.go:\d+ sends on ch \(made at main.go:\d+, unbuffered\), but every goroutine that receives from it may block forever before it does`
}

// handOffBuffered's send has room in the buffer.
func handOffBuffered(p *Pool) {
	ch := make(chan int, 1)
	go func() {
		p.grow()
		<-ch
	}()
	ch <- 1 // silent "buffered"
}

type Gate struct {
	mu   sync.Mutex
	cond *sync.Cond
	open bool
}

// openLate's opener deadlocks before it broadcasts.
func openLate(p *Pool) {
	g := &Gate{}
	g.cond = sync.NewCond(&g.mu)
	go func() {
		p.grow()
		g.mu.Lock()
		g.open = true
		g.cond.Broadcast()
		g.mu.Unlock()
	}()
	// The peeker locks g.mu while openLate may wait forever in
	// g.cond.Wait, which unlocks it (a Lock behind Conn's blocked
	// send, below, is reported): silent.
	go func() {
		g.mu.Lock() // silent "wait-unlocks"
		_ = g.open
		g.mu.Unlock()
	}()
	g.mu.Lock()
	for !g.open {
		g.cond.Wait() // want `Cond.Wait blocks forever: goroutine started at main.go:\d+ waits for g.cond, and goroutine started at main.go:\d+ signals it only after main.go:\d+, where it may block forever`
	}
	g.mu.Unlock()
}

// openFirst's opener broadcasts before it deadlocks.
func openFirst(p *Pool) {
	g := &Gate{}
	g.cond = sync.NewCond(&g.mu)
	go func() {
		g.mu.Lock()
		g.open = true
		g.cond.Broadcast()
		g.mu.Unlock()
		p.grow()
	}()
	g.mu.Lock()
	for !g.open {
		g.cond.Wait() // silent "partner"
	}
	g.mu.Unlock()
}

// Conn's write holds c.mu while it sends on c.out, which nothing
// receives from: the writer blocks forever holding the lock.
type Conn struct {
	mu  sync.Mutex
	out chan int
}

func (c *Conn) write(v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.out <- v // want `send blocks forever: goroutine started at main.go:\d+ sends on c.out \(made at main.go:\d+, unbuffered\), which no other goroutine receives from`
}

func (c *Conn) close() {
	c.mu.Lock() // sequel `Lock blocks forever: goroutine started at main.go:\d+ locks c.mu, which goroutine started at main.go:\d+ holds while it may block forever at main.go:\d+ \(reported there; locked at main.go:\d+\)`
	c.out = nil
	c.mu.Unlock()
}

func (c *Conn) reset() {
	c.mu.Lock() // silent "happens-before"
	c.out = make(chan int)
	c.mu.Unlock()
}

// writeThenClose closes while the writer may hold the lock.
func writeThenClose() {
	c := &Conn{out: make(chan int)}
	go c.write(1)
	go c.close()
}

// resetThenWrite resets before the writer starts: its Lock comes first.
func resetThenWrite() {
	c := &Conn{}
	c.reset()
	go c.write(1)
}

// statusManager's syncer receives twice, each time then locking s.mu;
// each setter locks s.mu and sends. One setter can block sending while
// holding s.mu (the deadlock analyzer's report), but not while the other
// still waits to lock it: the syncer's first receive, which comes before
// its Lock, can only be that other setter's send (silent).
type statusManager struct {
	mu sync.Mutex
	ch chan bool
}

func (s *statusManager) start() {
	go func() {
		for i := 0; i < 2; i++ {
			s.syncBatch()
		}
	}()
}

func (s *statusManager) syncBatch() {
	<-s.ch
	s.remove()
}

func (s *statusManager) remove() {
	s.mu.Lock()
	defer s.mu.Unlock()
}

func (s *statusManager) set() {
	s.mu.Lock() // silent "happens-before"
	defer s.mu.Unlock()
	s.ch <- true
}

func setTwice() {
	s := &statusManager{ch: make(chan bool)}
	go s.start()
	go s.set()
	go s.set()
}

func main() {
	go setTwice()
	go growAll(&Pool{})
	go growAfterDone(&Pool{})
	go startThenInvert(&Pair{})
	go waitGrown(&Pool{})
	go closeFirst(&Pool{})
	go eitherSends(&Pool{})
	go collect(&Pool{})
	go collectClosed(&Pool{})
	go handOff(&Pool{})
	go handOffBuffered(&Pool{})
	go openLate(&Pool{})
	go openFirst(&Pool{})
	go writeThenClose()
	go resetThenWrite()
}
