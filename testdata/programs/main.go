// Command programs is run two ways: go build makes a binary that runs
// main, go test a test binary that runs TestRun and never main. Both
// call run, which holds one data race (two goroutines increment racy)
// and one deadlock (two goroutines take a and b in opposite orders),
// and two look-alikes that are ordered: guarded by mu, and ordered by a
// channel. origo reports the two bugs once each, with or without the
// test: a goroutine of the test binary is never paired with main's.
package main

import (
	"fmt"
	"sync"
)

var racy, guarded, ordered int

var mu, a, b sync.Mutex

func run() {
	var wg sync.WaitGroup
	wg.Add(4)
	go func() { defer wg.Done(); racy++ }()
	go func() { defer wg.Done(); racy++ }()
	go func() {
		defer wg.Done()
		a.Lock()
		b.Lock()
		b.Unlock()
		a.Unlock()
	}()
	go func() {
		defer wg.Done()
		b.Lock()
		a.Lock()
		a.Unlock()
		b.Unlock()
	}()
	var wg2 sync.WaitGroup
	wg2.Add(2)
	go func() { defer wg2.Done(); mu.Lock(); guarded++; mu.Unlock() }()
	go func() { defer wg2.Done(); mu.Lock(); guarded++; mu.Unlock() }()
	wg2.Wait()
	ch := make(chan int)
	go func() { ordered = 1; ch <- 1 }()
	<-ch
	ordered++
	wg.Wait()
	fmt.Println(racy, guarded, ordered)
}

func main() { run() }
