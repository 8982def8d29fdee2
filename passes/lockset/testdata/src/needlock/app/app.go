// Package app calls the conditional lockers of needlock/lib: a constant
// argument that skips their lock leaves the caller's lock held, and so
// do other arguments (the callee locks again, and unlocks only that).
package app

import (
	"sync"

	"needlock/lib"
)

var mu sync.Mutex

func purge(s *lib.Store) {
	s.Lock()
	s.Remove(false)
	s.Get(true)
	s.RemoveLocked()
	s.RemoveAs(false)
	mu.Lock()   // want `Lock: held {p0.0}`
	mu.Unlock() // want `Unlock: held {g:needlock/app.mu, p0.0}`
	s.Unlock()
} // want `return: held {}`

func purgeLocking(s *lib.Store) {
	s.Lock()
	s.RemoveAs(true)
	mu.Lock()   // want `Lock: held {p0.0}`
	mu.Unlock() // want `Unlock: held {g:needlock/app.mu, p0.0}`
} // want `return: held {p0.0}`

func getLocking(s *lib.Store, hasLock bool) {
	s.Lock()
	s.Get(hasLock)
	mu.Lock()   // want `Lock: held {p0.0}`
	mu.Unlock() // want `Unlock: held {g:needlock/app.mu, p0.0}`
} // want `return: held {p0.0}`
