// Package clonedlocks checks the mutexes of objects that one constructor
// makes: the pointer analysis gives each call site of a constructor its
// own object, but what the objects' methods allocate later is one object
// for all of them. Each store's mutex guards its own table, so the
// mutexes at one field of one constructor's objects count as one lock,
// as they would if the analysis did not tell the calls apart. A mutex
// that each goroutine makes for itself guards nothing another goroutine
// does.
package main

import "sync"

type table struct{ n int }

type store struct {
	mu sync.Mutex
	t  *table
}

func newStore() *store { return &store{} }

// open allocates the table: not a constructor, so one table object for
// every store.
func (s *store) open() { s.t = &table{} }

// put writes the store's table under the store's mutex: silent, though
// the two goroutines below hold the mutexes of two store objects and
// write one table object.
func (s *store) put() {
	s.mu.Lock()
	s.t.n++ // silent "common-lock"
	s.mu.Unlock()
}

func work(s *store, done chan bool) {
	s.put()
	done <- true
}

var hits map[string]int

// record locks a mutex it has just made: each goroutine its own.
func record(k string) {
	var mu sync.Mutex
	mu.Lock()
	hits[k]++ // want `concurrent map access: data race on a map\[string\]int: write at clonedlocks.go:\d+ \(main goroutine\) vs write at clonedlocks.go:\d+ \(goroutine started at clonedlocks.go:\d+\); locks held: \{mu\} vs \{mu\}`
	mu.Unlock()
}

func main() {
	a := newStore()
	a.open()
	b := newStore()
	b.open()
	done := make(chan bool)
	go work(a, done)
	go func() {
		b.put()
		done <- true
	}()
	<-done
	<-done

	hits = make(map[string]int)
	go record("x")
	record("y")
}
