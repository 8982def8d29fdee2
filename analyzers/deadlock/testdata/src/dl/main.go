// Package main holds one scenario per kind of deadlock: the deadlocking
// version carries a want, its safe twin none.
package main

import (
	"errors"
	"sync"
	"time"
)

type Bank struct {
	mu       sync.Mutex
	accounts []int
}

// Locks b.mu twice in a row.
func (b *Bank) doubleLock() {
	b.mu.Lock()
	b.mu.Lock() // want `double lock: b.mu is locked at main.go:\d+ while already held \(locked at main.go:\d+\)`
	b.mu.Unlock()
}

// Unlocks in between: safe.
func (b *Bank) relock() {
	b.mu.Lock()
	b.mu.Unlock()
	b.mu.Lock() // silent "not-held"
	b.mu.Unlock()
}

func (b *Bank) Total() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.accounts)
}

// Report holds b.mu and calls Total, which locks it again.
func (b *Bank) Report() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.Total() // want `double lock: b.mu is held \(locked at main.go:\d+\) when this goroutine calls \(\*dl.Bank\).Total, which locks it again \(at main.go:\d+\)`
}

// Unlocks before the call: safe.
func (b *Bank) ReportUnlocked() int {
	b.mu.Lock()
	n := len(b.accounts)
	b.mu.Unlock()
	return n + b.Total() // silent "not-held"
}

// The deferred flush runs before the deferred Unlock, still holding b.mu.
func (b *Bank) closeDeferred() {
	b.mu.Lock()
	defer b.mu.Unlock()
	defer b.Total() // want `double lock: b.mu is held \(locked at main.go:\d+\) when this goroutine runs the deferred \(\*dl.Bank\).Total`
}

// The deferred call runs after the Unlock: safe.
func (b *Bank) closeInOrder() {
	defer b.Total() // silent "not-held"
	b.mu.Lock()
	defer b.mu.Unlock()
}

// TryLock while holding the lock does not block: safe.
func (b *Bank) tryAgain() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.mu.TryLock() { // silent "try-lock"
		return true
	}
	return false
}

type Cache struct {
	mu sync.RWMutex
	m  map[string]int
}

// Upgrading a read lock blocks forever.
func (c *Cache) upgrade(k string) {
	c.mu.RLock()
	if _, ok := c.m[k]; !ok {
		c.mu.Lock() // want `RWMutex upgrade: c.mu is locked at main.go:\d+ while this goroutine holds its read lock \(taken at main.go:\d+\)`
		c.m[k] = 1
		c.mu.Unlock()
	}
	c.mu.RUnlock()
}

// Releasing the read lock first: safe.
func (c *Cache) upgradeSafely(k string) {
	c.mu.RLock()
	_, ok := c.m[k]
	c.mu.RUnlock()
	if !ok {
		c.mu.Lock() // silent "not-held"
		c.m[k] = 1
		c.mu.Unlock()
	}
}

func (c *Cache) get(k string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[k]
}

// A second read lock while holding one: a writer in between blocks both.
func (c *Cache) getBoth(a, b string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[a] + c.get(b) // want `recursive read lock: c.mu is read-locked \(at main.go:\d+\) when this goroutine calls \(\*dl.Cache\).get, which read-locks it again \(at main.go:\d+\); a writer waiting in Lock \(as at main.go:\d+\) between the two blocks both`
}

var errEmpty = errors.New("empty")

// The early return leaves b.mu locked.
func (b *Bank) first() (int, error) {
	b.mu.Lock()
	if len(b.accounts) == 0 {
		return 0, errEmpty // want `lock left held: b.mu \(locked at main.go:\d+\) is still locked when first returns here, while its other returns unlock it`
	}
	n := b.accounts[0]
	b.mu.Unlock()
	return n, nil
}

// The defer is placed right after the Lock: safe.
func (b *Bank) firstDeferred() (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.accounts) == 0 {
		return 0, errEmpty // silent "not-held"
	}
	return b.accounts[0], nil
}

// A lock helper returns locked on every path: safe.
func (b *Bank) lock() {
	b.mu.Lock()
} // silent "lock-helper"

// A conditional lock helper: locked when it reports success.
func (b *Bank) lockIfAny() error {
	b.mu.Lock()
	if len(b.accounts) == 0 {
		b.mu.Unlock()
		return errEmpty
	}
	return nil // silent "lock-helper"
}

type Devices struct {
	mu      sync.Mutex
	deleted int
}

// cleanup returns success still holding d.mu when there is nothing to
// clean up. It looks like lockIfAny, but its caller never unlocks after
// it: no lock helper, a forgotten Unlock.
func (d *Devices) cleanup() error {
	d.mu.Lock()
	if d.deleted == 0 {
		return nil // want `lock left held: d.mu \(locked at main.go:\d+\) is still locked when cleanup returns here, while its other returns unlock it`
	}
	d.mu.Unlock()
	return errEmpty
}

func removeDevices(d *Devices) {
	d.cleanup()
	d.mu.Lock() // want `Lock blocks forever \(deadlock\): d.mu is left locked by cleanup \(lock left held at main.go:\d+\), called at main.go:\d+ before this Lock`
	d.deleted = 0
	d.mu.Unlock()
}

// watchDevices starts a goroutine after cleanup left d.mu locked.
func watchDevices(d *Devices) {
	d.cleanup()
	go func() {
		d.mu.Lock() // want `Lock blocks forever \(deadlock\): d.mu is left locked by cleanup`
		d.deleted++
		d.mu.Unlock()
	}()
}

// flush returns its error still holding d.mu, and its caller unlocks
// then: what follows does not block.
func (d *Devices) flush() error {
	d.mu.Lock()
	if d.deleted < 0 {
		return errEmpty // want `lock left held: d.mu \(locked at main.go:\d+\) is still locked when flush returns here`
	}
	d.mu.Unlock()
	return nil
}

func flushDevices(d *Devices) {
	if err := d.flush(); err != nil {
		d.mu.Unlock()
	}
	d.mu.Lock() // silent "not-held"
	d.deleted = 0
	d.mu.Unlock()
}

type Pool struct {
	mu sync.Mutex
	n  int
}

func (p *Pool) grow() {
	p.mu.Lock()
	p.resize() // want `double lock: p.mu is held \(locked at main.go:\d+\) when this goroutine calls \(\*dl.Pool\).resize`
	p.mu.Unlock()
}

func (p *Pool) resize() {
	p.mu.Lock()
	p.n++
	p.mu.Unlock()
}

type Pair struct{ a, b sync.Mutex }

func (p *Pair) ab() {
	p.a.Lock()
	p.b.Lock() // want `lock order inversion: p.b is locked at main.go:230 while holding p.a \(goroutine started at main.go:\d+\), and the same two mutexes are taken in the opposite order at main.go:237`
	p.b.Unlock()
	p.a.Unlock()
}

func (p *Pair) ba() {
	p.b.Lock()
	p.a.Lock() // the other side of the deadlock: a related position of the report
	p.a.Unlock()
	p.b.Unlock()
}

// startThenInvert's worker can deadlock with a goroutine started after
// the Wait returns (what a Wait left stuck is the blocking analyzer's:
// see its blkseq).
func startThenInvert(p *Pair) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		for i := 0; ; i++ {
			p.ab()
			if i == 0 {
				wg.Done()
			}
		}
	}()
	wg.Wait()
	go p.ba()
}

type Account struct {
	mu      sync.Mutex
	id      int
	balance int
}

// Two goroutines move money in opposite directions, each holding one
// account's lock while taking the other's.
func transfer(from, to *Account, n int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock() // want `lock order inversion: to.mu is locked at main.go:\d+ while holding from.mu \(goroutine started at main.go:\d+\), and the same two mutexes are taken in the opposite order at main.go:\d+ \(goroutine started at main.go:\d+\); the two goroutines can deadlock`
	defer to.mu.Unlock()
	from.balance -= n
	to.balance += n
}

func inverted() {
	a, b := &Account{id: 1}, &Account{id: 2}
	go transfer(a, b, 1)
	go transfer(b, a, 1)
}

// The same function, with both goroutines going one way: safe.
func sameOrder() {
	a, b := &Account{id: 1}, &Account{id: 2}
	go transferSame(a, b, 1)
	go transferSame(a, b, 2)
}

func transferSame(from, to *Account, n int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock() // silent "one-order"
	defer to.mu.Unlock()
	from.balance -= n
	to.balance += n
}

// Locks in the order of the accounts' IDs, whichever way money moves:
// safe.
func transferOrdered(from, to *Account, n int) {
	first, second := from, to
	if to.id < from.id {
		first, second = to, from
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock() // silent "both-orders"
	defer second.mu.Unlock()
	from.balance -= n
	to.balance += n
}

func ordered() {
	a, b := &Account{id: 1}, &Account{id: 2}
	go transferOrdered(a, b, 1)
	go transferOrdered(b, a, 1)
}

// The second goroutine starts after the first is done: safe.
func oneAfterTheOther() {
	a, b := &Account{id: 1}, &Account{id: 2}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		transferJoined(a, b, 1)
	}()
	wg.Wait()
	go transferJoined(b, a, 1)
}

func transferJoined(from, to *Account, n int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock() // silent "happens-before"
	defer to.mu.Unlock()
	from.balance -= n
	to.balance += n
}

// A common lock around both orders keeps them apart: safe.
var gate sync.Mutex

func transferGated(from, to *Account, n int) {
	gate.Lock()
	defer gate.Unlock()
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock() // silent "gate-lock"
	defer to.mu.Unlock()
	from.balance -= n
	to.balance += n
}

func gated() {
	a, b := &Account{id: 1}, &Account{id: 2}
	go transferGated(a, b, 1)
	go transferGated(b, a, 1)
}

// Expiring's expiry callback returns early still holding c.mu: a put that
// comes after it blocks forever.
type Expiring struct {
	mu      sync.Mutex
	entries map[string]int
	pinned  bool
}

func (c *Expiring) expireLater() {
	time.AfterFunc(time.Second, func() {
		c.mu.Lock()
		if c.pinned {
			return // want `lock left held: c.mu \(locked at main.go:\d+\) is still locked when expireLater\$1 returns here`
		}
		delete(c.entries, "k")
		c.mu.Unlock()
	})
}

func (c *Expiring) put(k string, v int) {
	c.mu.Lock() // want `Lock blocks forever \(deadlock\): c.mu may be left locked by goroutine started at main.go:\d+, which returns at main.go:\d+ still holding it \(lock left held\)`
	c.entries[k] = v
	c.mu.Unlock()
}

func useExpiring() {
	c := &Expiring{entries: map[string]int{}}
	c.expireLater()
	c.put("k", 1)
}

// Table's callback is the same, but its put comes before the timer is
// set: it cannot follow the callback's return.
type Table struct {
	mu      sync.Mutex
	entries map[string]int
	pinned  bool
}

func (t *Table) expireLater() {
	time.AfterFunc(time.Second, func() {
		t.mu.Lock()
		if t.pinned {
			return // want `lock left held: t.mu \(locked at main.go:\d+\) is still locked when expireLater\$1 returns here`
		}
		delete(t.entries, "k")
		t.mu.Unlock()
	})
}

func (t *Table) put(k string, v int) {
	t.mu.Lock() // silent "happens-before"
	t.entries[k] = v
	t.mu.Unlock()
}

func useTable() {
	t := &Table{entries: map[string]int{}}
	t.put("k", 1)
	t.expireLater()
}

// Gauge's scan locks g.mu around each peek, which locks it again: in a
// loop too, since peek unlocks only the lock it took.
type Gauge struct {
	mu sync.Mutex
	v  []int
}

func (g *Gauge) peek(i int) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.v[i]
}

func (g *Gauge) scan() (sum int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i := range g.v {
		sum += g.peek(i) // want `double lock: g.mu is held \(locked at main.go:\d+\) when this goroutine calls \(\*dl.Gauge\).peek`
	}
	return sum
}

// scanUnlocked peeks without holding g.mu: silent.
func (g *Gauge) scanUnlocked() (sum int) {
	for i := range g.v {
		sum += g.peek(i) // silent "not-held"
	}
	return sum
}

func main() {
	useSlotRing()
	misuseSlotRing()
	useLender()
	useSession()
	useCommitter()
	useJournal()
	(&Gauge{}).scan()
	(&Gauge{}).scanUnlocked()
	useExpiring()
	useTable()
	b := &Bank{}
	b.doubleLock()
	b.relock()
	b.Report()
	b.ReportUnlocked()
	b.closeDeferred()
	b.closeInOrder()
	b.tryAgain()
	c := &Cache{m: map[string]int{}}
	c.upgrade("a")
	c.upgradeSafely("a")
	c.getBoth("a", "b")
	b.first()
	b.firstDeferred()
	b.lock()
	b.mu.Unlock()
	if b.lockIfAny() == nil {
		b.mu.Unlock()
	}
	devices := &Devices{}
	removeDevices(devices)
	watchDevices(devices)
	flushDevices(&Devices{})
	startThenInvert(&Pair{})
	inverted()
	sameOrder()
	ordered()
	oneAfterTheOther()
	gated()
	threeWay()
	fourWay()
	fourOrdered()
	threeOrdered()
	b.read()
	b.reset(true)
	b.refresh()
}

// Txn holds the bank's lock until End, through an interface.
type Txn interface{ End() }

type txn struct{ b *Bank }

func (t txn) End() { t.b.mu.Unlock() }

func (b *Bank) begin() Txn {
	b.mu.Lock()
	return txn{b}
}

// The lock is taken by a helper and released through an interface: the
// lockset cannot follow, so this stays silent.
func (b *Bank) read() int {
	t := b.begin()
	if len(b.accounts) == 0 {
		t.End()
		return 0 // silent "dynamic-call"
	}
	n := b.accounts[0]
	t.End()
	return n // silent "dynamic-call"
}

// The implicit return at the end leaves the lock held.
func (b *Bank) reset(keep bool) {
	b.mu.Lock()
	if keep {
		b.mu.Unlock()
		return
	}
	b.accounts = nil
} // want `lock left held: b.mu \(locked at main.go:\d+\) is still locked when reset returns here`

// refreshAndUnlock is called holding b.mu and releases it before it
// locks again, as grpc's resetTransportAndUnlock: safe.
func (b *Bank) refreshAndUnlock() {
	b.accounts = b.accounts[:0]
	b.mu.Unlock()
	b.mu.Lock() // silent "not-held"
	b.accounts = append(b.accounts, 1)
	b.mu.Unlock()
}

func (b *Bank) refresh() {
	b.mu.Lock()
	b.refreshAndUnlock()
}

// Unlocks on the error path, and the deferred Unlock unlocks again.
func (b *Bank) withdraw(n int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > len(b.accounts) {
		b.mu.Unlock() // want `unlock of unlocked mutex: b.mu is unlocked at main.go:\d+, and the Unlock deferred at main.go:\d+ unlocks it again when withdraw returns`
		return errors.New("short")
	}
	b.accounts = b.accounts[n:]
	return nil
}

// Unlocks early with no defer: safe.
func (b *Bank) withdrawEarly(n int) error {
	b.mu.Lock()
	if n > len(b.accounts) {
		b.mu.Unlock() // silent "locked-first"
		return errors.New("short")
	}
	b.accounts = b.accounts[n:]
	b.mu.Unlock()
	return nil
}

// Unlocks twice in a row on one path.
func (b *Bank) unlockTwice(flush bool) {
	b.mu.Lock()
	if flush {
		b.accounts = nil
	}
	b.mu.Unlock()
	b.mu.Unlock() // want `unlock of unlocked mutex: b.mu is unlocked at main.go:\d+, and every path here already unlocked it \(at main.go:\d+\)`
}

// Unlocks the caller's lock, takes it again and unlocks it: safe.
func (b *Bank) unlockRelock() {
	b.mu.Unlock() // silent "entered-held"
	b.Total()
	b.mu.Lock()
	b.mu.Unlock() // silent "locked-first"
}

// Unlocks on one path only before the second Unlock: not every path, no
// report (the lock may be the caller's).
func (b *Bank) unlockMaybe(early bool) {
	if early {
		b.mu.Unlock()
		b.mu.Lock()
	}
	b.mu.Unlock() // silent "entered-held"
}

// Two read locks, two read unlocks: a recursive read lock, but the
// unlocks are balanced.
func (c *Cache) readTwice(k string) int {
	c.mu.RLock()
	c.mu.RLock() // want `recursive read lock`
	n := c.m[k]
	c.mu.RUnlock()
	c.mu.RUnlock()
	return n
}

// Three goroutines pass money around a ring: each holds one account's
// lock while taking the next one's.
func ring(from, to *Account, n int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	from.balance -= n
	to.balance += n
}

func threeWay() {
	a, b, c := &Account{id: 1}, &Account{id: 2}, &Account{id: 3}
	go func() { ringA(a, b) }()
	go func() { ringB(b, c) }()
	go func() { ringC(c, a) }()
}

func ringA(x, y *Account) {
	x.mu.Lock()
	y.mu.Lock() // want `lock order cycle: y.mu is locked at main.go:\d+ while holding x.mu \(goroutine started at main.go:\d+\); y.mu is locked at main.go:\d+ while holding x.mu \(goroutine started at main.go:\d+\); y.mu is locked at main.go:\d+ while holding x.mu \(goroutine started at main.go:\d+\); the three goroutines can deadlock`
	y.mu.Unlock()
	x.mu.Unlock()
}

func ringB(x, y *Account) {
	x.mu.Lock()
	y.mu.Lock()
	y.mu.Unlock()
	x.mu.Unlock()
}

func ringC(x, y *Account) {
	x.mu.Lock()
	y.mu.Lock()
	y.mu.Unlock()
	x.mu.Unlock()
}

// The same three pairs, all taken in one global order (a, b, c): safe.
func threeOrdered() {
	a, b, c := &Account{id: 1}, &Account{id: 2}, &Account{id: 3}
	go func() { ringOrdered(a, b) }()
	go func() { ringOrdered(b, c) }()
	go func() { ringOrdered(a, c) }()
}

func ringOrdered(x, y *Account) {
	x.mu.Lock()
	y.mu.Lock() // silent "one-order"
	y.mu.Unlock()
	x.mu.Unlock()
}

// Four goroutines pass money around a ring of four accounts: each holds
// one account's lock while taking the next one's.
func fourWay() {
	a, b, c, d := &Account{id: 1}, &Account{id: 2}, &Account{id: 3}, &Account{id: 4}
	go func() { ring4A(a, b) }()
	go func() { ring4B(b, c) }()
	go func() { ring4C(c, d) }()
	go func() { ring4D(d, a) }()
}

func ring4A(x, y *Account) {
	x.mu.Lock()
	y.mu.Lock() // want `lock order cycle: y.mu is locked at main.go:\d+ while holding x.mu \(goroutine started at main.go:\d+\); (y.mu is locked at main.go:\d+ while holding x.mu \(goroutine started at main.go:\d+\); ){3}the four goroutines can deadlock`
	y.mu.Unlock()
	x.mu.Unlock()
}

func ring4B(x, y *Account) {
	x.mu.Lock()
	y.mu.Lock()
	y.mu.Unlock()
	x.mu.Unlock()
}

func ring4C(x, y *Account) {
	x.mu.Lock()
	y.mu.Lock()
	y.mu.Unlock()
	x.mu.Unlock()
}

func ring4D(x, y *Account) {
	x.mu.Lock()
	y.mu.Lock()
	y.mu.Unlock()
	x.mu.Unlock()
}

// The same four pairs but the last taken in the global order (a before
// d): a chain, no cycle. Safe.
func fourOrdered() {
	a, b, c, d := &Account{id: 1}, &Account{id: 2}, &Account{id: 3}, &Account{id: 4}
	go func() { ringOrdered(a, b) }()
	go func() { ringOrdered(b, c) }()
	go func() { ringOrdered(c, d) }()
	go func() { ringOrdered(a, d) }()
}

// store locks in remove only when asked to: the callers that hold
// fs.mu pass false.
type store struct {
	mu   sync.Mutex
	msgs map[uint64]int
}

func (fs *store) remove(seq uint64, needLock bool) {
	if needLock {
		fs.mu.Lock()
		defer fs.mu.Unlock()
	}
	delete(fs.msgs, seq)
}

// Holds fs.mu and says so: remove does not lock. Safe.
func (fs *store) Purge() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.remove(1, false) // silent "lock-param"
}

// Holds fs.mu and asks remove to lock it again.
func (fs *store) purgeLocking() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.remove(1, true) // want `double lock: fs.mu is held \(locked at main.go:\d+\) when this goroutine calls \(\*dl.store\).remove, which locks it again \(at main.go:\d+\)`
}

// Does not hold fs.mu: remove locks it. Safe.
func (fs *store) Delete(seq uint64) { fs.remove(seq, true) } // silent "not-held"

// hasLock says the caller holds the lock already.
func (fs *store) get(seq uint64, hasLock bool) int {
	if !hasLock {
		fs.mu.Lock()
		defer fs.mu.Unlock()
	}
	return fs.msgs[seq]
}

// Safe: passes true for hasLock.
func (fs *store) getTwice(seq uint64) int {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.get(seq, true) + fs.get(seq+1, true) // silent "lock-param"
}

// Passes false for hasLock while holding it.
func (fs *store) getHeld(seq uint64) int {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.get(seq, false) // want `double lock: fs.mu is held \(locked at main.go:\d+\) when this goroutine calls \(\*dl.store\).get, which locks it again`
}

// lock && fresh: remove locks only when both hold.
func (fs *store) touch(seq uint64, lock, fresh bool) {
	if lock && fresh {
		fs.mu.Lock()
		fs.msgs[seq]++
		fs.mu.Unlock()
	}
}

// Safe: lock is false.
func (fs *store) touchLocked(seq uint64) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.touch(seq, false, seq > 0) // silent "lock-param"
}

// removeLocked is a wrapper that passes a constant: it never locks.
func (fs *store) removeLocked(seq uint64) { fs.remove(seq, false) }

// Safe, through the wrapper.
func (fs *store) PurgeAll() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.removeLocked(1) // silent "lock-param"
	fs.removeLocked(2) // silent "lock-param"
}

// removeAs is a wrapper that forwards its own parameter.
func (fs *store) removeAs(seq uint64, lock bool) { fs.remove(seq, lock) }

// Safe: the wrapper's caller passes false.
func (fs *store) purgeVia() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.removeAs(1, false) // silent "lock-param"
}

// The wrapper's caller passes true while holding fs.mu.
func (fs *store) purgeViaLocking() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.removeAs(1, true) // want `double lock: fs.mu is held \(locked at main.go:\d+\) when this goroutine calls \(\*dl.store\).removeAs, which locks it again \(at main.go:\d+\)`
}

// A variable, not a constant: remove may lock.
func (fs *store) purgeMaybe(lock bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.remove(1, lock) // want `double lock: fs.mu is held \(locked at main.go:\d+\) when this goroutine calls \(\*dl.store\).remove, which locks it again`
}

// Two TryRLocks that succeeded, two RUnlocks: balanced (std's
// TestRWMutex does this).
func (c *Cache) tryReadTwice(k string) int {
	if !c.mu.TryRLock() {
		return 0
	}
	if !c.mu.TryRLock() { // silent "try-lock"
		c.mu.RUnlock()
		return 0
	}
	n := c.m[k]
	c.mu.RUnlock()
	c.mu.RUnlock() // silent "readers-counted"
	return n
}

// One read lock, two read unlocks: the second is one too many.
func (c *Cache) readOnceUnlockTwice(k string) int {
	c.mu.RLock()
	n := c.m[k]
	c.mu.RUnlock()
	c.mu.RUnlock() // want `unlock of unlocked mutex: c.mu is unlocked at main.go:\d+, and every path here already unlocked it`
	return n
}

// Releases two read locks its caller took: how many are held is the
// caller's business.
func (c *Cache) releaseReaders() {
	c.mu.RUnlock()
	c.mu.RUnlock() // silent "readers-counted"
}

// A Locker from RLocker read-locks: locking it twice is two readers, no
// double lock (std's TestRLocker).
func (c *Cache) readerLocker(k string) int {
	rl := c.mu.RLocker()
	rl.Lock()
	rl.Lock()
	n := c.m[k]
	rl.Unlock()
	rl.Unlock()
	return n
}

// The same through a Locker of the write lock blocks forever.
func (c *Cache) writerLocker(mu *sync.Mutex) {
	var l sync.Locker = mu
	l.Lock()
	l.Lock() // want `double lock: the mutex is locked at main.go:\d+ while already held`
	l.Unlock()
}

// Catalog is only ever read-locked: a second read lock of it waits for
// no writer, so holding one while taking another is no deadlock.
type Catalog struct {
	mu    sync.RWMutex
	names []string
}

func (c *Catalog) count() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.names)
}

func (c *Catalog) describe() (string, int) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.names[0], c.count() // silent "no-writer"
}
