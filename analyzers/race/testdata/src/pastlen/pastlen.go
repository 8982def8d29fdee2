// Package pastlen checks appends under a mutex against readers of a
// snapshot of the slice taken under it: the append writes past the
// length of every snapshot, which the reader reads below.
package pastlen

import "sync"

// Hooks adds under its lock and runs a snapshot taken under it, by a
// method that returns the slice holding the lock (Run) or directly
// (RunDirect). Silent.
type Hooks struct {
	mu    sync.Mutex
	hooks []func()
}

func (h *Hooks) Add(f func()) {
	h.mu.Lock()
	h.hooks = append(h.hooks, f) // silent "append-past-len"
	h.mu.Unlock()
}

func (h *Hooks) snapshot() []func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.hooks
}

func (h *Hooks) Run() {
	for _, f := range h.snapshot() {
		f()
	}
}

func (h *Hooks) RunDirect() {
	h.mu.Lock()
	hs := h.hooks
	h.mu.Unlock()
	for i := range hs {
		hs[i]()
	}
}

// RunEach hands the snapshot to a helper, whose every call passes one.
func (h *Hooks) RunEach() { runAll(h.snapshot()) }

func runAll(hs []func()) {
	for _, f := range hs {
		f()
	}
}

// Clear drops the hooks for a new array: a snapshot keeps the old one.
func (h *Hooks) Clear() {
	h.mu.Lock()
	h.hooks = nil
	h.mu.Unlock()
}

// Log keeps its lines in a slice that Reset cuts to length zero with its
// array kept: the next append overwrites the element a snapshot still
// reads. Reported.
type Log struct {
	mu    sync.Mutex
	lines []string
}

func (l *Log) Printf(s string) {
	l.mu.Lock()
	l.lines = append(l.lines, s) // want `concurrent append: data race on an element of \[\]string: append at pastlen.go:\d+ \(concurrent methods\) vs read at pastlen.go:\d+ \(concurrent methods\)`
	l.mu.Unlock()
}

func (l *Log) Reset() {
	l.mu.Lock()
	l.lines = l.lines[:0]
	l.mu.Unlock()
}

func (l *Log) Dump() {
	l.mu.Lock()
	lines := l.lines
	l.mu.Unlock()
	for _, s := range lines {
		println(s)
	}
}
