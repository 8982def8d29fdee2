// Package cond: sync.Cond Signal and Wait.
//
// Memory model (sync): "a call to Signal or Broadcast synchronizes
// before the return of any Wait call that it unblocks" (and the Cond's
// lock orders the two sides too). One goroutine, not started in a loop,
// signals: expected, the spawn edge, and the signaller's first Signal →
// main after its Wait. The events in between hold mu.
package main

import "sync"

var (
	mu    sync.Mutex
	c     = sync.NewCond(&mu)
	ready bool
	data  int
)

func main() {
	go signaller()
	mu.Lock()
	for !ready {
		c.Wait()
	}
	mu.Unlock()
	_ = data
}

func signaller() {
	data = 1
	mu.Lock()
	ready = true
	c.Signal()
	mu.Unlock()
}
