// Package needlock: a callee that locks and unlocks only when a boolean
// parameter says so. A call that passes a constant falsifying the
// condition neither takes nor releases the lock, so the caller's lock
// stays held after it; a call that may take it (its own parameter, a
// value the analysis does not know) locks it again, a double lock, and
// unlocks only what it locked: the caller's lock stays held after it
// too.
package needlock

import "sync"

var g sync.Mutex

type S struct {
	mu sync.Mutex
	n  int
}

// remove locks s.mu under needLock.
func (s *S) remove(needLock bool) {
	if needLock {
		s.mu.Lock()         // want `Lock: held {}`
		defer s.mu.Unlock() // want `defer Unlock: held {p0.0}`
	}
	s.n--
} // want `defers run: held {}` `return: held {}`

// Passes false: s.mu is still held after the call.
func (s *S) purge() {
	s.mu.Lock() // want `Lock: held {}`
	s.remove(false)
	g.Lock()      // want `Lock: held {p0.0}`
	g.Unlock()    // want `Unlock: held {g:needlock.g, p0.0}`
	s.mu.Unlock() // want `Unlock: held {p0.0}`
} // want `return: held {}`

// Passes true: remove takes s.mu again and releases that.
func (s *S) purgeLocking() {
	s.mu.Lock() // want `Lock: held {}`
	s.remove(true)
	g.Lock()   // want `Lock: held {p0.0}`
	g.Unlock() // want `Unlock: held {g:needlock.g, p0.0}`
} // want `return: held {p0.0}`

// removeAs forwards its parameter.
func (s *S) removeAs(lock bool) { s.remove(lock) } // want `return: held {}`

// Through the wrapper, with false: still held.
func (s *S) purgeVia() {
	s.mu.Lock() // want `Lock: held {}`
	s.removeAs(false)
	s.mu.Unlock() // want `Unlock: held {p0.0}`
} // want `return: held {}`

// A value not known here: remove may take s.mu again, and releases only
// that.
func (s *S) purgeMaybe(lock bool) {
	s.mu.Lock() // want `Lock: held {}`
	s.removeAs(!lock)
	g.Lock()   // want `Lock: held {p0.0}`
	g.Unlock() // want `Unlock: held {g:needlock.g, p0.0}`
} // want `return: held {p0.0}`
