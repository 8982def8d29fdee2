// Package helpers: a callee that returns with a lock held, and a callee
// that unlocks: the caller applies their effect, renamed to its own
// keys (the callee's receiver p0 is the caller's argument).
package helpers

import "sync"

var g sync.Mutex

type S struct {
	mu sync.Mutex
	n  int
}

// lock returns with s.mu held: its acquires are {p0.0}.
func (s *S) lock() { s.mu.Lock() } // want `Lock: held {}` `return: held {p0.0}`

// unlock releases s.mu: locksets are local, so nothing is held in it.
func (s *S) unlock() {
	s.mu.Unlock() // want `Unlock: held {}`
} // want `return: held {}`

func (s *S) inc() {
	s.lock()
	g.Lock() // want `Lock: held {p0.0}`
	s.n++
	s.unlock()
	g.Unlock() // want `Unlock: held {g:helpers.g}`
} // want `return: held {}`

// lockOther locks the mutex of its argument, not of its receiver: the
// caller's key is the argument's.
func (s *S) lockOther(o *S) { o.lock() } // want `return: held {p1.0}`

func pair(a, b *S) {
	a.lockOther(b)
	g.Lock()   // want `Lock: held {p1.0}`
	g.Unlock() // want `Unlock: held {g:helpers.g, p1.0}`
	b.unlock()
} // want `return: held {}`
