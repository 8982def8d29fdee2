// Package entrypoints is a library with no test and no caller: its
// exported functions and methods are where its programs begin, each
// called by some importer's goroutine.
package entrypoints

import "sync"

// Sum adds up items in goroutines that all write total.
func Sum(items []int) int {
	total := 0
	var wg sync.WaitGroup
	for _, x := range items {
		wg.Add(1)
		go func() { defer wg.Done(); total += x }() // want `data race on total`
	}
	wg.Wait()
	return total // silent "happens-before"
}

// SumLocked is Sum with a mutex.
func SumLocked(items []int) int {
	total := 0
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, x := range items {
		wg.Add(1)
		go func() { defer wg.Done(); mu.Lock(); total += x; mu.Unlock() }() // silent "common-lock"
	}
	wg.Wait()
	return total
}

// SumSlots gives each goroutine a result of its own.
func SumSlots(items []int) int {
	parts := make([]int, len(items))
	var wg sync.WaitGroup
	for i, x := range items {
		wg.Add(1)
		go func(i, x int) { defer wg.Done(); parts[i] = x * 2 }(i, x) // silent "own-element"
	}
	wg.Wait()
	total := 0
	for _, p := range parts {
		total += p
	}
	return total
}

// Summer has no mutex: its callers use one at a time, but Add starts
// goroutines of its own that write its total.
type Summer struct{ total int }

// Add adds items to s in goroutines.
func (s *Summer) Add(items []int) {
	var wg sync.WaitGroup
	for _, x := range items {
		wg.Add(1)
		go func() { defer wg.Done(); s.total += x }() // want `data race on Summer.total`
	}
	wg.Wait()
}

// AddSlots adds items to s from per-goroutine results.
func (s *Summer) AddSlots(items []int) {
	parts := make([]int, len(items))
	var wg sync.WaitGroup
	for i, x := range items {
		wg.Add(1)
		go func() { defer wg.Done(); parts[i] = x }()
	}
	wg.Wait()
	for _, p := range parts {
		s.total += p // silent "happens-before"
	}
}

// Total reads s: a call of its own, in sequence with Add's (Summer has no
// mutex: its callers do not share it while adding).
func (s *Summer) Total() int { return s.total }

// early is written by the goroutine RecordEarly starts, and read before
// the call waits for it: a race within one call.
var early int

// RecordEarly reads early before it waits.
func RecordEarly(x int) int {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); early = x }() // want `data race on early`
	v := early
	wg.Wait()
	return v
}

// last is written by the goroutine Record starts and joins, and read by
// Peek: each call of an entry point is checked on its own, with the
// goroutines it starts, so Peek's read comes in a call apart.
var last int

// Record writes last in a goroutine it waits for.
func Record(x int) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); last = x }() // silent "calls-apart"
	wg.Wait()
}

// Peek reads last in a call of its own.
func Peek() int {
	v := last // silent "calls-apart"
	var wg sync.WaitGroup
	wg.Go(func() {})
	wg.Wait()
	return v
}
