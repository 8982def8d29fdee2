package main

import (
	"sync"
	"time"
)

// Taker locks inside, behind an interface.
type Taker interface{ Take() }

type vault struct{ mu sync.Mutex }

func (v *vault) Take() {
	v.mu.Lock() // want `lock order inversion: v.mu is locked at reach.go:\d+ while holding d.mu \(goroutine started at reach.go:\d+\), and the same two mutexes are taken in the opposite order`
	v.mu.Unlock()
}

// desk holds its lock while it calls Take through the interface; audit
// takes the vault's first.
type desk struct {
	mu sync.Mutex
	t  Taker
	v  *vault
}

func (d *desk) withdraw() {
	d.mu.Lock()
	d.t.Take()
	d.mu.Unlock()
}

func (d *desk) audit() {
	d.v.mu.Lock()
	d.mu.Lock() // the other side of the deadlock: a related position of the report
	d.mu.Unlock()
	d.v.mu.Unlock()
}

// till calls Take through the interface after unlocking: silent.
type till struct {
	mu sync.Mutex
	t  Taker
	v  *vault
}

func (c *till) withdraw() {
	c.mu.Lock()
	c.mu.Unlock()
	c.t.Take()
}

func (c *till) audit() {
	c.v.mu.Lock()
	c.mu.Lock() // silent "one-order"
	c.mu.Unlock()
	c.v.mu.Unlock()
}

// alarm's callback, a goroutine time.AfterFunc starts, takes x then y;
// arm takes them the other way.
type alarm struct{ x, y sync.Mutex }

func (t *alarm) arm() {
	time.AfterFunc(time.Second, func() {
		t.x.Lock()
		t.y.Lock() // want `lock order inversion: t.y is locked at reach.go:\d+ while holding t.x \(goroutine started at reach.go:\d+\)`
		t.y.Unlock()
		t.x.Unlock()
	})
	t.y.Lock()
	t.x.Lock() // the other side of the deadlock: a related position of the report
	t.x.Unlock()
	t.y.Unlock()
}

// bell's callback takes them in arm's order: silent.
type bell struct{ x, y sync.Mutex }

func (c *bell) arm() {
	time.AfterFunc(time.Second, func() {
		c.y.Lock()
		c.x.Lock() // silent "one-order"
		c.x.Unlock()
		c.y.Unlock()
	})
	c.y.Lock()
	c.x.Lock() // silent "one-order"
	c.x.Unlock()
	c.y.Unlock()
}

func init() {
	v := &vault{}
	d := &desk{t: v, v: v}
	go d.withdraw()
	go d.audit()
	w := &vault{}
	c := &till{t: w, v: w}
	go c.withdraw()
	go c.audit()
	go (&alarm{}).arm()
	go (&bell{}).arm()
}
