// Package withlockuse: a function of another package that calls a
// callback holding its lock (withlock.Proc's WithLock and WithRLock, by
// their summaries) runs the callback holding it, a function literal or
// a method value: what the callbacks share is guarded (common-lock). A
// callback the other package calls after it let the lock go holds
// nothing.
package withlockuse

import "withlock"

// Cluster is safe for concurrent use.
type Cluster struct {
	proc *withlock.Proc
	topo []string
	size int
	hits int
}

// New makes a Cluster.
func New() *Cluster { return &Cluster{proc: withlock.New()} }

// Topo reads the topology.
func (c *Cluster) Topo() []string {
	var t []string
	_ = c.proc.WithRLock(func() error {
		t = c.topo // silent "common-lock"
		return nil
	})
	return t
}

// Sync replaces the topology.
func (c *Cluster) Sync(tt []string) {
	_ = c.proc.WithLock(func() error {
		c.topo = tt // silent "common-lock"
		c.hits = 0
		return nil
	})
}

func (c *Cluster) grow() error {
	c.size++ // silent "common-lock"
	return nil
}

// Grow grows the cluster holding the lock, through a method value.
func (c *Cluster) Grow() { _ = c.proc.WithLock(c.grow) }

// Hit counts a hit after the Proc let its lock go.
func (c *Cluster) Hit() {
	c.proc.After(func() {
		c.hits++ // want `data race on Cluster.hits: write at withlockuse.go:\d+ \(concurrent methods\) vs (read|write) at withlockuse.go:\d+ \(concurrent methods\); locks held: \{\} vs \{(\}|c.proc.lock\})`
	})
}
