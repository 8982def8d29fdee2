package main

import "sync"

// A mutex belongs to no goroutine: a function that locks it, hands its
// Unlock to a goroutine as a function value and locks it again waits
// until that goroutine has called it (the mutex as a start signal, as
// miekg/dns's tests use it).

type starter struct {
	notify func()
	ready  bool
}

func (s *starter) run() {
	s.ready = true
	if s.notify != nil {
		s.notify()
	}
}

// startAndWait hands the Unlock in a field.
func startAndWait() *starter {
	var wait sync.Mutex
	wait.Lock()
	s := &starter{notify: wait.Unlock}
	go s.run()
	wait.Lock() // silent "handed-unlock"
	return s
}

// startWith hands it as an argument.
func startWith(start func(done func())) {
	var mu sync.Mutex
	mu.Lock()
	go start(mu.Unlock)
	mu.Lock() // silent "handed-unlock"
	mu.Unlock()
}

// startForgotten hands nothing: the second Lock blocks forever.
func startForgotten() *starter {
	var wait sync.Mutex
	wait.Lock()
	s := &starter{}
	go s.run()
	wait.Lock() // want `double lock: wait is locked at startsignal.go:\d+ while already held`
	return s
}

func init() {
	startAndWait()
	startWith(func(done func()) { done() })
	startForgotten()
}
