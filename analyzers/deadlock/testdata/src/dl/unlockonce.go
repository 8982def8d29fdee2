package main

import (
	"errors"
	"sync"
)

// A helper that returns a function unlocking its argument once
// (func() { once.Do(l.Unlock) }), deferred and also called early, as
// miekg/dns's servers do: every return unlocks the mutex, through the
// call or the deferred one, and the Once makes the second a no-op.

func unlockOnce(l sync.Locker) func() {
	var once sync.Once
	return func() { once.Do(l.Unlock) }
}

type onceServer struct {
	lock    sync.Mutex
	started bool
}

func (srv *onceServer) ListenAndServe(fail bool) error {
	unlock := unlockOnce(&srv.lock)
	srv.lock.Lock()
	defer unlock()
	if srv.started {
		return errors.New("started") // silent: the deferred unlock() releases srv.lock
	}
	if fail {
		return errors.New("listen")
	}
	srv.started = true
	unlock()
	return nil
}

func (srv *onceServer) Shutdown() {
	srv.lock.Lock()
	srv.started = false
	srv.lock.Unlock()
}

// A helper that returns a literal unlocking its argument, deferred as
// it is made.
func releaser(mu *sync.Mutex) func() {
	return func() { mu.Unlock() }
}

func (srv *onceServer) Stop(fail bool) error {
	srv.lock.Lock()
	defer releaser(&srv.lock)()
	if fail {
		return errors.New("stop") // silent: the deferred call releases srv.lock
	}
	srv.started = false
	return nil
}

// A helper whose function unlocks nothing: the early return keeps the
// lock.
func noUnlock(l sync.Locker) func() {
	var once sync.Once
	return func() { once.Do(func() {}) }
}

type leakyServer struct {
	lock    sync.Mutex
	started bool
}

func (srv *leakyServer) ListenAndServe() error {
	unlock := noUnlock(&srv.lock)
	srv.lock.Lock()
	defer unlock()
	if srv.started {
		return errors.New("started") // want `lock left held: srv.lock`
	}
	srv.started = true
	srv.lock.Unlock()
	return nil
}

func init() {
	s := &onceServer{}
	go s.ListenAndServe(false)
	s.Shutdown()
	s.Stop(true)
	l := &leakyServer{}
	go l.ListenAndServe()
}
