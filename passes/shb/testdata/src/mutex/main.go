// Package mutex: locksets on events.
//
// Memory model (sync): "For any sync.Mutex or sync.RWMutex variable l
// and n < m, call n of l.Unlock() is synchronized before call m of
// l.Lock() returns." shb leaves Unlock → Lock to locksets: expected, no
// edge but the spawn edge. Accesses between Lock and Unlock hold the
// mutex (including the caller's lock inside an inlined callee, and the
// read lock of an RLock), the acquire events hold what was held before
// them, and accesses outside hold nothing.
package main

import "sync"

type counter struct {
	mu sync.Mutex
	n  int
}

var (
	c  counter
	rw sync.RWMutex
	m  = map[int]int{}
)

func (c *counter) incLocked() { c.n++ }

func main() {
	go child()
	c.mu.Lock()
	c.incLocked()
	c.mu.Unlock()
	rw.RLock()
	_ = m[1]
	rw.RUnlock()
}

func child() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n = 2
	rw.Lock()
	m[1] = 1
	rw.Unlock()
}
