// Package transfer: a goroutine that unlocks a mutex its starter locked
// takes the lock over (prometheus' summary.asyncFlush). Its accesses up
// to its Unlock hold the lock; its accesses after it, and the starter's
// after the go statement, do not.
package main

import "sync"

func main() {
	s := new(summary)
	for range 3 {
		s.observe(1)
	}
	go s.observe(2)
	go s.read()

	l := new(late)
	l.flush()
	go l.locked()

	p := new(parent)
	p.flush()
}

type summary struct {
	mtx      sync.Mutex
	hot      []float64
	cold     []float64
	count    int
	flushing bool
}

func (s *summary) swapBufs() { s.hot, s.cold = s.cold, s.hot }

func (s *summary) flushColdBuf() {
	for _, v := range s.cold {
		s.count += int(v) // silent "common-lock"
	}
	s.cold = s.cold[:0] // silent "common-lock"
	s.flushing = false
}

// asyncFlush holds s.mtx until the flush finishes: the flush goroutines
// (one per call) write s.cold and s.count under it.
func (s *summary) asyncFlush() {
	s.mtx.Lock()
	s.swapBufs()
	s.flushing = true
	go func() {
		s.flushColdBuf()
		s.mtx.Unlock()
	}()
}

func (s *summary) observe(v float64) {
	s.mtx.Lock()
	s.hot = append(s.hot, v)
	s.mtx.Unlock()
	s.asyncFlush()
}

func (s *summary) read() int {
	s.mtx.Lock()
	defer s.mtx.Unlock()
	return s.count + len(s.cold) + len(s.hot)
}

// The goroutine writes n after it released the lock.
type late struct {
	mu sync.Mutex
	n  int
}

func (l *late) flush() {
	l.mu.Lock()
	go func() {
		l.n = 1 // silent "common-lock"
		l.mu.Unlock()
		l.n = 2 // want `data race on late.n: write at main.go:79 \(goroutine started at main.go:76\) vs write at main.go:85 \(goroutine started at main.go:19\); locks held: {} vs {l.mu}`
	}()
}

func (l *late) locked() {
	l.mu.Lock()
	l.n++
	l.mu.Unlock()
}

// The starter writes n after the go statement without locking again:
// it no longer holds the lock.
type parent struct {
	mu sync.Mutex
	n  int
}

func (p *parent) flush() {
	p.mu.Lock()
	p.n = 1 // silent "not-published": main made p, and before the go statement the starter holds p.mu too
	go func() {
		p.n++
		p.mu.Unlock()
	}()
	p.n = 3 // want `data race on parent.n: write at main.go:103 \(main goroutine\) vs write at main.go:100 \(goroutine started at main.go:99\); locks held: {} vs {p.mu}`
}
