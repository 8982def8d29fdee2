// Package callbacks checks calls of a function value that a helper is
// given: the pointer analysis merges the values of every caller, but the
// walk calls, in each chain of calls, the one that its caller passed.
package main

var n, m, k int

// withRetry calls the operation its caller gives it.
func withRetry(op func()) { op() }

// setup writes n through withRetry before the reader starts: silent,
// though withRetry is called again after the reader started, with
// other operations.
func setup() { withRetry(func() { n = 1 }) } // silent "happens-before"

func use(int) {}

func main() {
	setup()
	startStore()
	done := make(chan bool)
	go func() {
		use(n + m + k)
		done <- true
	}()
	withRetry(func() { use(0) })
	// Two calls with nothing in between: the walk of the second is no
	// repeat of the first, whose operation was another.
	withRetry(func() { m = 2 }) // want `data race on m: write at callbacks.go:\d+ \(main goroutine\) vs read at callbacks.go:\d+ \(goroutine started at callbacks.go:\d+\)`
	withRetry(func() { k = 3 }) // want `data race on k: write at callbacks.go:\d+ \(main goroutine\) vs read at callbacks.go:\d+ \(goroutine started at callbacks.go:\d+\)`
	<-done
}
