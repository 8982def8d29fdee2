// Package main checks two facts about a goroutine that each run of a
// loop starts. A receive loop (v, ok := <-ch until !ok, or range ch) in
// a function called in each run observes the close of the goroutine
// that call started, so what follows the receive loop in that run comes
// after the goroutine, not only what follows the loop around the call.
// And an object that a callee makes in each run (tx := begin(), whose
// init makes tx.meta) is that run's own: written before the run starts
// its goroutine, it is written before the goroutine reads it, and the
// goroutines of earlier runs read theirs.
package main

type Meta struct{ free, pgid int }

type Tx struct {
	meta *Meta
	n    int
}

func (tx *Tx) init() { tx.meta = &Meta{} }

// begin is a factory whose callee fills what it makes.
func begin() *Tx {
	tx := &Tx{}
	tx.init()
	return tx
}

// check reads tx on a goroutine and closes the channel it returns when
// it is done; it sends nothing.
func (tx *Tx) check() <-chan error {
	ch := make(chan error)
	go func() {
		defer close(ch)
		if tx.meta.free+tx.meta.pgid+tx.n < 0 {
			panic("negative")
		}
	}()
	return ch
}

// commit drains check's channel until it reads it closed.
func (tx *Tx) commit() {
	tx.meta.free = 1 // silent "not-published": the run's own Tx, before check hands it to its goroutine
	ch := tx.check()
	for {
		_, ok := <-ch
		if !ok {
			break
		}
	}
	tx.n = 2 // silent "happens-before"
}

// commitRange drains it with range.
func (tx *Tx) commitRange() {
	ch := tx.check()
	for range ch {
	}
	tx.meta.pgid = 3 // silent "happens-before"
}

// early writes between the start of the goroutine and the receive loop.
func (tx *Tx) early() {
	ch := tx.check()
	tx.n = 4 // want `data race on Tx.n`
	for range ch {
	}
}

// run commits, in each run, what that run's begin made. The Tx it
// begins before the loop, at another call of begin, is another object.
func run(n int) {
	first := begin()
	first.commit()
	for i := 0; i < n; i++ {
		tx := begin()
		tx.commit()
		begin().commitRange()
		begin().early()
	}
}

// fresh prepares, in each run, what that run's begin made, one call
// further down than commit, before the run's goroutine starts, and
// never waits for it.
func fresh(n int) {
	for i := 0; i < n; i++ {
		step(i)
	}
}

func step(i int) {
	tx := begin()
	tx.prepare(i)
	tx.check()
}

func (tx *Tx) prepare(i int) {
	tx.meta.pgid = i // silent "not-published": step's own Tx, before check hands it to its goroutine
}

// reuse writes, in each run, the one Tx made before the loop, which the
// goroutine of the run before may still be reading.
func reuse(n int) {
	tx := begin()
	for i := 0; i < n; i++ {
		tx.meta.pgid = i // want `data race on Meta.pgid`
		tx.check()
	}
}

// Each runs on a goroutine of its own, whose objects are its own.
func main() {
	go run(2)
	go fresh(2)
	go reuse(2)
}
