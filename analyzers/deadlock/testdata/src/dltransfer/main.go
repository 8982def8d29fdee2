// Package main holds lock transfers: a goroutine that unlocks a mutex
// its starter locked takes the lock over (prometheus'
// summary.asyncFlush). The starter and its callers no longer hold it;
// the goroutine holds it until its Unlock.
package main

import "sync"

func main() {
	s := new(summary)
	s.observe()
	go s.observe()
	s.maybeFlush(true)
	s.relock()

	p := new(pair)
	p.handOff()
	go p.reverse()
}

type summary struct {
	mtx sync.Mutex
	n   int
}

func (s *summary) asyncFlush() {
	s.mtx.Lock()
	go func() {
		s.n = 0
		s.mtx.Unlock()
	}()
}

// Locking again after asyncFlush waits for the flush: no double lock.
func (s *summary) observe() {
	s.asyncFlush()
	s.mtx.Lock() // silent "lock-handover"
	s.n++
	s.mtx.Unlock()
}

// The lock is handed over on one path, unlocked on the other: not
// left held.
func (s *summary) maybeFlush(full bool) {
	s.mtx.Lock()
	if full {
		go func() {
			s.n = 0
			s.mtx.Unlock()
		}()
		return // silent "lock-handover"
	}
	s.n++
	s.mtx.Unlock()
}

// The goroutine locks again after it released the starter's lock.
func (s *summary) relock() {
	s.mtx.Lock()
	go func() {
		s.n = 0
		s.mtx.Unlock()
		s.mtx.Lock() // silent "not-held"
		s.n++
		s.mtx.Unlock()
	}()
}

// The goroutine takes b while holding a, which its starter handed it;
// reverse takes a while holding b.
type pair struct {
	a, b sync.Mutex
	n    int
}

func (p *pair) handOff() {
	p.a.Lock()
	go func() {
		p.b.Lock() // want `lock order inversion: p.b is locked at main.go:79 while holding p.a \(goroutine started at main.go:78\), and the same two mutexes are taken in the opposite order at main.go:88 \(goroutine started at main.go:18\)`
		p.n++
		p.b.Unlock()
		p.a.Unlock()
	}()
}

func (p *pair) reverse() {
	p.b.Lock()
	p.a.Lock() // the other side of the deadlock: a related position of the report
	p.n++
	p.a.Unlock()
	p.b.Unlock()
}
