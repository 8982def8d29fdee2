// Package main checks states claimed for the run of a function (rule
// claimed-state): holding a mutex, a function finds a state field
// outside a set of values and stores one of them, and only the store it
// defers takes the field out of the set again. Two goroutines never
// hold claims on one field at once: what each does holding its claim
// is ordered as if a mutex guarded it ("Serve called twice: the second
// panics").
package main

import (
	"errors"
	"sync"
)

type state int

const (
	idle state = iota
	serving
	paused
	done
)

// A supervisor whose Serve refuses to run twice at once: the state
// claimed is serving or paused, its loop may move it between the two,
// and the deferred literal sets it done.
type supervisor struct {
	mu       sync.Mutex
	state    state
	failures int
	queue    []int
}

func (s *supervisor) Serve() {
	s.mu.Lock()
	if s.state == serving || s.state == paused {
		s.mu.Unlock()
		panic("already serving")
	}
	s.state = serving
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.state = done
		s.mu.Unlock()
	}()
	s.queue = append(s.queue, 1) // silent "claimed-state"
	s.fail()
}

// fail runs in Serve's claim, one call down, and moves the state within
// the set.
func (s *supervisor) fail() {
	s.failures++ // silent "claimed-state"
	if s.failures > 3 {
		s.mu.Lock()
		s.state = paused
		s.mu.Unlock()
	}
}

var errRunning = errors.New("running")

// A server whose Run returns an error while another runs: a bool flag,
// released by a deferred method.
type server struct {
	mu      sync.Mutex
	running bool
	conns   map[int]bool
}

func (s *server) Run() error {
	s.mu.Lock()
	if s.running {
		s.mu.Unlock()
		return errRunning
	}
	s.running = true
	s.mu.Unlock()
	defer s.release()
	s.conns[1] = true // silent "claimed-state"
	return nil
}

func (s *server) release() {
	s.mu.Lock()
	s.running = false
	s.mu.Unlock()
}

// Its twins: a worker that lets its claim go before it counts, and a
// pump whose state Stop sets idle from outside any claim, so that a
// second Pump may claim it while the first runs: reported.
type worker struct {
	mu    sync.Mutex
	busy  bool
	count int
}

func (w *worker) Do() {
	w.mu.Lock()
	if w.busy {
		w.mu.Unlock()
		return
	}
	w.busy = true
	w.mu.Unlock()
	w.mu.Lock()
	w.busy = false
	w.mu.Unlock()
	w.count++ // want `data race on worker.count`
}

type pump struct {
	mu    sync.Mutex
	state state
	rate  int
}

func (p *pump) Pump() {
	p.mu.Lock()
	if p.state == serving {
		p.mu.Unlock()
		return
	}
	p.state = serving
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.state = done
		p.mu.Unlock()
	}()
	p.rate++ // want `data race on pump.rate`
}

func (p *pump) Stop() {
	p.mu.Lock()
	p.state = idle
	p.mu.Unlock()
}

// A runner that defers its release before its test: a Run that fails to
// claim releases another's claim on its way out, and a third Run claims
// while the first still runs: reported.
type runner struct {
	mu      sync.Mutex
	running bool
	n       int
}

func (r *runner) Run() error {
	defer r.stop()
	r.mu.Lock()
	if r.running {
		r.mu.Unlock()
		return errRunning
	}
	r.running = true
	r.mu.Unlock()
	r.n++ // want `data race on runner.n`
	return nil
}

func (r *runner) stop() {
	r.mu.Lock()
	r.running = false
	r.mu.Unlock()
}

func main() {
	s := &supervisor{}
	go s.Serve()
	go s.Serve()
	srv := &server{conns: map[int]bool{}}
	go srv.Run()
	go srv.Run()
	w := &worker{}
	go w.Do()
	go w.Do()
	p := &pump{}
	go p.Pump()
	go p.Pump()
	go p.Stop()
	rn := &runner{}
	for range 3 {
		go rn.Run()
	}
}
