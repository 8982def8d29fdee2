// Package once: sync.Once.Do from two goroutines.
//
// Memory model (sync): "the completion of a single call of f() from
// once.Do(f) is synchronized before the return of any call of
// once.Do(f)". Each trace inlines the callback (its accesses hold the
// Once, "+once") then has a once-end and a once-after event. Expected:
// the spawn edge, and each trace's callback, from its first event to
// its once-end, → the other trace after its once-after (within a trace,
// order already holds).
package main

import "sync"

var (
	once sync.Once
	cfg  int
)

func setup() { cfg = 1 }

func main() {
	go child()
	once.Do(setup)
	_ = cfg
}

func child() {
	once.Do(setup)
	_ = cfg
}
