// Package transfer: locks a goroutine takes over from its starter.
//
// A go statement whose goroutine unlocks a mutex that the starter
// locked hands the lock over: the goroutine's events hold it from its
// start until its Unlock, those after it (in the goroutine, and in the
// starter after the go statement) do not. The acquire after the Unlock
// holds nothing. A goroutine that locks the mutex itself takes nothing
// over: its events before its Lock hold nothing.
package main

import "sync"

var (
	mu sync.Mutex
	n  int
)

func flush() { n = 0 }

func main() {
	mu.Lock()
	n = 1
	go func() {
		flush()
		n = 2
		mu.Unlock()
		n = 3
		mu.Lock()
		n = 4
		mu.Unlock()
	}()
	n = 5
	mu.Lock()
	go func() {
		n = 6
		mu.Lock()
		n = 7
		mu.Unlock()
	}()
	mu.Unlock()
}
