// Package blklib is used by blkx: functions that operate on the
// channels they are given.
package blklib

// Produce sends one value on out.
func Produce(out chan<- int) { out <- 1 }

// Drain receives from in until it is closed.
func Drain(in <-chan int) {
	for range in {
	}
}

// Compute returns a value.
func Compute() int { return 2 }
