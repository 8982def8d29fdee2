package lib // want package:`needlock/lib`

// Package lib locks under boolean parameters; its facts.Locks says under
// which, for needlock/app.

import "sync"

type Store struct {
	mu sync.Mutex
	n  int
}

// Remove locks s.mu when needLock.
func (s *Store) Remove(needLock bool) {
	if needLock {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	s.n--
}

// Get locks s.mu when the caller does not hold it.
func (s *Store) Get(hasLock bool) int {
	if !hasLock {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	return s.n
}

// RemoveLocked never locks: it passes false.
func (s *Store) RemoveLocked() { s.Remove(false) }

// RemoveAs forwards its parameter.
func (s *Store) RemoveAs(lock bool) { s.Remove(lock) }

// Lock and Unlock let callers hold s.mu.
func (s *Store) Lock()   { s.mu.Lock() }
func (s *Store) Unlock() { s.mu.Unlock() }
