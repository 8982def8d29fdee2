package main

import "sync"

// A Lender hands the caller of its lock helpers the function that unlocks:
// returning holding the mutex with its Unlock (a method value, or a
// function literal that unlocks it) among the results leaves nothing
// locked; the caller calls it (defer p.hold(n)()).
type Lender struct {
	mu   sync.Mutex
	rw   sync.RWMutex
	size int
}

// hold returns p.mu's Unlock as a method value.
func (p *Lender) hold(n int) func() {
	p.mu.Lock()
	if n < 0 {
		p.mu.Unlock()
		return func() {}
	}
	p.size += n
	return p.mu.Unlock // silent "lock-helper"
}

// view returns a literal that read-unlocks p.rw.
func (p *Lender) view(n int) func() {
	p.rw.RLock()
	if n < 0 {
		p.rw.RUnlock()
		return func() {}
	}
	return func() { p.rw.RUnlock() } // silent "lock-helper"
}

// leak returns a function that unlocks nothing: p.mu stays locked.
func (p *Lender) leak(n int) func() {
	p.mu.Lock()
	if n < 0 {
		p.mu.Unlock()
		return func() {}
	}
	return func() { p.size = 0 } // want `lock left held: p.mu \(locked at handsunlock.go:\d+\) is still locked when leak returns here, while its other returns unlock it`
}

func useLender() {
	p := &Lender{}
	func() {
		defer p.hold(1)()
		defer p.view(1)()
		p.size++
	}()
	p.leak(1)()
}
