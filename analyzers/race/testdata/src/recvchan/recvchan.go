// Package recvchan is a library whose methods, called on one object
// from several goroutines, synchronize through the channels in its
// fields: a channel field holds one channel for all the methods called
// on one object (receiver-channels), so Close's close(s.doneCh) orders
// what Close wrote before it with what a method does once its receive
// from s.doneCh returned.
package recvchan

import (
	"errors"
	"sync"
)

type Session struct {
	mu       sync.Mutex
	closed   bool
	err      error
	doneCh   chan struct{}
	acceptCh chan int
	ctl      *control
}

// control keeps a channel one pointer away from the receiver.
type control struct {
	reason string
	stopCh chan struct{}
}

func New() *Session {
	return &Session{doneCh: make(chan struct{}), acceptCh: make(chan int), ctl: &control{stopCh: make(chan struct{})}}
}

func (s *Session) Push(v int) { s.acceptCh <- v }

// Close sets the error, then closes doneCh, under the lock.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.err = errors.New("closed") // want `data race on Session.err: write at recvchan.go:\d+ \(concurrent methods\) vs read at recvchan.go:66`
	close(s.doneCh)
	return nil
}

// Accept reads the error only once doneCh is closed: silent.
func (s *Session) Accept() (int, error) {
	select {
	case v := <-s.acceptCh:
		return v, nil
	case <-s.doneCh:
		return 0, s.err // silent "happens-before"
	}
}

// Wait waits for the close with a plain receive: silent.
func (s *Session) Wait() error {
	<-s.doneCh
	return s.err // silent "happens-before"
}

// Peek reads the error without waiting for the close: reported.
func (s *Session) Peek() error {
	return s.err // the read reported with Close's write
}

// Stop sets the reason and closes the control's stopCh, one pointer
// from the receiver; Stopped reads it after the close: silent.
func (s *Session) Stop(reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ctl.reason = reason // want `data race on control.reason: write at recvchan.go:\d+ \(concurrent methods\) vs read at recvchan.go:83`
	close(s.ctl.stopCh)
}

func (s *Session) Stopped() string {
	select {
	case <-s.ctl.stopCh:
		return s.ctl.reason // silent "happens-before"
	case <-s.acceptCh:
		return s.ctl.reason // reported with Stop's write
	}
}
