// Package basic: Lock/Unlock, defer Unlock, RLock, TryLock.
package basic

import "sync"

var (
	mu sync.Mutex
	rw sync.RWMutex
	x  int
)

type T struct {
	mu sync.Mutex
	n  int
}

func plain() {
	mu.Lock() // want `Lock: held {}`
	x++
	mu.Unlock() // want `Unlock: held {g:basic.mu}`
} // want `return: held {}`

// A deferred Unlock releases at the return: the lock is held up to it,
// and the function does not return holding it.
func (t *T) deferred() int {
	t.mu.Lock()         // want `Lock: held {}`
	defer t.mu.Unlock() // want `defer Unlock: held {p0.0}`
	return t.n          // want `defers run: held {p0.0}` `return: held {}`
}

func reader() int {
	rw.RLock()         // want `RLock: held {}`
	defer rw.RUnlock() // want `defer RUnlock: held {g:basic.rw read}`
	return x           // want `defers run: held {g:basic.rw read}` `return: held {}`
}

// A write lock replaces a read lock of the same mutex in the set.
func both() {
	rw.RLock()   // want `RLock: held {}`
	mu.Lock()    // want `Lock: held {g:basic.rw read}`
	rw.RUnlock() // want `RUnlock: held {g:basic.mu, g:basic.rw read}`
	mu.Unlock()  // want `Unlock: held {g:basic.mu}`
} // want `return: held {}`

// TryLock holds the lock on the branch where it returned true.
func try() {
	if mu.TryLock() { // want `TryLock: held {}`
		x++
		mu.Unlock() // want `Unlock: held {g:basic.mu}`
	}
} // want `return: held {}`

// The same with the test negated: go/ssa swaps the branches.
func tryEarly() bool {
	if !rw.TryRLock() { // want `TryRLock: held {}`
		return false // want `return: held {}`
	}
	rw.RUnlock() // want `RUnlock: held {g:basic.rw read}`
	return true  // want `return: held {}`
}

// A call through a function value may release the lock: it stays held
// for protecting accesses, marked unsure.
func unsure(f func()) {
	mu.Lock() // want `Lock: held {}`
	f()
	mu.Unlock() // want `Unlock: held {g:basic.mu unsure}`
} // want `return: held {}`
