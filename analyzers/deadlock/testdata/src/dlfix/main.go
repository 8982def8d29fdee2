// Package dlfix checks the fix offered for a lock left held: the
// function's own Unlock before the return that skips it, where that is
// certainly what the function means, and no fix where it is not.
package dlfix

import (
	"errors"
	"fmt"
	"sync"
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
