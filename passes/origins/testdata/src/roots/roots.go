// Package roots has one root of each kind.
package roots

import (
	"sync"
	"sync/atomic"
)

var ready = make(chan bool)

func init() {}

// Counter carries a mutex: its exported methods are roots.
type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Inc()     { c.mu.Lock(); c.n++; c.mu.Unlock() }
func (c *Counter) get() int { return c.n }

// Gauge embeds a struct that carries an atomic.
type Gauge struct{ inner }

type inner struct{ v atomic.Int64 }

func (g *Gauge) Load() int64 { return g.v.Load() }

// Plain carries nothing: its methods are not roots.
type Plain struct{ n int }

func (p *Plain) Inc() { p.n++ }
