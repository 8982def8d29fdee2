// Package dynlocks checks locks taken and released through interface
// methods, in different functions: a transaction that locks its batch
// when it begins and unlocks it when it ends.
package main

import "sync"

// Tx is locked through its methods.
type Tx interface {
	Lock()
	Unlock()
}

type batch struct {
	sync.Mutex
	pending int
}

func (b *batch) Lock()   { b.Mutex.Lock() }
func (b *batch) Unlock() { b.Mutex.Unlock() }

type store struct {
	tx  Tx
	rev int
	gen int
}

type txn struct {
	s  *store
	tx Tx
}

// begin returns holding the batch lock, which end releases.
func (s *store) begin() *txn {
	tx := s.tx
	tx.Lock()
	_ = s.rev
	return &txn{s, tx}
}

func (t *txn) end() {
	t.s.rev++ // silent "common-lock"
	t.tx.Unlock()
}

// endEarly unlocks before it writes.
func (t *txn) endEarly() {
	t.tx.Unlock()
	t.s.gen++ // want `data race on store.gen`
}

func main() {
	s := &store{tx: &batch{}}
	for range 2 {
		go func() {
			t := s.begin()
			t.end()
		}()
	}
	for range 2 {
		go func() {
			t := s.begin()
			t.endEarly()
		}()
	}
}
