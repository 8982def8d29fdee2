package main

import "sync"

type client struct {
	mu     sync.RWMutex
	closed bool
}

// acquire returns read-locked on its only return: the loop goes round
// unlocked only while the client is open.
func (c *client) acquire() {
	for {
		c.mu.RLock()
		if c.closed {
			return // the RUnlock is missing
		}
		c.mu.RUnlock()
	}
}

type getter interface{ get() }

type kv struct{ c *client }

func (k *kv) get() { k.c.acquire() }

// The goroutine returns holding c.mu for reading; Close's Lock waits
// for it forever.
func endsHolding() {
	c := &client{closed: true}
	var g getter = &kv{c}
	done := make(chan bool)
	go func() {
		g.get()
		close(done)
	}()
	c.mu.Lock() // want `lock kept by a returned goroutine: this Lock of c.mu blocks forever once the goroutine started at ends.go:\d+ has returned; it returns with c.mu still read-locked \(at ends.go:\d+\) on every path, and nothing unlocks it after`
	c.closed = true
	c.mu.Unlock()
	<-done
}

// The goroutine locks and its starter unlocks: a handover, silent.
func handsOver() {
	var mu sync.Mutex
	locked := make(chan bool)
	go func() {
		mu.Lock() // silent "lock-handover"
		close(locked)
	}()
	<-locked
	mu.Unlock()
	mu.Lock()
	mu.Unlock()
}

// The goroutine unlocks before it returns: silent.
func unlocks() {
	var mu sync.Mutex
	go func() {
		mu.Lock() // silent "not-held"
		mu.Unlock()
	}()
	mu.Lock()
	mu.Unlock()
}
