// Package newcond checks the lock of a Cond made by sync.NewCond(l):
// c.L.Lock() locks l, the mutex the Cond was made with, so that
// accesses under c.L and under l, or under c.L in two goroutines,
// exclude each other.
package main

import (
	"fmt"
	"sync"
)

func main() {
	startGate()
	lockedByName()
	unlockedWrite()
}

// startGate waits on the Cond for a flag its starter sets under c.L
// (logrus's test of hooks).
func startGate() {
	var mtx sync.Mutex
	c := sync.NewCond(&mtx)
	start := false
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.L.Lock()
			for !start { // silent "common-lock"
				c.Wait()
			}
			c.L.Unlock()
		}()
	}
	c.L.Lock()
	start = true
	c.Broadcast()
	c.L.Unlock()
	wg.Wait()
}

// lockedByName locks the mutex by its own name on one side and through
// c.L on the other.
type queue struct {
	mu    sync.Mutex
	ready *sync.Cond
	items []int
}

func lockedByName() {
	q := &queue{}
	q.ready = sync.NewCond(&q.mu)
	done := make(chan bool)
	go func() {
		q.ready.L.Lock()
		for len(q.items) == 0 { // silent "common-lock"
			q.ready.Wait()
		}
		q.ready.L.Unlock()
		done <- true
	}()
	q.mu.Lock()
	q.items = append(q.items, 1)
	q.mu.Unlock()
	q.ready.Signal()
	<-done
}

// unlockedWrite's twin sets the flag without the lock.
func unlockedWrite() {
	var mtx sync.Mutex
	c := sync.NewCond(&mtx)
	start := false
	done := make(chan bool)
	go func() {
		c.L.Lock()
		fmt.Println(start)
		c.L.Unlock()
		done <- true
	}()
	start = true // want `data race on start`
	c.Broadcast()
	<-done
}
