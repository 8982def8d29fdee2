// Package main checks objects taken from a sync.Pool: what a goroutine
// takes is its own until it puts it back (a Put happens before the Get
// that returns what it put), so two goroutines that each take, write and
// put back a buffer do not race, though every Get may return what every
// Put gave. A write after the Put races with the next taker.
package main

import (
	"bytes"
	"sync"
)

type buf struct {
	b []byte
	n int
}

var bufs = sync.Pool{New: func() any { return new(buf) }}

func main() {
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			direct()
			viaHelpers()
			orFresh()
			imported()
		}()
	}
	wg.Wait()
	afterPut()
	afterPutHelper()
	putThenClear()
}

// Take, write, put back: silent.
func direct() {
	b := bufs.Get().(*buf)
	b.n++ // silent "pool-taken"
	b.b = append(b.b[:0], 'x')
	bufs.Put(b)
}

// The same through the package's helpers, the write one call away:
// silent.
func getBuf() *buf  { return bufs.Get().(*buf) }
func putBuf(b *buf) { bufs.Put(b) }

func fill(b *buf) {
	b.n = len(b.b) // silent "pool-taken"
}

func viaHelpers() {
	b := getBuf()
	fill(b)
	putBuf(b)
}

// A pool without New: a nil Get makes its own object: silent.
var nodes sync.Pool

type node struct{ next *node }

func orFresh() {
	n, _ := nodes.Get().(*node)
	if n == nil {
		n = new(node)
	}
	n.next = nil // silent "pool-taken"
	nodes.Put(n)
}

// Another package's methods on a taken buffer: silent.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func imported() {
	w := buffers.Get().(*bytes.Buffer)
	w.Reset() // silent "pool-taken"
	w.WriteString("x")
	buffers.Put(w)
}

// A write after the Put: the pool may have given the buffer to another
// goroutine by then (runtime/race's TestRacePool).
func afterPut() {
	b := bufs.Get().(*buf)
	bufs.Put(b)
	done := make(chan bool)
	go func() {
		c := bufs.Get().(*buf)
		c.n = 2 // want `data race on buf.n: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs write at main.go:\d+ \(main goroutine\); locks held: \{\} vs \{\}`
		bufs.Put(c)
		done <- true
	}()
	b.n = 3
	<-done
}

// The same, put back through the helper.
func afterPutHelper() {
	b := getBuf()
	putBuf(b)
	done := make(chan bool)
	go func() {
		c := getBuf()
		c.b = nil // want `data race on buf.b: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs write at main.go:\d+ \(main goroutine\)`
		putBuf(c)
		done <- true
	}()
	b.b = nil
	<-done
}

// A helper that puts the buffer back and then clears it: the clearing
// comes after the Put, in the callee.
func release(b *buf) {
	bufs.Put(b)
	b.n = 0 // want `data race on buf.n: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs write at main.go:\d+ \(main goroutine\)`
}

func putThenClear() {
	done := make(chan bool)
	go func() {
		release(getBuf())
		done <- true
	}()
	c := getBuf()
	c.n = 5
	putBuf(c)
	<-done
}
