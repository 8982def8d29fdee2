// Package chantoken: a channel of one filled where it is made holds a
// token, and a goroutine takes the token to lock (<-w.tok) and puts it
// back to unlock (w.tok <- struct{}{}), directly or in helpers: what a
// goroutine does between the two holds the lock (common-lock). The
// fill where the channel is made locks nothing: the goroutine that made
// it does not hold the lock afterwards, so a field it writes without
// taking the token is reported, with no lock held.
package chantoken

import "sync"

// Writer is safe for concurrent use.
type Writer struct {
	tok  chan struct{}
	buf  []byte
	n    int
	last int
}

// NewWriter makes a writer, its token in its channel.
func NewWriter() *Writer {
	tok := make(chan struct{}, 1)
	tok <- struct{}{}
	return &Writer{tok: tok}
}

// Write appends holding the token.
func (w *Writer) Write(p []byte) {
	<-w.tok
	defer func() { w.tok <- struct{}{} }()
	w.buf = append(w.buf, p...) // silent "common-lock"
	w.n += len(p)               // silent "common-lock"
}

func (w *Writer) lock()   { <-w.tok }
func (w *Writer) unlock() { w.tok <- struct{}{} }

// Reset clears the buffer holding the token its helpers take and give
// back.
func (w *Writer) Reset() {
	w.lock()
	w.buf = nil // silent "common-lock"
	w.n = 0     // silent "common-lock"
	w.unlock()
}

// Note records a value without the token.
func (w *Writer) Note(v int) {
	w.last = v // want `data race on Writer.last: write at chantoken.go:\d+ \((concurrent methods|goroutine started at chantoken_test.go:\d+|test goroutine)\) vs (read|write) at chantoken.go:\d+ \((concurrent methods|goroutine started at chantoken_test.go:\d+|test goroutine)\); locks held: \{\} vs \{\}`
}

// Last reads the value holding the token.
func (w *Writer) Last() int {
	<-w.tok
	defer func() { w.tok <- struct{}{} }()
	return w.last
}

// A notice is a channel of one that its maker hands to its waiters
// before it fills it: each send is a notification, not a token put
// back, and a waiter's receive takes no lock. Two waiters notified one
// after the other count at once. Reported.
type board struct {
	hits int
	wg   sync.WaitGroup
}

type notice struct {
	b    *board
	note chan struct{}
}

func wait(n notice) {
	defer n.b.wg.Done()
	<-n.note
	n.b.hits++ // want `data race on board.hits: write at chantoken.go:\d+ \(goroutine started at chantoken.go:\d+, in a loop\) vs write at chantoken.go:\d+ \(goroutine started at chantoken.go:\d+, in a loop\); locks held: \{\} vs \{\}`
}

func NotifyTwice() int {
	b := &board{}
	note := make(chan struct{}, 1)
	for range 2 {
		b.wg.Add(1)
		go wait(notice{b, note})
	}
	note <- struct{}{}
	note <- struct{}{}
	b.wg.Wait()
	return b.hits
}
