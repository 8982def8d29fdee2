// Package sharing asserts which locations origins share, and the traps
// where they must not.
package main

import "pta"

type Counter struct{ n int }

func worker(c *Counter) { c.n++ }

// Two go statements given different objects: nothing is shared.
func twoGoDifferent() {
	a, b := &Counter{}, &Counter{}
	go worker(a)
	go worker(b)
	pta.NotShared(&a.n)
	pta.NotShared(&b.n)
	pta.NoAlias(a, b)
}

// Two go statements given the same object share it.
func twoGoSame() {
	a := &Counter{}
	go worker(a)
	go worker(a)
	pta.Shared(&a.n)
}

func newCounter() *Counter { return &Counter{} }

// A constructor called twice gives two objects.
func constructorTwice() {
	a, b := newCounter(), newCounter()
	go worker(a)
	go worker(b)
	pta.NoAlias(a, b)
	pta.NotShared(&a.n)
}

type Server struct{ stats *Counter }

func newServer() *Server { return &Server{stats: newCounter()} }

// Nested constructors: each server gets its own counter.
func nestedConstructors() {
	s1, s2 := newServer(), newServer()
	go worker(s1.stats)
	go worker(s2.stats)
	pta.NoAlias(s1.stats, s2.stats)
	pta.NotShared(&s1.stats.n)
}

// A go statement in a loop starts many goroutines: one object given to
// all of them is shared.
func loopShared(n int) {
	c := &Counter{}
	for range n {
		go worker(c)
	}
	pta.Shared(&c.n)
}

// An object allocated in each iteration goes to that iteration's
// goroutine only.
func loopPerIteration(n int) {
	for range n {
		c := &Counter{}
		go worker(c)
		pta.NotShared(&c.n)
	}
}

// What one iteration hands to the next is seen by both.
func loopCarried(n int) {
	prev := &Counter{}
	for range n {
		c := &Counter{}
		go worker(prev)
		prev = c
		pta.Shared(&prev.n)
	}
}

// A goroutine started by a goroutine is an origin of its own.
func nested() {
	c := &Counter{}
	go func() {
		go worker(c)
		worker(c)
	}()
	pta.Shared(&c.n)
}

// Globals are shared by every origin that touches them.
var total Counter

func globals() {
	go worker(&total)
	total.n = 1
	pta.Shared(&total.n)
}

// Reads alone do not make a location shared.
func readOnly() {
	c := &Counter{}
	read := func() { _ = c.n }
	go read()
	go read()
	pta.NotShared(&c.n)
}

func main() {
	twoGoDifferent()
	twoGoSame()
	constructorTwice()
	nestedConstructors()
	loopShared(2)
	loopPerIteration(2)
	loopCarried(2)
	nested()
	globals()
	readOnly()
}
