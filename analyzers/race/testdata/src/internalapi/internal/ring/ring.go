// Package ring is an internal package: only the code under internalapi
// can import it, so the callers of its API are internalapi's own code,
// whose goroutines show which calls run at once where internalapi is
// analysed. Its methods are not presumed called concurrently, whatever
// mutex or atomic its types carry, unless a type's documentation says
// it is safe for concurrent use.
package ring

import (
	"sync"
	"sync/atomic"
)

// Counter locks n in Inc and not in Reset: in an exported package,
// inconsistent locking between two callers (libmode's Counter). Here
// its callers are the module's: silent.
type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *Counter) Reset() {
	c.n = 0 // silent "internal-package"
}

// Buffer counts its writes with an atomic and moves its write position
// bare: the caller guards it with its own mutex (a pool's task queue).
type Buffer struct {
	pos    int
	writes atomic.Uint64
}

func (b *Buffer) Write() {
	b.pos++ // silent "internal-package"
	b.writes.Add(1)
}

// Gauge is safe for concurrent use by multiple goroutines.
//
// Its documentation promises concurrent callers: Set forgetting the
// lock that Get takes is reported, internal package or not.
type Gauge struct {
	mu sync.Mutex
	v  int
}

func (g *Gauge) Set(v int) {
	g.v = v // want `data race on Gauge.v: write at ring.go:\d+ \(concurrent methods\) vs (read|write) at ring.go:\d+ \(concurrent methods\)`
}

func (g *Gauge) Get() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.v
}
