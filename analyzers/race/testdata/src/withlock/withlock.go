// Package withlock runs its callers' callbacks holding its lock, or
// after it let it go.
package withlock

import "sync"

// Proc guards a state with its lock.
type Proc struct {
	lock   sync.RWMutex
	closed bool
	runs   int
}

// New makes a Proc.
func New() *Proc { return &Proc{} }

// WithRLock calls fn holding the lock for reading.
func (p *Proc) WithRLock(fn func() error) error {
	p.lock.RLock()
	defer p.lock.RUnlock()
	if p.closed {
		return nil
	}
	return fn()
}

// WithLock calls fn holding the lock.
func (p *Proc) WithLock(fn func() error) error {
	p.lock.Lock()
	defer p.lock.Unlock()
	if p.closed {
		return nil
	}
	return fn()
}

// After counts a run under the lock, then calls fn without it.
func (p *Proc) After(fn func()) {
	p.lock.Lock()
	p.runs++
	p.lock.Unlock()
	fn()
}
