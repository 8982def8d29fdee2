// Package chantoken: a channel of one filled where it is made holds a
// token, and a goroutine takes the token to lock (<-w.tok) and puts it
// back to unlock (w.tok <- struct{}{}), directly or in helpers: what a
// goroutine does between the two holds the lock (common-lock). The
// fill where the channel is made locks nothing: the goroutine that made
// it does not hold the lock afterwards, so a field it writes without
// taking the token is reported, with no lock held.
package chantoken

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
