// Package callers checks accesses in a helper that several callers give
// different objects: the pointer analysis merges what the callers pass,
// but each event of a trace knows the chain of calls it was walked in,
// and there the helper's receiver is the caller's own object.
package main

type notifier struct{ c, r, w int }

func newNotifier() *notifier { return &notifier{} }

// clear writes the notifier it is given: newOwner's, before the loop on
// it starts, and b's from main, which no loop reads: silent, though the
// pointer analysis merges the two receivers.
func (q *notifier) clear() { q.c = 0 } // silent "happens-before"

// reset writes a's notifier after its loop started: a race.
func (q *notifier) reset() { q.r = 1 } // want `data race on notifier.r: write at callers.go:\d+ \(main goroutine\) vs read at callers.go:\d+ \(goroutine started at callers.go:\d+\)`

// wipe is called on b's notifier and then, with nothing in between, on
// a's: the walk skips the second call as the same as the first, and the
// events of the first stand for both. a's loop reads what it writes.
func (q *notifier) wipe() { q.w = 2 } // want `data race on notifier.w: write at callers.go:\d+ \(main goroutine\) vs read at callers.go:\d+ \(goroutine started at callers.go:\d+\)`

func (q *notifier) loop() {
	for {
		use(q.c + q.r + q.w)
	}
}

type owner struct{ q *notifier }

func newOwner() *owner {
	o := &owner{q: newNotifier()}
	o.q.clear()
	go o.q.loop()
	return o
}

func use(int) {}

func main() {
	a := newOwner()
	b := &owner{q: newNotifier()}
	b.q.clear()
	a.q.reset()
	b.q.wipe()
	a.q.wipe()
}
