package main

import "sync"

// A replica's log, under its own mutex.
type replica struct {
	mu  sync.Mutex
	log []int
}

// consistent holds the first replica's mutex while it compares each
// other replica with it, locking each in turn; on a mismatch it lets
// the first go for a while and checks again. rs[0] and rs[i] with i from
// 1 are different replicas: silent.
func consistent(rs []*replica) bool {
	first := rs[0]
	first.mu.Lock()
	defer first.mu.Unlock()
	tries := 0
CHECK:
	for i := 1; i < len(rs); i++ {
		r := rs[i]
		r.mu.Lock() // silent "other-elements"
		same := len(r.log) == len(first.log)
		r.mu.Unlock()
		if !same {
			goto RETRY
		}
	}
	return true
RETRY:
	tries++
	if tries > 3 {
		return false
	}
	first.mu.Unlock() // silent "other-elements"
	first.mu.Lock()
	goto CHECK
}

// consistentFromZero starts at 0: rs[0] is the first replica, whose
// mutex it holds already: reported.
func consistentFromZero(rs []*replica) bool {
	first := rs[0]
	first.mu.Lock()
	defer first.mu.Unlock()
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		r.mu.Lock() // want `double lock on some paths: rs\[i\].mu is locked at elements.go:\d+ while still held on a path from the Lock at elements.go:\d+ that skips every Unlock`
		same := len(r.log) == len(first.log)
		r.mu.Unlock()
		if !same {
			return false
		}
	}
	return true
}

// A group's nodes are values in a slice, each with its mutex.
type group struct {
	nodes []replica
}

// sweep holds the head node's mutex while it trims each node after it:
// g.nodes[0] and g.nodes[i] with i from 1 are different nodes: silent.
func (g *group) sweep() {
	g.nodes[0].mu.Lock()
	for i := 1; i < len(g.nodes); i++ {
		g.nodes[i].mu.Lock() // silent "other-elements"
		if len(g.nodes[i].log) == 0 {
			g.nodes[i].mu.Unlock()
			continue
		}
		g.nodes[i].log = g.nodes[i].log[1:]
		g.nodes[i].mu.Unlock()
	}
	g.nodes[0].mu.Unlock()
}
