// Package dlxlib locks inside its functions, where its importer dlx
// cannot see but through facts.
package dlxlib

import "sync"

// Store is guarded by its mutex.
type Store struct {
	mu   sync.Mutex
	data []int
}

// Lock and Unlock let callers hold the store's mutex.
func (s *Store) Lock()   { s.mu.Lock() }
func (s *Store) Unlock() { s.mu.Unlock() }

// Flush locks the store.
func (s *Store) Flush() {
	s.mu.Lock()
	s.data = nil
	s.mu.Unlock()
}
