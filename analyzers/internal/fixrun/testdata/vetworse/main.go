package main

import "sync"

type guarded struct {
	mu sync.Mutex
	n  int
}

func (g *guarded) inc() {
	g.mu.Lock()
	g.n++
	g.mu.Unlock()
}

func main() {
	var g guarded
	g.inc()
}
