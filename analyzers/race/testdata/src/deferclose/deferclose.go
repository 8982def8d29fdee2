// Package deferclose checks a goroutine that closes its done channel in
// a deferred call and returns early on an error: the close runs at
// whichever return the goroutine takes, after what it did on the way
// there, so a receive of the close orders what the goroutine wrote on
// either path. The walk of the goroutine meets the deferred close at
// both returns, one after the other; the receive is ordered after the
// one at the last return (the memory model's close rule, rule
// happens-before).
package main

import (
	"context"
	"errors"
)

func work(i int) (int, error) {
	if i < 0 {
		return 0, errors.New("negative")
	}
	return i, nil
}

type job struct {
	done chan struct{}
	err  error
	n    int
	note int
}

// run writes the error on its early return and the result at its end,
// before the deferred close: the caller's reads after the receive are
// silent.
func run(i int) (int, error) {
	j := &job{done: make(chan struct{})}
	go func() {
		defer close(j.done)
		v, err := work(i)
		if err != nil {
			j.err = err // silent "happens-before"
			return
		}
		j.n = v
	}()
	<-j.done
	return j.n, j.err
}

// finish is the same one call down: the goroutine's function calls it,
// and its own defer closes.
func (j *job) finish(i int) {
	defer close(j.done)
	if _, err := work(i); err != nil {
		j.err = err // silent "happens-before"
		return
	}
	j.n = i
}

func runHelper(i int) error {
	j := &job{done: make(chan struct{})}
	go j.finish(i)
	<-j.done
	return j.err
}

// A flight is loaded once, by the goroutine of the caller that made it;
// the caller waits for its close in a select that may leave on the
// context.
type flight struct {
	done chan struct{}
	err  error
	val  int
}

func load(ctx context.Context, i int) (int, error) {
	f := &flight{done: make(chan struct{})}
	go func() {
		defer close(f.done)
		v, err := work(i)
		if err != nil {
			f.err = err // silent "happens-before"
			return
		}
		f.val = v
	}()
	select {
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-f.done:
		return f.val, f.err
	}
}

// runLate defers its note before the close: deferred calls run last in,
// first out, so the note is written after the close, while the caller
// reads it. Reported.
func runLate(i int) int {
	j := &job{done: make(chan struct{})}
	go func() {
		defer func() { j.note = 1 }() // want `data race on job.note: write at deferclose.go:\d+ \(goroutine started at deferclose.go:\d+\) vs read at deferclose.go:\d+ \(main goroutine\)`
		defer close(j.done)
		if _, err := work(i); err != nil {
			return
		}
	}()
	<-j.done
	return j.note
}

func main() {
	run(1)
	runHelper(2)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	load(ctx, 3)
	runLate(4)
}
