package gb

import (
	"sync"
	"sync/atomic"
	"time"
)

type Box[T any] struct {
	mu sync.Mutex
	// +checklocks:mu
	v  T // want v:`guarded\(mu at more\.go:11\)`
	cb func()
}

func (b *Box[T]) Get() T {
	return b.v // want `read of b.v without b.mu held`
}

func (b *Box[T]) Set(v T) {
	b.mu.Lock()
	b.v = v
	b.mu.Unlock()
}

func (b *Box[T]) Closures(vs []T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	each(vs, func(v T) {
		func() { b.v = v }()
	})
	b.cb = func() {
		b.v = vs[0] // want `write to b.v without b.mu held`
	}
	time.AfterFunc(time.Second, func() {
		_ = b.v // want `read of b.v without b.mu held`
	})
	defer func() {
		_ = b.v // runs before the Unlock deferred first
	}()
}

func (b *Box[T]) DeferOrder() {
	b.mu.Lock()
	defer func() {
		_ = b.v // want `read of b.v without b.mu held`
	}()
	defer b.mu.Unlock()
}

func (b *Box[T]) DeferAfterUnlock() {
	b.mu.Lock()
	defer func() {
		_ = b.v // want `read of b.v without b.mu held`
	}()
	b.mu.Unlock()
}

func (b *Box[T]) DeferUnlocks() {
	b.mu.Lock()
	defer func() {
		b.v = *new(T)
		b.mu.Unlock()
	}()
}

func each[T any](vs []T, f func(T)) {
	for _, v := range vs {
		f(v)
	}
}

func (b *Box[T]) Copy() T {
	b.mu.Lock()
	c := *b
	b.mu.Unlock()
	_ = c.v // a copy, read under the lock
	b.mu.Lock()
	defer b.mu.Unlock()
	return (*b).v
}

func UseBox() int {
	var b Box[int]
	b.Set(1)
	b.v = 2 // want `write to b.v without b.mu held`
	return b.Get()
}

func (b *Box[T]) Local() {
	mu := &b.mu
	mu.Lock()
	b.v = *new(T) // the same path from b, through a variable
	mu.Unlock()
}

func boxOf() Box[int] { return Box[int]{} }

// A struct value this function did not load is a copy: its maker read it.
func Copies(b Box[string]) (string, int) {
	return b.v, boxOf().v
}

type Locked struct {
	mu sync.Locker
	// +checklocks:mu
	n int // want n:`guarded\(mu at more\.go:106\)`
	// +checklocks:mu
	// +checkatomic
	hits int64 // want hits:`guarded\(mu at more\.go:108; atomic\)`
}

func (l *Locked) Inc() {
	l.mu.Lock()
	l.n++
	func(l *Locked) { l.n++ }(l)
	l.mu.Unlock()
	l.n++ // want `write to l.n without l.mu held`
	atomic.AddInt64(&l.hits, 1)
	l.hits = 0 // want `write to l.hits without l.mu held`
}
