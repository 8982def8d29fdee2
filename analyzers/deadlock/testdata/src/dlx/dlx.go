// Package dlx deadlocks, or not, in another package's function.
package dlx

import "dlxlib"

// Holds the store's lock, then calls Flush, which takes it again.
func flushLocked(s *dlxlib.Store) {
	s.Lock()
	defer s.Unlock()
	s.Flush() // want `double lock: s.mu is held \(locked at dlx.go:\d+\) when this goroutine calls \(\*dlxlib.Store\).Flush, which locks it again \(at dlxlib/dlxlib.go:\d+\)`
}

// Unlocks first: safe.
func flushUnlocked(s *dlxlib.Store) {
	s.Lock()
	s.Unlock()
	s.Flush() // silent "not-held"
}

// Holds the lock and tells Remove and Len so: safe.
func trim(s *dlxlib.Store) {
	s.Lock()
	defer s.Unlock()
	s.Remove(s.Len(true)-1, false) // silent "lock-param"
	s.RemoveLocked(0)
	s.RemoveAs(0, false) // silent "lock-param"
}

// Holds the lock and asks Remove to take it.
func trimLocking(s *dlxlib.Store) {
	s.Lock()
	defer s.Unlock()
	s.Remove(0, true) // want `double lock: s.mu is held \(locked at dlx.go:\d+\) when this goroutine calls \(\*dlxlib.Store\).Remove, which locks it again \(at dlxlib/dlxlib.go:\d+\)`
}

// Holds the lock and says Len must take it.
func lenLocking(s *dlxlib.Store) int {
	s.Lock()
	defer s.Unlock()
	return s.Len(false) // want `double lock: s.mu is held \(locked at dlx.go:\d+\) when this goroutine calls \(\*dlxlib.Store\).Len, which locks it again \(at dlxlib/dlxlib.go:\d+\)`
}

// Through the forwarding wrapper, with true.
func trimViaLocking(s *dlxlib.Store) {
	s.Lock()
	defer s.Unlock()
	s.RemoveAs(0, true) // want `double lock: s.mu is held \(locked at dlx.go:\d+\) when this goroutine calls \(\*dlxlib.Store\).RemoveAs, which locks it again \(at dlxlib/dlxlib.go:\d+\)`
}

// Does not hold the lock: Remove takes it. Safe.
func trimUnlocked(s *dlxlib.Store) { s.Remove(0, true) } // silent "not-held"
