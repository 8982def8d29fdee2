// Package xlib is imported by xuse: its functions' locks and accesses
// reach the race analysis of its importer through facts.
package xlib

import "sync"

// Counter is safe when used through Inc and Value, not through Bump.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Inc increments under the counter's lock.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Value reads under the lock, released by a deferred call.
func (c *Counter) Value() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Bump increments without the lock.
func (c *Counter) Bump() {
	c.n++
}

// Lock and Unlock make the counter's mutex the caller's to hold: a lock
// helper that returns locked.
func (c *Counter) Lock()   { c.mu.Lock() }
func (c *Counter) Unlock() { c.mu.Unlock() }

// Set writes p.X through a helper in this package.
func Set(p *Point, v int) { setX(p, v) }

func setX(p *Point, v int) { p.X = v }

// Point is plain data.
type Point struct{ X, Y int }

// Table is a map guarded by a read-write mutex.
type Table struct {
	mu sync.RWMutex
	M  map[string]int
}

// Get reads the map holding the lock for reading.
func (t *Table) Get(k string) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.M[k]
}

// Put writes the map holding the lock.
func (t *Table) Put(k string, v int) {
	t.mu.Lock()
	t.M[k] = v
	t.mu.Unlock()
}

// PutUnlocked writes the map and forgets the lock.
func (t *Table) PutUnlocked(k string, v int) {
	t.M[k] = v
}
