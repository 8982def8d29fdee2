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
// KNOWN DIFFERENCE (pinned by the golden): an edge "before e<once-end>"
// covers every event of the trace before the once-end, y = 1 included,
// so the graph orders child's y = 1 before main's read of y.
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
