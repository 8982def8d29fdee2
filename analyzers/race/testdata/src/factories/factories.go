// Package factories checks goroutines that a constructor starts: each
// call of the constructor starts its own goroutine, on its own object,
// after what the constructor did before its go statement, though the
// tests that call it run one after the other in one goroutine and
// leave the goroutines running.
package factories

import "sync"

type lessor struct {
	mu     sync.RWMutex
	leases map[int]int
	cp     func(int)
	stopC  chan struct{}
	doneC  chan struct{}
}

// NewLessor is a wrapper: its callers' lessors are told apart too.
func NewLessor() *lessor { return newLessor() }

func newLessor() *lessor {
	l := &lessor{stopC: make(chan struct{}), doneC: make(chan struct{})}
	l.recover()
	go l.runLoop()
	return l
}

// recover fills the table before runLoop starts.
func (l *lessor) recover() {
	l.leases = make(map[int]int)
	l.leases[0] = 0 // silent "not-published": newLessor's own lessor, before go l.runLoop()
}

func (l *lessor) runLoop() {
	defer close(l.doneC)
	for {
		l.mu.RLock()
		_ = l.leases[1]
		cp := l.cp
		l.mu.RUnlock()
		if cp != nil {
			cp(1)
		}
		select {
		case <-l.stopC:
			return
		default:
		}
	}
}

func (l *lessor) SetCheckpointer(cp func(int)) {
	l.mu.Lock()
	l.cp = cp
	l.mu.Unlock()
}

// Stop waits for runLoop to end.
func (l *lessor) Stop() {
	close(l.stopC)
	<-l.doneC
}

// pipeline's start is no constructor: its goroutines are told apart by
// the pipeline they run on.
type pipeline struct {
	msgc  chan int
	stopc chan struct{}
	wg    sync.WaitGroup
	mu    sync.Mutex
	sent  int
}

func newPipeline() *pipeline {
	return &pipeline{msgc: make(chan int, 1)}
}

func (p *pipeline) start() {
	p.stopc = make(chan struct{})
	p.wg.Add(2)
	for i := 0; i < 2; i++ {
		go p.handle()
	}
}

func (p *pipeline) handle() {
	defer p.wg.Done()
	for {
		select {
		case <-p.msgc:
			p.mu.Lock()
			p.sent++
			p.mu.Unlock()
		case <-p.stopc:
			return
		}
	}
}

// stop waits for the pipeline's goroutines.
func (p *pipeline) stop() {
	close(p.stopc)
	p.wg.Wait()
}

// server starts its goroutines from a function literal: they are told
// apart by the server the literal captures.
type server struct {
	wg     sync.WaitGroup
	served int
}

func newServer() *server { return &server{} }

func (s *server) goAttach(f func()) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
}

// close waits for the server's goroutines.
func (s *server) close() { s.wg.Wait() }

// notifier calls the callback its setter was given.
type notifier struct {
	mu sync.Mutex
	cb func()
}

func (n *notifier) SetCallback(cb func()) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.cb = cb
}

func (n *notifier) fire() {
	n.mu.Lock()
	cb := n.cb
	n.mu.Unlock()
	if cb != nil {
		cb()
	}
}
