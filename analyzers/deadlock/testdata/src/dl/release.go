package main

import (
	"errors"
	"sync"
)

// Sender takes its lock through acquire, which holds it where it reports
// success, and gives it back through release, deferred by its caller:
// a conditional lock helper (lib/pq's acquireSenderLock).
type Sender struct {
	mu  sync.Mutex
	err error
	n   int
}

func (s *Sender) acquire() error {
	s.mu.Lock()
	if s.err != nil {
		s.mu.Unlock()
		return s.err
	}
	return nil // silent "lock-helper"
}

func (s *Sender) release() { s.mu.Unlock() }

func (s *Sender) Send() error {
	if err := s.acquire(); err != nil {
		return err
	}
	defer s.release()
	s.n++
	return nil
}

// Closer's take looks the same, but its only caller never gives the
// lock back: a forgotten Unlock.
type Closer struct {
	mu     sync.Mutex
	closed bool
}

func (c *Closer) take() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return errors.New("closed")
	}
	return nil // want `lock left held: c.mu \(locked at release.go:\d+\) is still locked when take returns here, while its other returns unlock it`
}

func (c *Closer) note() { c.closed = !c.closed }

func (c *Closer) Close() error {
	if err := c.take(); err != nil {
		return err
	}
	c.note()
	return nil
}
