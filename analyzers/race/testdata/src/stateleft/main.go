// Package main checks fields that leave their first value for good,
// under a mutex (rule state-left): every store holds the mutex and
// writes a constant, none the value the field starts with. A critical
// section that read the first value came before the one that stored
// another, so what it did holding the mutex happens before what the
// storing goroutine does after its store: "before Serve, filled
// directly; after, through the loop".
package main

import (
	"context"
	"sync"
)

type state int

const (
	idle state = iota
	running
	stopped
)

// A supervisor whose Add fills its queue directly until Serve runs.
type supervisor struct {
	mu      sync.Mutex
	state   state
	queue   []int
	count   int
	control chan int
}

func (s *supervisor) Add(n int) {
	s.mu.Lock()
	if s.state == idle {
		s.queue = append(s.queue, n) // silent "state-left"
		s.count++                    // silent "state-left"
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	s.control <- n
}

func (s *supervisor) Serve() {
	s.mu.Lock()
	if s.state != idle {
		s.mu.Unlock()
		panic("already serving")
	}
	s.state = running
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.state = stopped
		s.mu.Unlock()
	}()
	for _, n := range s.queue {
		println(n)
	}
	s.queue = nil
	s.count = 0
	for n := range s.control {
		s.run(n)
	}
}

// run is called by Serve's loop: after the store, one call down.
func (s *supervisor) run(n int) {
	s.queue = append(s.queue, n)
}

// A bus whose handlers are added directly until it starts, with a bool
// flag.
type bus struct {
	mu       sync.Mutex
	started  bool
	handlers []func(int)
	events   chan int
}

func (b *bus) Subscribe(h func(int)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.started {
		b.handlers = append(b.handlers, h) // silent "state-left"
	}
}

func (b *bus) Start() {
	b.mu.Lock()
	b.started = true
	b.mu.Unlock()
	for e := range b.events {
		for _, h := range b.handlers {
			h(e)
		}
	}
}

// A tomb made lazily: init makes its channel under the mutex when it is
// still nil, and the methods call init before they read. nil never comes
// back, so the section that found it nil (and set the reason) came
// before any other goroutine's init, which left the channel made: the
// reads after init are ordered after the writes. Peek reads without
// init: reported.
type tomb struct {
	mu     sync.Mutex
	dead   chan struct{}
	reason string
}

func (t *tomb) init() {
	t.mu.Lock()
	if t.dead == nil {
		t.dead = make(chan struct{})
		t.reason = "running" // want `data race on tomb.reason`
	}
	t.mu.Unlock()
}

func (t *tomb) Reason() string {
	t.init()
	return t.reason
}

func (t *tomb) Peek() string { return t.reason }

// The same made inline, with the test and the store in one section: a
// registry's generation, read after the section that made its map.
type registry struct {
	mu  sync.Mutex
	m   map[string]int
	gen int
}

func (r *registry) Gen() int {
	r.mu.Lock()
	if r.m == nil {
		r.m = map[string]int{}
		r.gen++ // silent "state-left"
	}
	r.mu.Unlock()
	return r.gen
}

// Its twins: a pool that goes back to idle when it stops (the first
// value comes back, so a section that read it may come after Run's
// store), and a worker that reads idle under its mutex but writes
// after letting it go: reported.
type pool struct {
	mu    sync.Mutex
	state state
	jobs  []int
}

func (p *pool) Submit(n int) {
	p.mu.Lock()
	if p.state == idle {
		p.jobs = append(p.jobs, n)
	}
	p.mu.Unlock()
}

func (p *pool) Run() {
	p.mu.Lock()
	p.state = running
	p.mu.Unlock()
	p.jobs = p.jobs[:0] // want `concurrent append: data race on pool.jobs`
	p.mu.Lock()
	p.state = idle
	p.mu.Unlock()
}

type worker struct {
	mu    sync.Mutex
	state state
	tasks []int
}

func (w *worker) Push(n int) {
	w.mu.Lock()
	if w.state == idle {
		w.mu.Unlock()
		w.tasks = append(w.tasks, n) // want `concurrent append`
		return
	}
	w.mu.Unlock()
}

func (w *worker) Work() {
	w.mu.Lock()
	w.state = running
	w.mu.Unlock()
	w.tasks = nil
}

// A server whose init, "called with the mutex held", sets a default and
// makes its context where they are still unset: it locks nothing
// itself, but every call of it holds the mutex (Serve's directly,
// ServeConn's one call up, through start), so its sections are the
// callers'. A default that is never zero and a context never nil
// (context.WithCancel's) never go back: the goroutine that found them
// unset came before every other's init, and the reads after it.
type server struct {
	mu       sync.Mutex
	size     int
	closeCtx context.Context
	cancel   context.CancelFunc
}

func (s *server) init() {
	if s.size == 0 {
		s.size = 512 // silent "state-left"
	}
	if s.closeCtx == nil {
		s.closeCtx, s.cancel = context.WithCancel(context.Background()) // silent "state-left"
	}
}

func (s *server) Serve() {
	s.mu.Lock()
	s.init()
	s.mu.Unlock()
	println(s.size, s.closeCtx.Err())
}

func (s *server) ServeConn() {
	s.mu.Lock()
	s.start()
	s.mu.Unlock()
	println(s.size)
}

func (s *server) start() { s.init() }

// Its twin: a setup that one caller, Peek, makes without the mutex: not
// every call holds it, and Peek's write races with Get's read.
type lazyPool struct {
	mu   sync.Mutex
	size int
}

func (p *lazyPool) setup() {
	if p.size == 0 {
		p.size = 8 // want `data race on lazyPool.size`
	}
}

func (p *lazyPool) Get() int {
	p.mu.Lock()
	p.setup()
	p.mu.Unlock()
	return p.size
}

func (p *lazyPool) Peek() int {
	p.setup()
	return p.size
}

func main() {
	s := &supervisor{control: make(chan int)}
	go s.Serve()
	s.Add(1)
	b := &bus{events: make(chan int)}
	go b.Start()
	b.Subscribe(func(int) {})
	p := &pool{}
	go p.Run()
	p.Submit(1)
	w := &worker{}
	go w.Work()
	w.Push(1)
	t := &tomb{}
	go t.Reason()
	go func() { println(t.Reason()) }()
	go func() { println(t.Peek()) }()
	r := &registry{}
	go r.Gen()
	println(r.Gen())
	srv := &server{}
	go srv.Serve()
	go srv.Serve()
	go srv.ServeConn()
	lp := &lazyPool{}
	go lp.Get()
	go lp.Peek()
}
