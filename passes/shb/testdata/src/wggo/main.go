// Package wggo: WaitGroup.Go.
//
// Memory model (sync): WaitGroup.Go(f) calls f in a new goroutine and
// "the return of f synchronizes before the return of any Wait call that
// it unblocks". Expected: the spawn edge main → the goroutine (a
// spawn event carrying the group), and the end of the goroutine → main
// after its Wait.
package main

import "sync"

var x int

func main() {
	var wg sync.WaitGroup
	wg.Go(func() {
		x = 1
	})
	wg.Wait()
	_ = x
}
