// Package buffers has two slices used as double buffers: one filled
// while the other is drained, swapped holding the locks of both sides.
package main

import "sync"

type summary struct {
	bufMtx  sync.Mutex // guards hotBuf
	mtx     sync.Mutex // guards coldBuf and sum; held by the flush
	hotBuf  []float64
	coldBuf []float64
	sum     float64
}

func newSummary(n int) *summary {
	return &summary{hotBuf: make([]float64, 0, n), coldBuf: make([]float64, 0, n)}
}

// Observe appends to the hot buffer holding bufMtx: silent against the
// flush's reads of the cold one, which it reaches only after a swap.
func (s *summary) Observe(v float64) {
	s.bufMtx.Lock()
	defer s.bufMtx.Unlock()
	s.hotBuf = append(s.hotBuf, v) // want `concurrent append: data race on an element of \[\]float64: append at buffers.go:\d+ \(main goroutine\) vs read at buffers.go:61 \(goroutine started at buffers.go:\d+\)`
	if len(s.hotBuf) == cap(s.hotBuf) {
		s.asyncFlush()
	}
}

// asyncFlush swaps the buffers holding both mutexes and hands mtx to
// the goroutine that drains the cold one.
func (s *summary) asyncFlush() {
	s.mtx.Lock()
	s.swapBufs()
	go func() {
		s.flushColdBuf()
		s.mtx.Unlock()
	}()
}

func (s *summary) swapBufs() {
	if len(s.coldBuf) != 0 {
		panic("coldBuf is not empty")
	}
	s.hotBuf, s.coldBuf = s.coldBuf, s.hotBuf // want `data race on summary.coldBuf: write at buffers.go:\d+ \(main goroutine\) vs read at buffers.go:\d+ \(goroutine started at buffers.go:\d+\); locks held: \{s.bufMtx, s.mtx\} vs \{\}`
}

func (s *summary) flushColdBuf() {
	for _, v := range s.coldBuf { // silent "common-lock": swapped holding mtx, which the flush holds
		s.sum += v // silent "double-buffer"
	}
	s.coldBuf = s.coldBuf[0:0] // want `data race on summary.coldBuf: write at buffers.go:\d+ \(goroutine started at buffers.go:\d+\) vs read at buffers.go:\d+ \(goroutine started at buffers.go:\d+\); locks held: \{s.mtx\} vs \{\}`
}

// Peek reads the cold buffer holding no lock: after a swap it reads the
// array Observe appends to. Reported.
func (s *summary) Peek() float64 {
	if len(s.coldBuf) == 0 {
		return 0
	}
	return s.coldBuf[0]
}

func main() {
	a := newSummary(4)
	for i := range 10 {
		a.Observe(float64(i))
	}
	b := newSummary(4)
	go func() {
		for {
			b.Peek()
		}
	}()
	for i := range 10 {
		b.Observe(float64(i))
	}
}
