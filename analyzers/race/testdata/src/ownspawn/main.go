// Package main checks methods that set their object up and then start a
// goroutine on it: the goroutine reads its own receiver, which the
// method wrote before the go statement, when every call of the method
// is on an object made for that call, though the pointer analysis
// merges the objects of all calls.
package main

import "sync"

type reader struct {
	done  chan struct{}
	name  string
	tally *tally
}

func (r *reader) start() {
	r.done = make(chan struct{})
	r.name = "reader" // silent "not-published": before the go statement publishes the call's own reader
	r.tally = newTally()
	go r.run()
}

func (r *reader) run() {
	println(r.name)
	r.tally.n++ // silent "twins": the readers' goroutines, told apart only by their reader, are one to the analysis
	close(r.done)
}

// tally is each reader's own, but newTally, which every start calls,
// makes one object for them all to the pointer analysis.
type tally struct{ n int }

func newTally() *tally { return &tally{} }

type peer struct{ msg, app *reader }

// startPeer makes each reader for the call that starts it: silent.
func startPeer(id int) *peer {
	p := &peer{}
	go func() { println(p, id) }()
	p.msg = &reader{}
	p.app = &reader{}
	p.msg.start()
	p.app.start()
	return p
}

type worker struct{ n int }

func (w *worker) start() {
	w.n++ // want `data race on worker.n: write at main.go:\d+ \(main goroutine\) vs read at main.go:\d+ \(goroutine started at main.go:\d+\)`
	go w.loop()
}

func (w *worker) loop() { println(w.n) }

// restart starts the same worker twice: the second start writes what
// the first goroutine reads.
func restart() {
	w := &worker{}
	w.start()
	w.start()
}

func main() {
	a, b := startPeer(1), startPeer(2)
	<-a.msg.done
	<-b.app.done
	for range 2 {
		r := &reader{}
		r.start()
		<-r.done
	}
	restart()
	lazy()
	lazyRestarted()
}

// syncer starts its flush loop on first use, once: each call of start
// reads s.started false holding s.mu, start sets it true before the
// mutex is released, and nothing sets it false (zap's
// BufferedWriteSyncer). start's writes before its go statement happen
// before the loop's reads, whichever goroutine ran start.
type syncer struct {
	mu      sync.Mutex
	started bool
	size    int
	ticks   chan int
}

func (s *syncer) start() {
	s.size = 64                 // silent "own-spawn"
	s.ticks = make(chan int, 1) // silent "own-spawn"
	s.started = true
	go s.flush()
}

func (s *syncer) flush() {
	for n := range s.ticks {
		println(s.size, n)
	}
}

// Write starts the loop where the flag reads false.
func (s *syncer) Write(p []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.started {
		s.start()
	}
	s.ticks <- len(p)
}

// Sync returns early where the flag reads true.
func (s *syncer) Sync() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return
	}
	s.start()
}

func lazy() {
	s := &syncer{}
	go s.Write(nil)
	go s.Sync()
	s.Write([]byte("x"))
	p := &pinger{}
	go p.Ping()
	p.Ping()
}

// pinger's start makes a function literal that captures the receiver:
// go/ssa keeps p in a variable of its own and loads it at each use, and
// start's flag, its go statement and its callers' receivers are that
// one value still.
type pinger struct {
	mu      sync.Mutex
	started bool
	every   int
	pings   chan int
	stop    func()
}

func (p *pinger) start() {
	p.every = 10                // silent "own-spawn"
	p.pings = make(chan int, 1) // silent "own-spawn"
	p.stop = func() { close(p.pings) }
	p.started = true
	go p.loop()
}

func (p *pinger) loop() {
	for n := range p.pings {
		println(p.every, n)
	}
}

func (p *pinger) Ping() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.started {
		p.start()
	}
	p.pings <- 1
}

// restarter's Stop clears the flag: start may run again on the same
// object, and its writes race with the loop the first run started.
type restarter struct {
	mu      sync.Mutex
	started bool
	size    int
}

func (r *restarter) start() {
	r.size = 64 // want `data race on restarter.size`
	r.started = true
	go r.loop()
}

func (r *restarter) loop() { println(r.size) }

func (r *restarter) Write() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.started {
		r.start()
	}
}

func (r *restarter) Stop() {
	r.mu.Lock()
	r.started = false
	r.mu.Unlock()
}

func lazyRestarted() {
	r := &restarter{}
	go r.Write()
	r.Stop()
	r.Write()
}
