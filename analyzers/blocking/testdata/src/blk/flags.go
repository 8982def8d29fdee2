package main

import "sync"

// A scheduler runs its loop on a goroutine of its own once started; its
// methods talk to the loop only where running says it runs, and work
// on the jobs themselves before that.
type scheduler struct {
	mu      sync.Mutex
	running bool
	jobs    []int
	add     chan int
	stop    chan struct{}
}

func newScheduler() *scheduler {
	return &scheduler{add: make(chan int), stop: make(chan struct{})}
}

func (s *scheduler) Start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running {
		return
	}
	s.running = true
	go s.run()
}

func (s *scheduler) run() {
	for {
		select {
		case j := <-s.add:
			s.jobs = append(s.jobs, j)
		case <-s.stop:
			return
		}
	}
}

// Add sends to the loop only where running reads true, set right before
// go s.run(): silent.
func (s *scheduler) Add(j int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.running {
		s.jobs = append(s.jobs, j)
	} else {
		s.add <- j // silent "running-flag"
	}
}

func (s *scheduler) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running {
		s.stop <- struct{}{}
		s.running = false
	}
}

// A poller's loop runs on the goroutine that calls Run, which sets
// active before it calls the loop.
type poller struct {
	mu     sync.Mutex
	active bool
	reqs   chan int
}

func (p *poller) Run() {
	p.mu.Lock()
	p.active = true
	p.mu.Unlock()
	p.loop()
}

func (p *poller) loop() {
	for r := range p.reqs {
		println(r)
	}
}

// Request sends only where active reads true, which Run sets right
// before it calls the loop: silent.
func (p *poller) Request(r int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.active {
		p.reqs <- r // silent "running-flag"
	}
}

// A mailbox's open says only that Open was called, not that the loop
// runs: Serve starts it.
type mailbox struct {
	mu   sync.Mutex
	open bool
	in   chan int
}

func (m *mailbox) Open() {
	m.mu.Lock()
	m.open = true
	m.mu.Unlock()
}

func (m *mailbox) Serve() { go m.loop() }

func (m *mailbox) loop() {
	for v := range m.in {
		println(v)
	}
}

func (m *mailbox) Post(v int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.open {
		m.in <- v // want `send blocks forever: goroutine started at partners.go:\d+ sends on m.in \(made at flags.go:\d+, unbuffered\) before it starts any goroutine that receives from it \(the first at flags.go:\d+\)`
	}
}

// A ticker's loop leaves when told to stop. Stop clears running,
// holding the mutex, right after it told the loop: Reset, which sends
// only where running reads true, holding that mutex, finds the loop
// still there: silent.
type ticker struct {
	mu      sync.Mutex
	running bool
	reset   chan int
	stop    chan struct{}
}

func (k *ticker) Start() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.running = true
	go k.loop()
}

func (k *ticker) loop() {
	for {
		select {
		case d := <-k.reset:
			println(d)
		case <-k.stop:
			return
		}
	}
}

func (k *ticker) Reset(d int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.running {
		k.reset <- d // silent "running-flag"
	}
}

func (k *ticker) Stop() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.running {
		k.stop <- struct{}{}
		k.running = false
	}
}

// A timer's Stop tells the loop to stop but leaves running set: a
// Reset after it sends to a loop that has left: reported.
type timer struct {
	mu      sync.Mutex
	running bool
	reset   chan int
	stop    chan struct{}
}

func (m *timer) Start() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.running = true
	go m.loop()
}

func (m *timer) loop() {
	for {
		select {
		case d := <-m.reset:
			println(d)
		case <-m.stop:
			return
		}
	}
}

func (m *timer) Reset(d int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.running {
		m.reset <- d // want `send blocks forever once its receiver has returned: goroutine started at partners.go:\d+ sends on m.reset \(made at flags.go:\d+, unbuffered\), whose only receiver, goroutine started at flags.go:\d+, receives in a loop that it may leave \(when it receives from m.stop\)`
	}
}

func (m *timer) Stop() {
	m.stop <- struct{}{}
}

// flagged adds before it starts, as a scheduler's user may.
func flagged() {
	s := newScheduler()
	s.Add(1)
	s.Start()
	s.Stop()

	p := &poller{reqs: make(chan int)}
	p.Request(1)
	go p.Run()

	m := &mailbox{in: make(chan int)}
	m.Open()
	m.Post(1)
	m.Serve()

	k := &ticker{reset: make(chan int), stop: make(chan struct{})}
	k.Start()
	k.Stop()
	k.Reset(1)

	tm := &timer{reset: make(chan int), stop: make(chan struct{})}
	tm.Start()
	tm.Stop()
	tm.Reset(1)
}
