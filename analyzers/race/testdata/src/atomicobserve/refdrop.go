package main

import (
	"sync"
	"sync/atomic"
)

// A reference count released by the decrement that finds it at most
// zero, as many release it (if n := s.ref.Add(-1); n > 0 { return }):
// a count that reached zero is counted neither down nor up again, so at
// most zero is zero, and one decrement alone gets there. The frees
// after it run once: silent, written with the typed atomic and a
// greater-than guard, and with the function and n <= 0. (The counts
// are set by an Add: a Store would be a write the countdown cannot
// claim to have seen.)
type list struct {
	ref   atomic.Int32
	refs  int32
	arena []byte
	head  *int
}

func (l *list) decrRef() {
	if n := l.ref.Add(-1); n > 0 {
		return
	}
	l.arena = nil // silent "runs-once"
}

func (l *list) drop() {
	if atomic.AddInt32(&l.refs, -1) <= 0 {
		l.head = nil // silent "runs-once"
	}
}

// Freeing once the count is at most one frees while another holder
// is still there, and both decrements may find it so: reported.
func (l *list) early() {
	if n := l.ref.Add(-1); n > 1 {
		return
	}
	l.head = new(int) // want `data race on list.head`
}

func refdrop() {
	l := &list{refs: 2, arena: make([]byte, 4)}
	l.ref.Add(2)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.decrRef()
			l.drop()
		}()
	}
	wg.Wait()

	m := &list{}
	m.ref.Add(3)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.early()
		}()
	}
	wg.Wait()
}

func init() { refdrop() }
