// Package txfield checks a transaction's lock: Begin makes a Tx whose
// writable field its lock helper tests, and returns it holding db.mu
// where it succeeds, for writing when its caller passes true and for
// reading when false; the Tx's unlock, called on what Begin returned,
// releases db.mu by the caller's name for it.
package txfield

import (
	"errors"
	"sync"
)

var errClosed = errors.New("closed")

type DB struct {
	mu     sync.RWMutex
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
		return nil, errClosed // want `return: held \{\}`
	}
	return tx, nil // want `return: held \{p0.0 read\}`
}

func (tx *Tx) lock() {
	if tx.writable {
		tx.db.mu.Lock() // want `Lock: held \{\}`
	} else {
		tx.db.mu.RLock() // want `RLock: held \{\}`
	}
} // want `return: held \{p0.0@.0 read\}`

func (tx *Tx) unlock() {
	if tx.writable {
		tx.db.mu.Unlock() // want `Unlock: held \{\}`
	} else {
		tx.db.mu.RUnlock() // want `RUnlock: held \{\}`
	}
} // want `return: held \{\}`

// update holds db.mu for writing from a successful Begin(true) to the
// deferred unlock.
func update(db *DB) error {
	tx, err := db.Begin(true)
	if err != nil {
		return err // want `defers run: held \{\}` `return: held \{\}`
	}
	defer tx.unlock()
	db.mu.TryLock() // want `TryLock: held \{p0.0\}`
	return nil      // want `defers run: held \{p0.0\}` `return: held \{\}`
}

// view holds it for reading, through a variable a deferred function
// reads too.
func view(db *DB) (err error) {
	var tx *Tx
	tx, err = db.Begin(false)
	if err != nil {
		return err // want `defers run: held \{\}` `return: held \{\}`
	}
	defer func() {
		tx.unlock()
	}() // want `return: held \{\}`
	db.mu.TryRLock() // want `TryRLock: held \{p0.0 read\}`
	return nil       // want `defers run: held \{p0.0 read\}` `return: held \{\}`
}
