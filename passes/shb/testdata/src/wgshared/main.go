// Package wgshared: an Add for one goroutine, before starting two; the
// second adds for itself.
//
// Memory model (sync): Wait returns once the counter is zero. After
// worker's Done, the counter may be zero before late has called Add:
// Wait may return then, and late's z = 1 races with main's read of z.
// Expected by the memory model: spawn edges, worker's Done → main after
// its Wait, and NO edge from late: late's Add is a late add. The Add(1)
// before the go statements covers one of them, worker, the first in
// program order (see covered in edges.go).
package main

import "sync"

var x, z int

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go worker(&wg)
	go late(&wg)
	wg.Wait()
	_ = x
	_ = z
}

func worker(wg *sync.WaitGroup) {
	defer wg.Done()
	x = 1
}

func late(wg *sync.WaitGroup) {
	wg.Add(1)
	z = 1
	wg.Done()
}
