// Package main is run by go build as main, and by go test as its tests:
// two programs. The goroutines TestRun starts never run beside main's
// read after its Wait (a test binary never runs main), so the one race
// is between the two writers, in either program.
package main

import (
	"fmt"
	"sync"
)

var racy, guarded, ordered int

var mu sync.Mutex

func run() {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); racy++ }() // want `data race on racy`
	go func() { defer wg.Done(); racy++ }()
	var wg2 sync.WaitGroup
	wg2.Add(2)
	go func() { defer wg2.Done(); mu.Lock(); guarded++; mu.Unlock() }() // silent "common-lock"
	go func() { defer wg2.Done(); mu.Lock(); guarded++; mu.Unlock() }()
	wg2.Wait()
	ch := make(chan int)
	go func() { ordered = 1; ch <- 1 }() // silent "happens-before"
	<-ch
	ordered++
	wg.Wait()
}

// report reads the counters after run's joins: ordered in main's
// program; in the test binary, TestRun's goroutines are joined too.
func report() { fmt.Println(racy, guarded, ordered) } // silent "happens-before"

func main() {
	run()
	report()
}
