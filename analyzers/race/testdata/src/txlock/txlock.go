// Package txlock checks a lock held from a function that returns
// holding it exactly where its error is nil (bbolt's beginRWTx) to the
// function that releases it later (the transaction's Commit): the
// caller holds it on the branch where the error it got is nil, also
// through a wrapper that passes the results on (Begin).
package main

import (
	"errors"
	"sync"
)

var errClosed = errors.New("closed")

type DB struct {
	rw     sync.Mutex
	tx     *Tx
	n      int
	seen   int
	closed bool
}

type Tx struct{ db *DB }

func (db *DB) beginRW() (*Tx, error) {
	db.rw.Lock()
	if db.closed {
		db.rw.Unlock()
		return nil, errClosed
	}
	t := &Tx{db: db}
	db.tx = t
	return t, nil
}

// Begin passes beginRW's results on for a write transaction, through
// named results and a deferred function.
func (db *DB) Begin(write bool) (t *Tx, err error) {
	defer func() {
		if err != nil {
			println(err.Error())
		}
	}()
	if write {
		return db.beginRW()
	}
	return &Tx{}, nil
}

func (t *Tx) Commit() {
	t.db.tx = nil
	t.db.rw.Unlock()
}

// Update holds rw from Begin(true) to Commit: silent.
func (db *DB) Update() error {
	t, err := db.Begin(true)
	if err != nil {
		return err
	}
	db.n++    // silent "common-lock"
	db.seen++ // reported with View's write, at its line
	t.Commit()
	return nil
}

// Direct calls beginRW itself, and tests the error the other way round.
func (db *DB) Direct() error {
	t, err := db.beginRW()
	if err == nil {
		db.n += 2 // silent "common-lock"
		t.Commit()
	}
	return err
}

// View begins a read transaction, which holds nothing: its write races.
func (db *DB) View() error {
	_, err := db.Begin(false)
	if err != nil {
		return err
	}
	db.seen = 0 // want `data race on DB.seen`
	return nil
}

func main() {
	db := &DB{}
	go db.Update()
	go db.Direct()
	go db.View()
	db.Update()
}
