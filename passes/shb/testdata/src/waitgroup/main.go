// Package waitgroup: Add before go, Done in the goroutine, Wait.
//
// Memory model (sync): "a call to Done synchronizes before the return of
// any Wait call that it unblocks". The Add happens before the go
// statement, so Wait waits for the Done. Expected: the spawn edge main →
// worker, and the worker's Done (with what precedes it: the deferred
// Done runs at the return, after x = 1) → main after its Wait.
package main

import "sync"

var x int

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go worker(&wg)
	wg.Wait()
	_ = x
}

func worker(wg *sync.WaitGroup) {
	defer wg.Done()
	x = 1
}
