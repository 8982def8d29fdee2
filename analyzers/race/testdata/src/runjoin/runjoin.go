// Package runjoin checks goroutines started and joined in each run of a
// loop, on a channel that the run makes: what a run's goroutine did
// before it sent or closed happens before what the run does after the
// receive, and before every later run.
package main

import "runjoinlib"

type result struct{ n int }

// closeEach joins each run's goroutine by closing the run's channel:
// silent.
func closeEach(n int) int {
	sum := 0
	for range n {
		r := &result{}
		done := make(chan struct{})
		go func() {
			r.n = 1
			close(done)
		}()
		<-done
		sum += r.n // silent "happens-before"
	}
	return sum
}

// sendEach joins each run's goroutine by a send on the run's channel:
// silent.
func sendEach(n int) int {
	sum := 0
	for range n {
		r := &result{}
		done := make(chan bool)
		go func() {
			r.n = 2
			done <- true
		}()
		<-done
		sum += r.n // silent "happens-before"
	}
	return sum
}

// readBeforeJoin reads what the goroutine writes before the receive
// that joins it: reported.
func readBeforeJoin(n int) int {
	sum := 0
	for range n {
		r := &result{}
		done := make(chan struct{})
		go func() {
			r.n = 3 // want `data race on result.n: write at runjoin.go:\d+ \(goroutine started at runjoin.go:\d+, in a loop\) vs read at runjoin.go:\d+ \(main goroutine\)`
			close(done)
		}()
		sum += r.n
		<-done
	}
	return sum
}

// twoWorkers starts two goroutines on one run's channel, and the
// receive waits for one of them only: reported.
func twoWorkers(n int) int {
	sum := 0
	for range n {
		r := &result{}
		done := make(chan bool, 2)
		go func() {
			r.n = 4 // want `data race on result.n: write at runjoin.go:\d+ \(goroutine started at runjoin.go:\d+, in a loop\) vs read at runjoin.go:\d+ \(main goroutine\)`
			done <- true
		}()
		go func() {
			done <- true
		}()
		<-done
		sum += r.n
	}
	return sum
}

// importedEach joins each run's goroutine on an object that a function
// of another package makes in the run: silent.
func importedEach(n int) int {
	sum := 0
	for range n {
		b := runjoinlib.New()
		b.N = 1
		done := make(chan bool)
		go func() {
			b.N++
			done <- true
		}()
		<-done
		sum += b.N // silent "happens-before"
	}
	return sum
}

func main() {
	println(closeEach(2), sendEach(2), readBeforeJoin(2), twoWorkers(2), importedEach(2))
}
