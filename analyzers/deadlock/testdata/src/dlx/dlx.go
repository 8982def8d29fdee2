// Package dlx deadlocks, or not, in another package's function.
package dlx

import "dlxlib"

// Holds the store's lock, then calls Flush, which takes it again.
func flushLocked(s *dlxlib.Store) {
	s.Lock()
	defer s.Unlock()
	s.Flush() // want `double lock: s.mu is held \(locked at dlx.go:\d+\) when this goroutine calls \(\*dlxlib.Store\).Flush, which locks it again \(at dlxlib.go:\d+\)`
}

// Unlocks first: safe.
func flushUnlocked(s *dlxlib.Store) {
	s.Lock()
	s.Unlock()
	s.Flush()
}
