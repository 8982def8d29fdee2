// Package main checks goroutines started through a helper that runs
// the function it is given (raft's goFunc): each call of the helper
// starts the function that call passes, a goroutine of its own, though
// the helper's go statement is one.
package main

import "sync"

type peer struct{ addr string }

type replica struct{ peer peer }

type node struct {
	wg    sync.WaitGroup
	reps  map[int]*replica
	ticks int
}

// goFunc starts f in a goroutine the node waits for: a closure
// capturing the function it is given.
func (n *node) goFunc(f func()) {
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		f()
	}()
}

// spawn starts the function it is given directly.
func spawn(f func()) { go f() }

func newNode() *node {
	n := &node{reps: map[int]*replica{}}
	n.goFunc(n.run)
	return n
}

// run is the leader loop: it starts a replicator per peer through
// goFunc, and later updates a replicator's peer while that replicator
// reads it. Reported: the leader loop and the replicators are
// different goroutines, though both were started by goFunc.
func (n *node) run() {
	for i := range 3 {
		if r, ok := n.reps[i]; ok {
			r.peer = peer{addr: "moved"} // want `data race on replica.peer.addr: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs read at main.go:\d+ \(goroutine started at main.go:\d+\)`
			continue
		}
		r := &replica{}
		n.reps[i] = r
		n.goFunc(func() { n.replicate(r) })
	}
}

func (n *node) replicate(r *replica) { println(r.peer.addr) }

// counter's goroutines, started by spawn, one counting and one
// printing, race on n. Reported.
type counter struct{ n int }

func startCounter() *counter {
	c := &counter{}
	spawn(c.count)
	spawn(c.print)
	return c
}

func (c *counter) count() {
	c.n++ // want `data race on counter.n: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs read at main.go:\d+ \(goroutine started at main.go:\d+\)`
}

func (c *counter) print() { println(c.n) }

// ticker starts the same function, tick, on each ticker a call of
// newTicker makes: the goroutines are told apart only by the
// constructor call, and are one to the analysis, which merges the
// tallies that attach makes for each. Silent.
type ticker struct {
	tally *tally
}

type tally struct{ n int }

func attach(t *ticker) { t.tally = &tally{} }

func newTicker() *ticker {
	t := &ticker{}
	attach(t)
	spawn(t.tick)
	return t
}

func (t *ticker) tick() {
	t.tally.n++ // silent "twins": each ticker's tick, told apart only by the call of newTicker
}

func main() {
	newNode()
	startCounter()
	newTicker()
	newTicker()
}
