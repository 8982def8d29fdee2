// Package main deadlocks, or not, through locks taken inside another
// package's functions: lock order, blocking while holding, read locks.
package main

import (
	"sync"

	"dlxlib"
)

// ledger posts holding its own lock and then flushes the store, which
// locks the store inside dlxlib; audit takes the two the other way.
type ledger struct {
	mu sync.Mutex
	s  *dlxlib.Store
}

func (l *ledger) post() {
	l.mu.Lock()
	l.s.Flush() // want `lock order inversion: l.s.mu \(by \(\*dlxlib.Store\).Flush, at dlxlib/dlxlib.go:\d+\) is locked at order.go:\d+ while holding l.mu \(goroutine started at order.go:\d+\), and the same two mutexes are taken in the opposite order at order.go:\d+`
	l.mu.Unlock()
}

func (l *ledger) audit() {
	l.s.Lock()
	l.mu.Lock() // the other side of the deadlock: a related position of the report
	l.mu.Unlock()
	l.s.Unlock()
}

// journal takes the two in the same order everywhere: silent.
type journal struct {
	mu sync.Mutex
	s  *dlxlib.Store
}

func (j *journal) post() {
	j.mu.Lock()
	j.s.Flush() // silent "one-order"
	j.mu.Unlock()
}

func (j *journal) audit() {
	j.mu.Lock()
	j.s.Lock() // silent "one-order"
	j.s.Unlock()
	j.mu.Unlock()
}

// relay holds the store's lock while it sends; its receiver must first
// flush the store, which locks it inside dlxlib.
func relay(s *dlxlib.Store) {
	ch := make(chan int)
	go func() {
		s.Flush() // the other side of the deadlock: a related position of the report
		<-ch
	}()
	s.Lock()
	ch <- 1 // want `blocking while holding a lock: goroutine started at order.go:\d+ sends on ch at order.go:\d+ while holding s.mu \(locked at order.go:\d+\); the receive that would unblock it \(at order.go:\d+, goroutine started at order.go:\d+\) must first lock s.mu`
	s.Unlock()
}

// relayFirst's receiver flushes after it receives: silent.
func relayFirst(s *dlxlib.Store) {
	ch := make(chan int)
	go func() {
		<-ch
		s.Flush()
	}()
	s.Lock()
	ch <- 1 // silent "free-partner"
	s.Unlock()
}

// count read-locks the index and asks its size, which read-locks it
// again inside dlxlib, while a writer may be waiting in Clear.
func count(x *dlxlib.Index) int {
	x.RLock()
	defer x.RUnlock()
	return x.Size() // want `recursive read lock: x.rw is read-locked \(at order.go:\d+\) when this goroutine calls \(\*dlxlib.Index\).Size, which read-locks it again \(at dlxlib/dlxlib.go:\d+\); a writer waiting in Lock \(as at order.go:\d+\) between the two blocks both`
}

// countOnce asks the size alone: silent.
func countOnce(x *dlxlib.Index) int { return x.Size() } // silent "not-held"

// refill puts and then flushes: after a Put that returned false, the
// store is still locked, and Flush waits forever.
func refill(s *dlxlib.Store, v int) {
	s.Put(v)
	s.Flush() // want `Lock blocks forever \(deadlock\): s.mu is left locked by \(\*dlxlib.Store\).Put \(lock left held at dlxlib/dlxlib.go:\d+\), called at order.go:\d+ before this Lock, on the paths that return so`
}

// refillAll's PutAll unlocks on every path: silent.
func refillAll(s *dlxlib.Store, v int) {
	s.PutAll(v)
	s.Flush() // silent "not-held"
}

// refillHeld calls the Unlock that Hold hands it before it flushes:
// silent.
func refillHeld(s *dlxlib.Store, v int) {
	s.Hold(v)()
	s.Flush() // silent "not-held"
}

// refillCommitted flushes once Commit's finish called the function
// that unlocks the store: silent.
func refillCommitted(s *dlxlib.Store, v int) {
	s.Commit(v, func(done func()) { go done() })
	s.Flush() // silent "not-held"
}

// copyInto flushes the store it walks from the callback: Each holds
// s.mu while it calls it.
func copyInto(s, dst *dlxlib.Store) {
	s.Each(func(v int) { s.Flush() }) // want `double lock through a function value: \(\*dlxlib.Store\).Each holds s.mu \(locked at dlxlib/dlxlib.go:\d+\) when it calls the function value passed here, which locks it again \(at dlxlib/dlxlib.go:\d+\)`
	s.Each(func(v int) { dst.Put(v) })
}

// No report: settleLocked is called with the store locked (as settle
// does, through dlxlib's Lock) and releases it through dlxlib's Unlock
// before it flushes, which locks it again inside dlxlib: the Unlock
// across the package boundary counts as one in the package, so settle's
// call takes nothing it holds (not even a candidate; before, a double
// lock was reported here).
func settleLocked(s *dlxlib.Store, idle bool) {
	if idle {
		return
	}
	s.Unlock()
	s.Flush()
	s.Lock()
}

func settle(s *dlxlib.Store) {
	s.Lock()
	settleLocked(s, false)
	s.Unlock()
}

// main runs each pair on its own objects.
func main() {
	l := &ledger{s: &dlxlib.Store{}}
	go l.post()
	go l.audit()
	j := &journal{s: &dlxlib.Store{}}
	go j.post()
	go j.audit()
	go relay(&dlxlib.Store{})
	go relayFirst(&dlxlib.Store{})
	go refill(&dlxlib.Store{}, -1)
	go refillAll(&dlxlib.Store{}, -1)
	go refillHeld(&dlxlib.Store{}, 1)
	go refillCommitted(&dlxlib.Store{}, 1)
	go copyInto(&dlxlib.Store{}, &dlxlib.Store{})
	x := &dlxlib.Index{}
	go count(x)
	go countOnce(x)
	go x.Clear() // the other side of the deadlock: a related position of the report
	settle(&dlxlib.Store{})
}
