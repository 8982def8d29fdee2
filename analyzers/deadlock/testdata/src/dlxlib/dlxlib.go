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

// Remove locks the store only when needLock.
func (s *Store) Remove(i int, needLock bool) {
	if needLock {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	s.data = s.data[:i]
}

// Len locks the store unless the caller has the lock.
func (s *Store) Len(hasLock bool) int {
	if !hasLock {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	return len(s.data)
}

// RemoveLocked is for callers holding the lock: it passes false.
func (s *Store) RemoveLocked(i int) { s.Remove(i, false) }

// RemoveAs forwards its caller's choice.
func (s *Store) RemoveAs(i int, lock bool) { s.Remove(i, lock) }

// Index is read-mostly: its readers and its writer lock inside.
type Index struct {
	rw   sync.RWMutex
	keys []string
}

// RLock and RUnlock let callers hold the index for reading.
func (x *Index) RLock()   { x.rw.RLock() }
func (x *Index) RUnlock() { x.rw.RUnlock() }

// Size read-locks the index.
func (x *Index) Size() int {
	x.rw.RLock()
	defer x.rw.RUnlock()
	return len(x.keys)
}

// Clear write-locks the index.
func (x *Index) Clear() {
	x.rw.Lock()
	x.keys = nil
	x.rw.Unlock()
}

// Put leaves the store locked when v is negative: a lock left held,
// which its importer's next Lock waits for.
func (s *Store) Put(v int) bool {
	s.mu.Lock()
	if v < 0 {
		return false
	}
	s.data = append(s.data, v)
	s.mu.Unlock()
	return true
}

// Hold locks the store and, past its early return, hands its caller the
// Unlock to call: no lock left held, for its importers either.
func (s *Store) Hold(v int) func() {
	s.mu.Lock()
	if v < 0 {
		s.mu.Unlock()
		return func() {}
	}
	return s.mu.Unlock // silent "lock-helper"
}

// Commit locks the store and, past its early return, hands the
// function that unlocks it to finish, which calls it once the work is
// through: no lock left held, for its importers either.
func (s *Store) Commit(v int, finish func(done func())) {
	if v < 0 {
		return
	}
	s.mu.Lock()
	finish(func() { s.mu.Unlock() })
} // silent "lock-helper"

// PutAll unlocks on every path.
func (s *Store) PutAll(v int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v < 0 {
		return false
	}
	s.data = append(s.data, v)
	return true
}

// Each calls f for each value while holding the store's lock.
func (s *Store) Each(f func(int)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.data {
		f(v)
	}
}
