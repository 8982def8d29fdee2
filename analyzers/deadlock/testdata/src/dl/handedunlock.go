package main

import "sync"

// A committer takes its lock and hands the function that releases it to
// the code that finishes the work: the lock is held until that function
// runs, on another goroutine or later. A return that has handed over a
// function unlocking the mutex (passed to a call, stored, or sent) is no
// lock left held: whoever got the function unlocks it.
type committer struct {
	mu      sync.Mutex
	rw      sync.RWMutex
	pending []int
	onDone  func()
	dones   chan func()
}

// finish runs done once the work is through, on a goroutine of its own.
func finish(work []int, done func(error)) {
	go func() {
		_ = len(work)
		done(nil)
	}()
}

// commit passes a literal that unlocks mu, wrapped in another literal
// that calls it, to finish: the shape of an asynchronous commit whose
// callback releases the lock.
func (c *committer) commit(work []int) {
	if len(work) == 0 {
		return
	}
	c.mu.Lock()
	release := func(err error) {
		defer c.mu.Unlock()
		c.pending = nil
	}
	wrapped := func(err error) {
		release(err)
		println("committed")
	}
	finish(work, wrapped)
} // silent "lock-helper"

// commitRead holds the read lock until its callback's deferred
// RUnlock.
func (c *committer) commitRead(work []int) {
	if len(work) == 0 {
		return
	}
	c.rw.RLock()
	finish(work, func(error) {
		defer c.rw.RUnlock()
		println(len(c.pending))
	})
} // silent "lock-helper"

// A session reaches its committer through a field: the callback
// captures the variable the committer was loaded into, which names the
// same mutex.
type session struct{ c *committer }

func (s *session) commit(work []int) {
	c := s.c
	if c == nil || len(work) == 0 {
		return
	}
	c.rw.RLock()
	finish(work, func(error) { defer c.rw.RUnlock() })
} // silent "lock-helper"

// store keeps the releasing function in a field, and send sends it, for
// the one that finishes later.
func (c *committer) store(work []int) {
	if len(work) == 0 {
		return
	}
	c.mu.Lock()
	c.onDone = func() { c.mu.Unlock() }
} // silent "lock-helper"

func (c *committer) send(work []int) {
	if len(work) == 0 {
		return
	}
	c.mu.Lock()
	c.dones <- c.mu.Unlock
} // silent "lock-helper"

// commitLost passes finish a literal that does not unlock: the lock is
// left held.
func (c *committer) commitLost(work []int) {
	if len(work) == 0 {
		return
	}
	c.mu.Lock()
	finish(work, func(error) {
		c.pending = nil
	})
} // want `lock left held: c.mu \(locked at handedunlock.go:\d+\) is still locked when commitLost returns here, while its other returns unlock it`

func useCommitter() {
	c := &committer{dones: make(chan func(), 1)}
	c.commit([]int{1})
	c.commitRead([]int{1})
	(&session{c: c}).commit([]int{1})
	c.store([]int{1})
	if c.onDone != nil {
		c.onDone()
	}
	c.send([]int{1})
	(<-c.dones)()
	c.commitLost(nil)
	(&committer{}).commitSome(nil)
}

// commitSome hands the releasing literal over on one path only: the
// other leaves the lock held.
func (c *committer) commitSome(work []int) {
	if len(work) == 0 {
		return
	}
	c.mu.Lock()
	release := func(error) { c.mu.Unlock() }
	if len(work) > 1 {
		finish(work, release)
	}
} // want `lock left held: c.mu \(locked at handedunlock.go:\d+\) is still locked when commitSome returns here, while its other returns unlock it`
