package main

import "sync"

var mu sync.Mutex

// getLocked is called with mu held, and releases it while it waits.
func getLocked(empty bool) int {
	if empty {
		return 0
	}
	mu.Unlock()
	mu.Lock()
	return 1
}

func main() {
	mu.Lock()
	getLocked(true)
	mu.Unlock()
}
