// Package chanmutex: a channel with a buffer of one is a mutex where a
// goroutine fills it to lock and drains it to unlock, also where the
// send and the receive are in methods of a mutex type its callers call
// (Lock, Unlock, TryLock), or in a lock that gives up on a context and
// an unlock that does not block (select { case <-m.ch: default: }), a
// lock that gives the channel back on a path that returns an error, or
// one that sends on either of two branches, or a lock taken for good
// that no one gives back, where only the goroutines that fill the
// channel drain it:
// what a caller does between the two holds it (common-lock). A field
// written without it is reported, and so is what a function writes
// after it handed a value over on a channel of one that no one in the
// goroutine drains.
package chanmutex

import (
	"context"
	"errors"
)

// mutex is locked when its channel is full.
type mutex struct{ ch chan struct{} }

func newMutex() *mutex { return &mutex{ch: make(chan struct{}, 1)} }

func (m *mutex) Lock()   { m.ch <- struct{}{} }
func (m *mutex) Unlock() { <-m.ch }

func (m *mutex) TryLock() bool {
	select {
	case m.ch <- struct{}{}:
		return true
	default:
		return false
	}
}

// Batcher is safe for concurrent use.
type Batcher struct {
	lock  *mutex
	items []int
	size  int
	last  int
}

// NewBatcher makes a batcher.
func NewBatcher() *Batcher { return &Batcher{lock: newMutex()} }

// Put adds an item.
func (b *Batcher) Put(v int) {
	b.lock.Lock()
	b.items = append(b.items, v) // silent "common-lock"
	b.size++                     // silent "common-lock"
	b.lock.Unlock()
}

// Take takes the items, if no one holds the lock.
func (b *Batcher) Take() []int {
	if !b.lock.TryLock() {
		return nil
	}
	items := b.items
	b.items = nil // silent "common-lock"
	b.size = 0    // silent "common-lock"
	b.lock.Unlock()
	return items
}

// Last records the last item, without the lock.
func (b *Batcher) Last(v int) {
	b.last = v // want `data race on Batcher.last: write at chanmutex.go:\d+ \(concurrent methods\) vs (read|write) at chanmutex.go:\d+ \(concurrent methods\)`
}

// Len reads the last item under the lock.
func (b *Batcher) Len() int {
	b.lock.Lock()
	defer b.lock.Unlock()
	return b.size + b.last
}

var errClosed = errors.New("closed")

// ctxMutex gives up locking when the context is done or the connection
// closed.
type ctxMutex struct {
	ch     chan struct{}
	closed chan struct{}
}

func (m *ctxMutex) lock(ctx context.Context) error {
	select {
	case <-m.closed:
		return errClosed
	case <-ctx.Done():
		return ctx.Err()
	case m.ch <- struct{}{}:
		return nil
	}
}

func (m *ctxMutex) unlock() {
	select {
	case <-m.ch:
	default:
	}
}

// Conn is safe for concurrent use.
type Conn struct {
	readMu *ctxMutex
	buf    []byte
	n      int
	out    chan int
	sent   int
	mark   int
}

// NewConn makes a connection.
func NewConn() *Conn {
	return &Conn{readMu: &ctxMutex{ch: make(chan struct{}, 1), closed: make(chan struct{})}, out: make(chan int, 1)}
}

// Read reads holding the read lock.
func (c *Conn) Read(ctx context.Context) (int, error) {
	if err := c.readMu.lock(ctx); err != nil {
		return 0, err
	}
	defer c.readMu.unlock()
	c.n++ // silent "common-lock"
	return len(c.buf), nil
}

// Reset clears the buffer holding the read lock.
func (c *Conn) Reset(ctx context.Context) error {
	if err := c.readMu.lock(ctx); err != nil {
		return err
	}
	c.buf = nil
	c.n = 0 // silent "common-lock"
	c.readMu.unlock()
	return nil
}

// Send hands a count to the consumer, then counts it: the send is a
// handoff, not a lock.
func (c *Conn) Send(v int) {
	c.publish(v)
	c.sent++ // want `data race on Conn.sent: write at chanmutex.go:\d+ \(concurrent methods\) vs write at chanmutex.go:\d+ \(concurrent methods\)`
}

func (c *Conn) publish(v int) { c.out <- v }

// Consume takes the counts.
func (c *Conn) Consume() int { return <-c.out }

// lockOpen locks, then gives the lock back on the path that returns
// when the connection is closed: the path that goes on still holds it.
func (m *ctxMutex) lockOpen(ctx context.Context) error {
	if err := m.lock(ctx); err != nil {
		return err
	}
	select {
	case <-m.closed:
		m.unlock()
		return errClosed
	default:
	}
	return nil
}

// Flush clears the buffer holding the read lock taken by lockOpen.
func (c *Conn) Flush(ctx context.Context) error {
	if err := c.readMu.lockOpen(ctx); err != nil {
		return err
	}
	defer c.readMu.unlock()
	c.n = -1 // silent "common-lock"
	return nil
}

// lockWithin locks, waiting at most a while when it is given one: the
// send of either branch is the lock.
func (m *ctxMutex) lockWithin(wait chan struct{}, bounded bool) error {
	if bounded {
		select {
		case m.ch <- struct{}{}:
		case <-wait:
			return errClosed
		}
	} else {
		m.ch <- struct{}{}
	}
	return nil
}

// Drop clears the count holding the read lock taken by lockWithin.
func (c *Conn) Drop(wait chan struct{}, bounded bool) {
	if c.readMu.lockWithin(wait, bounded) != nil {
		return
	}
	c.n = 0 // silent "common-lock"
	c.readMu.unlock()
}

// forceLock locks for good: what its caller does after it holds the
// lock to the end of the goroutine, where no one but a holder drains
// the channel.
func (m *ctxMutex) forceLock() { m.ch <- struct{}{} }

// Close locks the read lock for good and clears the buffer.
func (c *Conn) Close() {
	c.readMu.forceLock()
	c.buf = nil // silent "common-lock"
}

// Shutdown fills the read lock itself and never gives it back.
func (c *Conn) Shutdown() {
	c.readMu.ch <- struct{}{}
	c.n = -2 // silent "common-lock"
}

// closeIf locks for good only on the path where it closes, which
// returns as the other path does: a caller holds what a call holds at
// every return that does not fail, so none after it.
func (c *Conn) closeIf(bad bool) {
	if bad {
		c.readMu.forceLock()
		return
	}
}

// Mark sets the mark holding the read lock.
func (c *Conn) Mark(ctx context.Context) error {
	if err := c.readMu.lock(ctx); err != nil {
		return err
	}
	c.mark = 1
	c.readMu.unlock()
	return nil
}

// Touch writes the mark after closeIf, without the lock.
func (c *Conn) Touch(bad bool) {
	c.closeIf(bad)
	c.mark = 7 // want `data race on Conn.mark: write at chanmutex.go:\d+ \(concurrent methods\) vs write at chanmutex.go:\d+ \(concurrent methods\); locks held: \{\} vs \{c.readMu.ch\}`
}
