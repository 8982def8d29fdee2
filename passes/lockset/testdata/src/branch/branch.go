// Package branch: must-held locksets meet by intersection where paths
// join.
package branch

import "sync"

var mu, mu2 sync.Mutex
var rw sync.RWMutex

// Only one path locks mu: after the join it is not held.
func maybe(c bool) {
	if c {
		mu.Lock() // want `Lock: held {}`
	}
	mu2.Lock()   // want `Lock: held {}`
	mu2.Unlock() // want `Unlock: held {g:branch.mu2}`
	if c {
		mu.Unlock() // want `Unlock: held {}`
	}
} // want `return: held {}`

// Both paths lock mu: it is held after the join.
func both(c bool) {
	if c {
		mu.Lock() // want `Lock: held {}`
	} else {
		mu.Lock() // want `Lock: held {}`
	}
	mu.Unlock() // want `Unlock: held {g:branch.mu}`
} // want `return: held {}`

// One path write-locks rw, the other read-locks it: held for reading.
func mixed(c bool) {
	if c {
		rw.Lock() // want `Lock: held {}`
	} else {
		rw.RLock() // want `RLock: held {}`
	}
	mu.Lock()   // want `Lock: held {g:branch.rw read}`
	mu.Unlock() // want `Unlock: held {g:branch.mu, g:branch.rw read}`
} // want `return: held {g:branch.rw read}`

// A lock taken in a loop body and released in it is not held at the
// loop head.
func loop(n int) {
	for i := 0; i < n; i++ {
		mu.Lock()   // want `Lock: held {}`
		mu.Unlock() // want `Unlock: held {g:branch.mu}`
	}
} // want `return: held {}`
