// Package main checks blocking operations whose partners are, or are
// not, in another package.
package main

import (
	"context"

	"blklib"
)

// produced receives what another package's function sends on the
// channel it was given: silent.
func produced() int {
	ch := make(chan int)
	go blklib.Produce(ch)
	return <-ch // silent "partner"
}

// drained sends to a goroutine of another package's function that
// drains a different channel: nothing receives from ch.
func drained() {
	ch, other := make(chan int), make(chan int)
	go blklib.Drain(other)
	ch <- 1 // want `send blocks forever: goroutine started at main.go:\d+ sends on ch \(made at main.go:\d+, unbuffered\), which no other goroutine receives from`
	close(other)
}

// computed sends another package's result to a starter that may have
// stopped listening.
func computed(ctx context.Context) int {
	ch := make(chan int)
	go func() {
		ch <- blklib.Compute() // want `send blocks forever when computed returns early`
	}()
	select {
	case v := <-ch:
		return v
	case <-ctx.Done():
		return 0
	}
}

func main() {
	go produced()
	go drained()
	go computed(context.Background())
	go submitted()
	go submittedVia()
	go ranNow()
	go pumped()
	go labeled()
}
