// Package main is a module at go 1.21, where a loop has one variable for
// all its iterations.
package main

import "sync"

func use(int) {}

// Each goroutine reads i while the loop increments it.
func shared() {
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ { // want `captured loop variable: data race on i: write at loop.go:\d+ \(main goroutine\) vs read at loop.go:\d+ \(goroutine started at loop.go:\d+, in a loop\).*before Go 1.22 \(this file is go1.21\) every iteration shares one i`
		wg.Add(1)
		go func() {
			defer wg.Done()
			use(i)
		}()
	}
	wg.Wait()
}

// Passing i as an argument copies it: safe.
func passed() {
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			use(i)
		}(i)
	}
	wg.Wait()
}

// A copy in the body is a variable per iteration: safe.
func copied() {
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		i := i
		wg.Add(1)
		go func() {
			defer wg.Done()
			use(i)
		}()
	}
	wg.Wait()
}

// Each goroutine reads k and v while the range loop assigns them: one
// report (on the same lines as v's), whose fix copies both.
func sharedRange(m map[string]int) {
	var wg sync.WaitGroup
	for k, v := range m { // want `captured loop variable: data race on k`
		wg.Add(1)
		go func() {
			defer wg.Done()
			use(len(k) + v)
		}()
	}
	wg.Wait()
}

// The body skips an index by incrementing i: a copy would increment the
// copy, and the loop would not skip, so no fix is offered.
func skipping() {
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ { // want `captured loop variable: data race on i`
		if i%3 == 0 {
			i++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			use(i)
		}()
	}
	wg.Wait()
}

func main() {
	shared()
	passed()
	copied()
	sharedRange(map[string]int{"a": 1})
	skipping()
}
