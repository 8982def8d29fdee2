// Package neverdone waits for a goroutine's result or for its
// context's end: a context that is never canceled (context.Background,
// context.TODO, context.WithoutCancel) has a Done channel that is nil,
// so the select waits for the result, and what the goroutine did
// before sending it happens before what follows (never-canceled).
package main

import (
	"context"
	"time"
)

type exporter struct{ n int }

func (e *exporter) export() error { e.n++; return nil }

// flush's cases have bodies of their own.
func flush(ctx context.Context, e *exporter) error {
	wait := make(chan error, 1)
	go func() { wait <- e.export() }()
	var err error
	select {
	case err = <-wait:
	case <-ctx.Done():
		err = ctx.Err()
	}
	return err
}

// drain's cases have none: the code after the select is each's.
func drain(ctx context.Context, e *exporter) {
	done := make(chan struct{})
	go func() {
		e.n = 2
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// flushCanceled's context may end first: the select may leave before
// the goroutine's write.
func flushCanceled(ctx context.Context, e *exporter) {
	wait := make(chan error, 1)
	go func() {
		e.n = 3 // want `data race on exporter.n: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs read at main.go:\d+ \(main goroutine\)`
		wait <- nil
	}()
	select {
	case <-wait:
	case <-ctx.Done():
	}
}

func main() {
	e := &exporter{}
	flush(context.Background(), e)
	println(e.n) // silent "happens-before"

	d := &exporter{}
	drain(context.WithoutCancel(context.TODO()), d)
	println(d.n) // silent "happens-before"

	c := &exporter{}
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	flushCanceled(ctx, c)
	println(c.n)
}
