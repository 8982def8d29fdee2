// Package wgshared: an Add for one goroutine, before starting two; the
// second adds for itself.
//
// Memory model (sync): Wait returns once the counter is zero. After
// worker's Done, the counter may be zero before late has called Add:
// Wait may return then, and late's z = 1 races with main's read of z.
// Expected by the memory model: spawn edges, worker's Done → main after
// its Wait, and NO edge from late (a late add).
//
// KNOWN DIFFERENCE (pinned by the golden): shb gives an edge from late's
// Done to main after its Wait, and no late add: addedBeforeStart (in
// edges.go) accepts any Add of main's before the go statement, without
// counting which goroutine it was for.
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
