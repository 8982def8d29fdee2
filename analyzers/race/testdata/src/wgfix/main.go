// Package wgfix checks the fix offered for a WaitGroup.Add inside the
// goroutine: the Add moved before the go statement where that is
// certain, and no fix where it is not.
package main

import "sync"

func work() {}

// Fixed: the Add is the literal's first statement.
func addInside() {
	var wg sync.WaitGroup
	go func() {
		wg.Add(1) // want `WaitGroup.Add inside the goroutine: wg.Add at main.go:\d+ runs in the goroutine started at main.go:\d+, so wg.Wait at main.go:\d+ \(main goroutine\) may return before it`
		defer wg.Done()
		work()
	}()
	wg.Wait()
}

// Fixed: in a loop, the Add moves before the go statement, inside the
// loop, once per goroutine.
func addInLoop() {
	var wg sync.WaitGroup
	for range 3 {
		go func() {
			wg.Add(1) // want `WaitGroup.Add inside the goroutine: wg.Add at main.go:\d+ runs in the goroutine started at main.go:\d+, in a loop`
			defer wg.Done()
			work()
		}()
	}
	wg.Wait()
}

// No fix: the count is a variable.
func addCount(n int) {
	var wg sync.WaitGroup
	go func() {
		wg.Add(n) // want `WaitGroup.Add inside the goroutine`
		for range n {
			wg.Done()
		}
	}()
	wg.Wait()
}

// No fix: the Add is not the literal's first statement: work might
// decide otherwise before it.
func addSecond() {
	var wg sync.WaitGroup
	go func() {
		work()
		wg.Add(1) // want `WaitGroup.Add inside the goroutine`
		wg.Done()
	}()
	wg.Wait()
}

// No fix: the WaitGroup is the literal's parameter, a name that means
// nothing before the go statement.
func addParam() {
	var group sync.WaitGroup
	go func(wg *sync.WaitGroup) {
		wg.Add(1) // want `WaitGroup.Add inside the goroutine`
		defer wg.Done()
		work()
	}(&group)
	group.Wait()
}

func worker(wg *sync.WaitGroup) {
	wg.Add(1) // want `WaitGroup.Add inside the goroutine`
	defer wg.Done()
	work()
}

// No fix: the Add is in the function the goroutine runs, which other
// callers may call.
func addInHelper() {
	var wg sync.WaitGroup
	go worker(&wg)
	wg.Wait()
}

func main() {
	addInside()
	addInLoop()
	addCount(2)
	addSecond()
	addParam()
	addInHelper()
}
