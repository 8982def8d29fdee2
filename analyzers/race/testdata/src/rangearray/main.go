// Package rangearray ranges over an array of segments, each guarded by
// the mutex of the same index. A range with the index alone does not
// evaluate the array (the Go spec: at most one iteration variable and a
// constant length), so it reads nothing, though go/ssa loads it; a
// range with the element variable copies each segment, a read.
package main

import "sync"

type segment struct{ entries int }

type cache struct {
	locks    [4]sync.Mutex
	segments [4]segment
}

func (c *cache) set(i int) {
	c.locks[i].Lock()
	c.segments[i].entries++ // want `data race on cache.segments\[\*\].entries: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs read at main.go:47 \(main goroutine\)`
	c.locks[i].Unlock()
}

// count reads each segment under its own lock: silent.
func (c *cache) count() (n int) {
	for i := range c.segments {
		c.locks[i].Lock()
		n += c.segments[i].entries
		c.locks[i].Unlock()
	}
	return n
}

// The same loop through a pointer to the array: silent.
func (c *cache) countPtr() (n int) {
	segs := &c.segments
	for i := range segs {
		c.locks[i].Lock()
		n += segs[i].entries
		c.locks[i].Unlock()
	}
	return n
}

// snapshot copies each segment with no lock held: reported (at set's
// write).
func (c *cache) snapshot() (n int) {
	for _, s := range c.segments {
		n += s.entries
	}
	return n
}

func main() {
	c := new(cache)
	done := make(chan bool)
	go func() {
		c.set(1)
		done <- true
	}()
	println(c.count(), c.countPtr(), c.snapshot())
	<-done
}
