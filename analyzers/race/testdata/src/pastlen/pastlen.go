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

// Loop takes the snapshot in each round of a loop, as an event loop
// does: the Unlock of one round comes before the load of the next only
// through the next round's Lock, so the load holds the mutex.
func (h *Hooks) Loop(events chan int, quit chan struct{}) {
	for {
		select {
		case <-events:
			h.mu.Lock()
			hs := h.hooks
			h.mu.Unlock()
			for _, f := range hs {
				f()
			}
		case <-quit:
			return
		}
	}
}

// Detach takes the hooks out (a snapshot, then nil) and on a failure
// puts back those not yet run into a new array.
func (h *Hooks) Detach(fail func() bool) {
	h.mu.Lock()
	hs := h.hooks
	h.hooks = nil
	h.mu.Unlock()
	for i, f := range hs {
		if fail() {
			h.mu.Lock()
			rest := make([]func(), 0, len(hs)-i+len(h.hooks))
			rest = append(rest, hs[i:]...)
			rest = append(rest, h.hooks...)
			h.hooks = rest
			h.mu.Unlock()
			return
		}
		f()
	}
}

// Start runs Loop on a goroutine of its own.
func (h *Hooks) Start(events chan int, quit chan struct{}) { go h.Loop(events, quit) }

// Clear drops the hooks for a new array: a snapshot keeps the old one.
func (h *Hooks) Clear() {
	h.mu.Lock()
	h.hooks = nil
	h.mu.Unlock()
}

// Pools keeps its entries as structs: a reader copies each element
// out of its snapshot. Silent.
type Pools struct {
	mu      sync.Mutex
	entries []entry
}

type entry struct {
	name string
	stop func() error
}

func (p *Pools) Add(name string, stop func() error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.entries = append(p.entries, entry{name: name, stop: stop}) // silent "append-past-len"
}

func (p *Pools) Close() error {
	p.mu.Lock()
	es := p.entries
	p.entries = nil
	p.mu.Unlock()
	for i, e := range es {
		if err := e.stop(); err != nil {
			p.mu.Lock()
			rest := make([]entry, 0, len(es)-i+len(p.entries))
			rest = append(rest, es[i:]...)
			rest = append(rest, p.entries...)
			p.entries = rest
			p.mu.Unlock()
			return err
		}
		println(e.name)
	}
	return nil
}

// Drain's literal captures the receiver, so go/ssa keeps p in a
// variable of its own and loads it at each use: the Lock's p and the
// load's p are one value still.
func (p *Pools) Drain() {
	p.mu.Lock()
	es := p.entries
	p.mu.Unlock()
	report := func(e entry) { println(p, e.name) }
	for _, e := range es {
		report(e)
	}
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
