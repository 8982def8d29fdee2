// Package txmode checks a transaction that holds its database's lock
// from Begin to Commit or Rollback, in the mode its writable flag
// chooses (buntdb's Tx): Begin stores the flag in the Tx it makes, and
// the Tx's lock and unlock helpers test that field. A writable
// transaction holds the lock for writing, a read-only one for reading.
package main

import (
	"errors"
	"sync"
)

var errClosed = errors.New("closed")

type DB struct {
	mu     sync.RWMutex
	keys   map[string]int
	buf    []byte
	n      int
	hits   int
	closed bool
}

type Tx struct {
	db       *DB
	writable bool
}

func (db *DB) Begin(writable bool) (*Tx, error) {
	tx := &Tx{db: db, writable: writable}
	tx.lock()
	if db.closed {
		tx.unlock()
		return nil, errClosed
	}
	return tx, nil
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

func (tx *Tx) Commit() error {
	if !tx.writable {
		return errors.New("not writable")
	}
	tx.db.buf = append(tx.db.buf[:0], 'c') // silent "common-lock"
	tx.db.n++                              // silent "common-lock"
	tx.unlock()
	tx.db = nil
	return nil
}

// Rollback undoes a writable transaction's writes: a read-only one,
// which holds mu only for reading, writes nothing.
func (tx *Tx) Rollback() error {
	if tx.writable {
		tx.db.n = 0 // silent "common-lock" "dead-code"
	}
	tx.unlock()
	return nil
}

func (tx *Tx) Get(k string) int { return tx.db.keys[k] }

func (tx *Tx) Set(k string, v int) { tx.db.keys[k] = v } // silent "common-lock"

// Hit writes in any transaction: two read-only ones hold mu only for
// reading, which does not exclude the other.
func (tx *Tx) Hit() { tx.db.hits++ } // want `data race on DB.hits`

func (db *DB) managed(writable bool, fn func(tx *Tx) error) (err error) {
	var tx *Tx
	tx, err = db.Begin(writable)
	if err != nil {
		return
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
			return
		}
		if writable {
			err = tx.Commit()
		} else {
			err = tx.Rollback()
		}
	}()
	err = fn(tx)
	return
}

// snapshot begins a read-only transaction without naming writable: a
// field that nothing sets where the Tx is made is false.
func (db *DB) snapshot() *Tx {
	tx := &Tx{db: db}
	tx.lock()
	return tx
}

// Peek reads in a snapshot, whose Rollback undoes nothing.
func (db *DB) Peek(k string) int {
	tx := db.snapshot()
	defer tx.Rollback()
	return tx.Get(k)
}

func (db *DB) View(fn func(tx *Tx) error) error   { return db.managed(false, fn) }
func (db *DB) Update(fn func(tx *Tx) error) error { return db.managed(true, fn) }

func (db *DB) Close() {
	db.mu.Lock()
	db.closed = true
	db.keys = nil // silent "common-lock"
	db.mu.Unlock()
}

// Store's begin takes its lock in the mode its parameter chooses, and
// its callers hold it from a nil error on, to the deferred end.
type Store struct {
	mu     sync.RWMutex
	rows   []int
	reads  int
	closed bool
}

type Txn struct {
	s     *Store
	write bool
}

func (s *Store) begin(write bool) (*Txn, error) {
	if write {
		s.mu.Lock()
	} else {
		s.mu.RLock()
	}
	if s.closed {
		if write {
			s.mu.Unlock()
		} else {
			s.mu.RUnlock()
		}
		return nil, errClosed
	}
	return &Txn{s: s, write: write}, nil
}

func (t *Txn) end() {
	if t.write {
		t.s.mu.Unlock()
	} else {
		t.s.mu.RUnlock()
	}
}

// Insert holds mu for writing from begin(true) to its deferred end.
func (s *Store) Insert(v int) (err error) {
	t, err := s.begin(true)
	if err != nil {
		return err
	}
	defer t.end()
	s.rows = append(s.rows, v) // silent "common-lock"
	return nil
}

// Count holds mu only for reading: its write races with another
// Count's.
func (s *Store) Count() (n int, err error) {
	t, err := s.begin(false)
	if err != nil {
		return 0, err
	}
	defer t.end()
	s.reads++ // want `data race on Store.reads`
	return len(s.rows), nil
}

func main() {
	db := &DB{keys: map[string]int{}}
	go db.Update(func(tx *Tx) error { tx.Set("a", 1); return nil })
	go db.View(func(tx *Tx) error { tx.Get("a"); tx.Hit(); return nil })
	go db.Update(func(tx *Tx) error { tx.Set("b", 2); return nil })
	go db.View(func(tx *Tx) error { tx.Hit(); return errClosed })
	go db.Peek("a")
	go db.Peek("b")
	db.Close()

	s := &Store{}
	go s.Insert(1)
	go s.Count()
	go s.Insert(2)
	s.Count()
}
