package main

import "sync"

var mu sync.Mutex

func get(empty bool) int {
	mu.Lock()
	if empty {
		return 0
	}
	mu.Unlock()
	return 1
}

func main() {
	get(true)
	mu.Lock()
	mu.Unlock()
}
