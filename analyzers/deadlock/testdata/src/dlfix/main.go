// Package dlfix checks the fix offered for a lock left held: the
// function's own Unlock before the return that skips it, where that is
// certainly what the function means, and no fix where it is not. It is
// a command: built with the tag fixrun and the fixes applied
// (main.go.golden), its main (run.go) runs each fixed function on the
// path that was fixed and checks that it leaves the mutex as its caller
// expects, so a fix that unlocks a mutex it must not fails the run
// ("unlock of unlocked mutex").
package main

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

type Bank struct {
	mu       sync.Mutex
	accounts []int
	last     int
}

var errEmpty = errors.New("empty")

// Fixed: the early return unlocks b.mu.
func (b *Bank) first() (int, error) {
	b.mu.Lock()
	if len(b.accounts) == 0 {
		return 0, errEmpty // want `lock left held: b.mu \(locked at main.go:\d+\) is still locked when first returns here, while its other returns unlock it`
	}
	n := b.accounts[0]
	b.mu.Unlock()
	return n, nil
}

func (b *Bank) load() error { return nil }

// Fixed: err is the function's own variable, read after the Unlock.
func (b *Bank) reload() error {
	b.mu.Lock()
	if err := b.load(); err != nil {
		return fmt.Errorf("reload: %w", err) // want `lock left held: b.mu \(locked at main.go:\d+\) is still locked when reload returns here`
	}
	b.accounts = b.accounts[:0]
	b.mu.Unlock()
	return nil
}

var errNegative = errors.New("negative")

// Fixed: the loop between the Lock and the return does not unlock.
func (b *Bank) check() error {
	b.mu.Lock()
	for _, a := range b.accounts {
		if a < 0 {
			return errNegative // want `lock left held: b.mu \(locked at main.go:\d+\) is still locked when check returns here`
		}
	}
	b.mu.Unlock()
	return nil
}

// Fixed: the implicit return at the end gets the Unlock as the body's
// last statement.
func (b *Bank) reset(keep bool) {
	b.mu.Lock()
	if keep {
		b.mu.Unlock()
		return
	}
	b.accounts = nil
} // want `lock left held: b.mu \(locked at main.go:\d+\) is still locked when reset returns here`

type Cache struct {
	mu sync.RWMutex
	m  map[string]int
}

// Fixed: a read lock is released by RUnlock.
func (c *Cache) get(k string) (int, bool) {
	c.mu.RLock()
	if c.m == nil {
		return 0, false // want `lock left held: c.mu \(locked at main.go:\d+\) is still locked when get returns here`
	}
	v, ok := c.m[k]
	c.mu.RUnlock()
	return v, ok
}

// No fix: the result reads b.last, which the mutex guards; after an
// inserted Unlock the read would race.
func (b *Bank) lastOr() int {
	b.mu.Lock()
	if len(b.accounts) == 0 {
		return b.last // want `lock left held: b.mu \(locked at main.go:\d+\) is still locked when lastOr returns here`
	}
	n := b.accounts[0]
	b.mu.Unlock()
	return n
}

// No fix: the loop unlocks and locks again; which iterations return
// holding the lock is the lockset's to say, not the text's.
func (b *Bank) drain(work func(int)) error {
	b.mu.Lock()
	for _, a := range b.accounts {
		if a < 0 {
			return errNegative // want `lock left held: b.mu \(locked at main.go:\d+\) is still locked when drain returns here`
		}
		b.mu.Unlock()
		work(a)
		b.mu.Lock()
	}
	b.mu.Unlock()
	return nil
}

func (b *Bank) unlock() { b.mu.Unlock() }

// No fix: the other paths unlock through a helper, which may do more
// than Unlock.
func (b *Bank) viaHelper() int {
	b.mu.Lock()
	if len(b.accounts) == 0 {
		return 0 // want `lock left held: b.mu \(locked at main.go:\d+\) is still locked when viaHelper returns here`
	}
	b.unlock()
	return 1
}

// No fix: b names another bank at the return; b.mu.Unlock() there
// would unlock the wrong mutex.
func swap(b, other *Bank) int {
	b.mu.Lock()
	if len(b.accounts) == 0 {
		b = other
		return 0 // want `lock left held: b.mu \(locked at main.go:\d+\) is still locked when swap returns here`
	}
	b.mu.Unlock()
	return 1
}

// No fix: the deferred call ran holding the lock and would run after an
// inserted Unlock.
func (b *Bank) deferred(done func()) int {
	defer done()
	b.mu.Lock()
	if len(b.accounts) == 0 {
		return 0 // want `lock left held: b.mu \(locked at main.go:\d+\) is still locked when deferred returns here`
	}
	b.mu.Unlock()
	return 1
}

// No fix: the Lock is on one branch of an if and its twin on the other;
// neither statement is in a block that encloses the return.
func (b *Bank) branches(fast bool) int {
	if fast {
		b.mu.Lock()
	} else {
		b.mu.Lock()
	}
	if len(b.accounts) == 0 {
		return 0 // want `lock left held: b.mu \(locked at main.go:\d+\) is still locked when branches returns here`
	}
	b.mu.Unlock()
	return 1
}

type Conn struct {
	mu     sync.Mutex
	ready  bool
	closed bool
	queue  []int
}

var errClosed = errors.New("closed")

// Fixed: wait takes c.mu itself; the return in the loop skips the
// Unlock its other return makes.
func (c *Conn) wait() error {
	c.mu.Lock()
	for !c.ready {
		c.mu.Unlock()
		time.Sleep(time.Millisecond)
		c.mu.Lock()
		if c.closed {
			return errClosed // want `lock left held: c.mu \(locked at main.go:\d+\) is still locked when wait returns here`
		}
	}
	c.mu.Unlock()
	return nil
}

// No report, no fix: waitLocked is called with c.mu held. It gives the
// caller's lock up while it sleeps and takes it back, so each of its
// returns hands the caller back what it had: an Unlock inserted before
// the early return would make the caller's Unlock fatal.
func (c *Conn) waitLocked() error {
	for !c.ready {
		c.mu.Unlock()
		time.Sleep(time.Millisecond)
		c.mu.Lock()
		if c.closed {
			return errClosed // silent "entered-held"
		}
	}
	return nil
}

// No report, no fix: flushLocked is called with c.mu held and returns
// early without touching it, or releases it while it writes.
func (c *Conn) flushLocked(write func([]int)) {
	if len(c.queue) == 0 {
		return
	}
	q := c.queue
	c.queue = nil
	c.mu.Unlock()
	write(q)
	c.mu.Lock()
} // silent "entered-held"

func (c *Conn) release() { c.mu.Unlock() }

// No report, no fix: the caller's lock is released one call away.
func (c *Conn) sendLocked(send func(int)) {
	if c.closed {
		return
	}
	c.release()
	send(1)
	c.mu.Lock()
} // silent "entered-held"
