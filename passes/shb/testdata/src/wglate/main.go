// Package wglate: an Add inside the goroutine that Wait waits for.
//
// Memory model (sync): Done synchronizes before the return of a Wait it
// unblocks, but here nothing makes the Add happen before the Wait: Wait
// may find the counter at zero and return before the goroutine runs.
// Expected: the spawn edge only, no edge from the Done into main, and
// the Add listed as a late add.
package main

import "sync"

var z int

func main() {
	var wg sync.WaitGroup
	go late(&wg)
	wg.Wait()
	_ = z
}

func late(wg *sync.WaitGroup) {
	wg.Add(1)
	z = 1
	wg.Done()
}
