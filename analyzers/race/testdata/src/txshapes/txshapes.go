// Package txshapes checks a transaction that holds its database's lock
// in the mode its writable flag chooses (see txmode) in three shapes of
// real code (buntdb's):
//   - a Tx method whose function literal captures the transaction:
//     go/ssa keeps tx in a variable the literal shares, and the
//     method's test of tx.writable still decides which calls write;
//   - a helper that hands its callback on to another package's function
//     (strings.IndexFunc): the callback that function calls is the one
//     the helper's caller passed, not every one given to the helper;
//   - a function that sets tx.writable itself (a test forcing the error
//     path): the goroutines that never run it keep the mode Begin gave
//     their transactions.
package main

import (
	"errors"
	"strings"
	"sync"
)

var errReadOnly = errors.New("read-only transaction")

type DB struct {
	mu    sync.RWMutex
	n     int
	m     int
	k     int
	hits  int
	peeks int
}

type Tx struct {
	db       *DB
	writable bool
}

func (db *DB) Begin(writable bool) *Tx {
	tx := &Tx{db: db, writable: writable}
	tx.lock()
	return tx
}

func (tx *Tx) lock() {
	if tx.writable {
		tx.db.mu.Lock()
	} else {
		tx.db.mu.RLock()
	}
}

func (tx *Tx) unlock() {
	if tx.writable {
		tx.db.mu.Unlock()
	} else {
		tx.db.mu.RUnlock()
	}
}

func (db *DB) managed(writable bool, fn func(tx *Tx) error) error {
	tx := db.Begin(writable)
	defer tx.unlock()
	return fn(tx)
}

func (db *DB) View(fn func(tx *Tx) error) error   { return db.managed(false, fn) }
func (db *DB) Update(fn func(tx *Tx) error) error { return db.managed(true, fn) }

// each runs f on the spot.
func each(f func()) { f() }

// Put writes only in a writable transaction, directly and in a literal
// that captures tx: the View that reaches Put through the callbacks
// managed is given returns at the test.
func (tx *Tx) Put() error {
	if !tx.writable {
		return errReadOnly
	}
	tx.db.n++                  // silent "common-lock" "dead-code"
	each(func() { tx.db.m++ }) // silent "common-lock" "dead-code"
	return nil
}

// Mark writes in any transaction: two read-only ones hold mu only for
// reading, which does not exclude the other.
func (tx *Tx) Mark() {
	each(func() { tx.db.hits++ }) // want `data race on DB.hits`
}

// match hands f on to strings.IndexFunc, which calls it.
func match(f func(r rune) bool) bool { return strings.IndexFunc("a/b", f) >= 0 }

// Find only reads in its callback, under the read lock.
func (db *DB) Find() bool {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return match(func(r rune) bool { return r == '/' })
}

// Count writes in its callback under the write lock: a Find's match
// calls Find's callback, not this one, though one goroutine runs both
// and the pointer analysis gives match either.
func (db *DB) Count() bool {
	db.mu.Lock()
	defer db.mu.Unlock()
	return match(func(r rune) bool { db.k++; return false }) // silent "common-lock"
}

// Peek writes in its callback under the read lock only.
func (db *DB) Peek() bool {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return match(func(r rune) bool { db.peeks++; return false }) // want `data race on DB.peeks`
}

// forceReadOnly makes its writable transaction read-only to see Put
// fail, and restores it: only the goroutine that runs it has a Tx whose
// writable is not what Begin made it with.
func forceReadOnly(db *DB) error {
	return db.Update(func(tx *Tx) error {
		tx.writable = false
		err := tx.Put()
		tx.writable = true
		return err
	})
}

func main() {
	db := &DB{}
	put := func(tx *Tx) error { return tx.Put() }
	mark := func(tx *Tx) error { tx.Mark(); return nil }
	go db.Update(put)
	go db.View(put)
	go db.View(mark)
	go db.View(mark)
	both := func() { db.Find(); db.Count() }
	go both()
	go both()
	go db.Peek()
	go db.Peek()
	forceReadOnly(db)
	go db.Update(put)

	// Two goroutines that each force their transaction read-only: in
	// neither is the flag what Begin made it with.
	s := &Store{}
	go s.force()
	s.force()
}

// Store and Txn are DB and Tx again, for the goroutines that set the
// flag themselves.
type Store struct {
	mu  sync.RWMutex
	ops int
}

type Txn struct {
	s        *Store
	writable bool
}

func (t *Txn) lock() {
	if t.writable {
		t.s.mu.Lock()
	} else {
		t.s.mu.RLock()
	}
}

func (t *Txn) unlock() {
	if t.writable {
		t.s.mu.Unlock()
	} else {
		t.s.mu.RUnlock()
	}
}

func (t *Txn) setReadOnly() { t.writable = false }

// force makes a writable Txn read-only before it locks: the write holds
// mu only for reading, in each of the goroutines that run force.
func (s *Store) force() {
	t := &Txn{s: s, writable: true}
	t.setReadOnly()
	t.lock()
	s.ops++ // want `data race on Store.ops`
	t.unlock()
}
