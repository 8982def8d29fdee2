package main

import (
	"errors"
	"sync"
	"sync/atomic"
)

var errNone = errors.New("none")

// A spin flag (a word set by an atomic swap and stored back free) is no
// mutex: a return that leaves it set makes the next swap fail, it blocks
// nothing. Not a lock left held (rule spin-flag), where the same shape
// on a mutex is.
type runner struct {
	running uint32
	busy    atomic.Bool
	mu      sync.Mutex
	queue   []int
}

func (r *runner) next() (int, error) {
	if len(r.queue) == 0 {
		return 0, errNone
	}
	x := r.queue[0]
	r.queue = r.queue[1:]
	return x, nil
}

func (r *runner) run() {
	if atomic.CompareAndSwapUint32(&r.running, 0, 1) {
		if _, err := r.next(); err != nil {
			return // silent "spin-flag"
		}
		atomic.StoreUint32(&r.running, 0)
	}
}

func (r *runner) poll() int {
	if !r.busy.CompareAndSwap(false, true) {
		return 0
	}
	x, err := r.next()
	if err != nil {
		return -1 // silent "spin-flag"
	}
	r.busy.Store(false)
	return x
}

// The twin on a mutex.
func (r *runner) runLocked() {
	if r.mu.TryLock() {
		if _, err := r.next(); err != nil {
			return // want `lock left held: r.mu`
		}
		r.mu.Unlock()
	}
}
