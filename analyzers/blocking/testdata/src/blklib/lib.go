// Package blklib is used by blkx: functions that operate on the
// channels they are given.
package blklib

import "context"

// Produce sends one value on out.
func Produce(out chan<- int) { out <- 1 }

// Drain receives from in until it is closed.
func Drain(in <-chan int) {
	for range in {
	}
}

// Compute returns a value.
func Compute() int { return 2 }

// Tx waits for its context; its importer calls Rollback, which this
// package never does: silent in a library.
type Tx struct {
	ctx    context.Context
	cancel context.CancelFunc
}

func Begin() *Tx {
	ctx, cancel := context.WithCancel(context.Background())
	t := &Tx{ctx: ctx, cancel: cancel}
	go func() { <-t.ctx.Done() }()
	return t
}

func (t *Tx) Rollback() { t.cancel() }
