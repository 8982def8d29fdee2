// Package spin checks spin flags (a word set by an atomic swap and stored
// back free) and the names a mutex gets from a field it was stored into.
package spin

import (
	"sync"
	"sync/atomic"
)

type runner struct {
	running uint32
	mu      sync.Mutex
	n       int
}

// Held between a successful swap and the store of free (p0.0 is
// r.running); the mutex calls show it.
func (r *runner) run() {
	if atomic.CompareAndSwapUint32(&r.running, 0, 1) {
		r.mu.Lock()   // want `Lock: held {p0.0}`
		r.mu.Unlock() // want `Unlock: held {p0.0, p0.1}`
		atomic.StoreUint32(&r.running, 0)
		return // want `return: held {}`
	}
} // want `return: held {}`

// A failed swap holds nothing.
func (r *runner) skip() {
	if !atomic.CompareAndSwapUint32(&r.running, 0, 1) {
		return // want `return: held {}`
	}
	r.mu.Lock() // want `Lock: held {p0.0}`
	r.n++
	r.mu.Unlock() // want `Unlock: held {p0.0, p0.1}`
	atomic.StoreUint32(&r.running, 0)
} // want `return: held {}`

type counter struct {
	gate int32
	mu   sync.Mutex
}

// A word that an Add also writes is no flag: nothing is held.
func (c *counter) hit() {
	if atomic.CompareAndSwapInt32(&c.gate, 0, 1) {
		c.mu.Lock()   // want `Lock: held {}`
		c.mu.Unlock() // want `Unlock: held {p0.1}`
		atomic.StoreInt32(&c.gate, 0)
	}
} // want `return: held {}`

func (c *counter) force() { atomic.AddInt32(&c.gate, 1) } // want `return: held {}`

type slot struct{ mu sync.Mutex }

type ring struct {
	slots []slot
	cur   *slot
}

// next returns holding the slot's mutex, also named r.cur.mu: release,
// which unlocks r.cur.mu, releases it in a caller.
func (r *ring) next(i int) {
	s := &r.slots[i]
	r.cur = s
	s.mu.Lock() // want `Lock: held {}`
} // want `return: held {p0.0@\[\].0}`

func (r *ring) release() {
	r.cur.mu.Unlock() // want `Unlock: held {}`
} // want `return: held {}`

func (r *ring) cycle() {
	r.next(0)
	r.release()
	r.slots[1].mu.Lock()   // want `Lock: held {}`
	r.slots[1].mu.Unlock() // want `Unlock: held {p0.0@\[\].0}`
} // want `return: held {}`
