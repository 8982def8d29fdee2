// Package relock: a function entered with its caller's mutex held that
// unlocks it around a wait and locks it again before every return gives
// the caller back the lock it had, as a sync.Cond's Wait does. Both
// shapes stay silent ("common-lock"): the wait loop with returns inside
// it, in the method the locked caller calls (Stream.readLocked), and one
// call further (Queue.popLocked calls waitLocked). The twin (Pipe) returns
// on one path with the lock released: what its caller reads after is
// read unlocked, reported.
package relock

import (
	"runtime"
	"sync"
	"time"
)

// Stream is safe for concurrent use.
type Stream struct {
	mu     sync.Mutex
	frames [][]byte
	closed bool
	read   int
}

// Read returns the next frame.
func (s *Stream) Read() ([]byte, bool) {
	s.mu.Lock()
	f, ok := s.readLocked()
	n := s.read // silent "common-lock"
	_ = n
	s.mu.Unlock()
	return f, ok
}

// readLocked is called with s.mu held; it waits for a frame with the
// lock released and takes it again before it looks.
func (s *Stream) readLocked() ([]byte, bool) {
	for {
		if s.closed {
			return nil, false
		}
		if len(s.frames) > 0 {
			break
		}
		s.mu.Unlock()
		time.Sleep(time.Millisecond)
		s.mu.Lock()
	}
	f := s.frames[0]
	s.frames = s.frames[1:]
	s.read++
	return f, true
}

// Push adds a frame.
func (s *Stream) Push(f []byte) {
	s.mu.Lock()
	s.frames = append(s.frames, f)
	s.read = 0
	s.mu.Unlock()
}

// Close closes the stream.
func (s *Stream) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}

// Queue is safe for concurrent use.
type Queue struct {
	mu      sync.Mutex
	items   []int
	stopped bool
	taken   int
}

// Pop takes the first item.
func (q *Queue) Pop() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	v, ok := q.popLocked()
	q.taken++ // silent "common-lock"
	return v, ok
}

func (q *Queue) popLocked() (int, bool) {
	for len(q.items) == 0 {
		if q.stopped {
			return 0, false
		}
		q.waitLocked()
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}

// waitLocked releases q.mu while it lets the other goroutines run, and
// takes it again.
func (q *Queue) waitLocked() {
	q.mu.Unlock()
	runtime.Gosched()
	q.mu.Lock()
}

// Put adds an item.
func (q *Queue) Put(v int) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.taken = 0
	q.mu.Unlock()
}

// Stop stops the queue.
func (q *Queue) Stop() {
	q.mu.Lock()
	q.stopped = true
	q.mu.Unlock()
}

// Pipe is safe for concurrent use.
type Pipe struct {
	mu   sync.Mutex
	buf  []byte
	done bool
	n    int
}

// Read waits for data; readLocked returns with p.mu released once the
// pipe is done.
func (p *Pipe) Read() int {
	p.mu.Lock()
	if !p.readLocked() {
		return p.n
	}
	n := p.n
	p.mu.Unlock()
	return n
}

func (p *Pipe) readLocked() bool {
	for len(p.buf) == 0 {
		if p.done {
			p.mu.Unlock()
			return false
		}
		p.mu.Unlock()
		time.Sleep(time.Millisecond)
		p.mu.Lock()
	}
	p.buf = p.buf[:0]
	return true
}

// Write adds data.
func (p *Pipe) Write(b []byte) {
	p.mu.Lock()
	p.buf = append(p.buf, b...)
	p.n += len(b) // want `data race on Pipe.n: write at relock.go:\d+ \(concurrent methods\) vs read at relock.go:\d+ \(concurrent methods\); locks held: \{p.mu\} vs \{\}`
	p.mu.Unlock()
}

// Finish marks the pipe done.
func (p *Pipe) Finish() {
	p.mu.Lock()
	p.done = true
	p.mu.Unlock()
}
