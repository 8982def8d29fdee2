// Package oncebefore: what a goroutine does before its once.Do.
//
// Memory model (sync): only "the completion of a single call of f()" is
// synchronized before the return of every once.Do(f). What child does
// before calling Do (y = 1) is not ordered before main's return from
// Do: main may run f itself, and child's y = 1 races with main's read.
// Expected by the memory model: the spawn edge; child's once-end → main
// after its once-after, covering only the callback's event(s) e1..; and
// main's once-end → child after its once-after.
//
// The edges out of a callback start at its first event ("e1..before
// e2"): what precedes the Do in the trace is left out.
package main

import "sync"

var (
	once sync.Once
	cfg  int
	y    int
)

func setup() { cfg = 1 }

func main() {
	go child()
	once.Do(setup)
	_ = cfg
	_ = y
}

func child() {
	y = 1
	once.Do(setup)
}
