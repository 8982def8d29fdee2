// Package replaced is a library whose types carry an atomic or a
// mutex, so that library mode presumes their exported methods called by
// goroutines at once. A type one of whose methods replaces its whole
// receiver (*it = *next, *b = Builder{}) is the exception: that store
// overwrites every field at once, the atomic and the mutex too, so the
// type is used by one goroutine at a time (receiver-replaced).
package replaced

import (
	"sync"
	"sync/atomic"
)

// Iter moves to its next page by copying it over itself; Close is
// idempotent through an atomic flag. Silent.
type Iter struct {
	closed int32
	pos    int
	rows   []string
	next   *Iter
}

func (it *Iter) Scan() (string, bool) {
	if it.pos >= len(it.rows) {
		if it.next == nil {
			return "", false
		}
		*it = *it.next // silent "receiver-replaced"
		return it.Scan()
	}
	r := it.rows[it.pos]
	it.pos++
	return r, true
}

func (it *Iter) Close() {
	if atomic.CompareAndSwapInt32(&it.closed, 0, 1) {
		it.rows = nil // silent "receiver-replaced"
	}
}

// Builder resets itself to its zero value; Grow locks a mutex for the
// pool it shares with others. Silent.
type Builder struct {
	mu   sync.Mutex
	buf  []byte
	size int
}

func (b *Builder) Grow(n int) {
	b.mu.Lock() // silent "receiver-replaced"
	b.size += n // silent "receiver-replaced"
	b.mu.Unlock()
}

func (b *Builder) Len() int { return b.size }

func (b *Builder) Reset() {
	*b = Builder{}
}

// Page copies fields one by one and keeps its flag atomic: callers may
// still call Close while Scan runs, and the plain write of closed
// against the atomic one is reported.
type Page struct {
	closed int32
	pos    int
}

func (p *Page) Next(o *Page) {
	p.closed = o.closed // want `data race on Page.closed`
	p.pos = o.pos
}

func (p *Page) Close() {
	atomic.StoreInt32(&p.closed, 1)
}
