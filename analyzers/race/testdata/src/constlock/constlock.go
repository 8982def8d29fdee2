// Package main checks locks that a boolean parameter decides ("if lock
// { s.mu.Lock(); defer s.mu.Unlock() }"): a call that passes a constant,
// or a parameter its own caller gave one, runs only the branch that
// value selects, so the access below holds the mutex in a call that
// passes true, and holds what the caller holds in one that passes false.
package main

import "sync"

type Store struct {
	mu     sync.Mutex
	m      map[string]int
	n      int
	hits   int
	drops  int
	total  int
	aborts int
}

// remove locks when asked to.
func (s *Store) remove(k string, lock bool) {
	if lock {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	delete(s.m, k) // silent "common-lock"
	s.n--          // silent "common-lock"
}

// Remove asks it to.
func (s *Store) Remove(k string) { s.remove(k, true) }

// Reset holds the mutex and says so.
func (s *Store) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.remove("x", false)
}

// del forwards its own flag, one call further.
func (s *Store) del(k string, lock bool) { s.remove(k, lock) }

// Delete passes true through del.
func (s *Store) Delete(k string) { s.del(k, true) }

// count locks unless told that its caller holds the mutex.
func (s *Store) count(hasLock bool) {
	if !hasLock {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	s.hits++ // silent "common-lock"
}

// Put holds the mutex.
func (s *Store) Put(k string, v int) {
	s.mu.Lock()
	s.m[k] = v
	s.n++
	s.count(true)
	s.mu.Unlock()
}

// drop says it holds the mutex, and Drop calls it without: the
// constant is wrong, and the race real.
func (s *Store) drop(hasLock bool) {
	if !hasLock {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	s.drops++ // want `data race on Store.drops`
}

func (s *Store) Drop() { s.drop(true) }

func (s *Store) Count() {
	s.count(false)
	s.drop(false)
}

func main() {
	s := &Store{m: map[string]int{}}
	go s.Remove("a")
	go s.Put("a", 1)
	go s.Reset()
	go s.Delete("b")
	go s.Count()
	go s.Drop()
	go s.View()
	go s.Commit()
	go s.View()
	go s.Abort()
	go s.Close()
}

// finish's deferred literal tests the flag it captures: View passes
// false, and its goroutine never counts; Commit passes true holding the
// mutex.
func (s *Store) finish(commit bool) {
	defer func() {
		if commit {
			s.total++ // silent "dead-code"
		}
	}()
}

func (s *Store) View() { s.finish(false) }

func (s *Store) Commit() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.finish(true)
}

// end passes true without the mutex: the count races with Commit's.
func (s *Store) end(abort bool) {
	defer func() {
		if !abort {
			s.aborts++ // want `data race on Store.aborts`
		}
	}()
}

func (s *Store) Abort() { s.end(false) }

func (s *Store) Close() {
	s.mu.Lock()
	s.end(false)
	s.mu.Unlock()
	s.end(true)
}
