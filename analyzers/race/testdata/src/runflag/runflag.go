// Package runflag checks a flag that records whether a loop runs on a
// goroutine of its own: code that reads it false, holding the mutex
// that guards it, runs before the loop starts or after it stopped, and
// its accesses are ordered with the loop's. Its types are a library's,
// whose methods its importers may call at any time.
package runflag

import "sync"

// A Scheduler keeps its jobs itself until it starts, then hands them
// to its loop; Stop tells the loop to stop and waits for it to take the
// message before it clears running.
type Scheduler struct {
	mu      sync.Mutex
	running bool
	jobs    []int
	add     chan int
	stop    chan struct{}
}

func NewScheduler() *Scheduler {
	return &Scheduler{add: make(chan int), stop: make(chan struct{})}
}

func (s *Scheduler) Start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running {
		return
	}
	s.running = true
	go s.run()
}

func (s *Scheduler) run() {
	for {
		select {
		case j := <-s.add:
			s.jobs = append(s.jobs, j)
		case <-s.stop:
			return
		}
	}
}

// Add appends itself only where running reads false: before the loop
// starts, or once it stopped: silent.
func (s *Scheduler) Add(j int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.running {
		s.jobs = append(s.jobs, j) // silent "running-flag"
	} else {
		s.add <- j
	}
}

func (s *Scheduler) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running {
		s.stop <- struct{}{}
		s.running = false
	}
}

// count reads the jobs, one call away from the check of running:
// silent.
func (s *Scheduler) count() int { return len(s.jobs) } // silent "running-flag"

func (s *Scheduler) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running {
		return -1
	}
	return s.count()
}

// A Queue's Close clears active without telling the loop to stop: its
// loop may still run when Push reads active false: reported.
type Queue struct {
	mu     sync.Mutex
	active bool
	items  []int
	in     chan int
}

func (q *Queue) Open() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.active = true
	go q.loop()
}

func (q *Queue) loop() {
	for v := range q.in {
		q.items = append(q.items, v) // want `concurrent append: data race on Queue.items: write at runflag.go:\d+ \(goroutine started at runflag.go:\d+\) vs write at runflag.go:\d+ \(concurrent methods\)`
	}
}

func (q *Queue) Push(v int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.active {
		q.items = append(q.items, v)
		return
	}
	q.in <- v
}

func (q *Queue) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.active = false
}
