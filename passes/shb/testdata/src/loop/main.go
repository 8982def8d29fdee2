// Package loop: goroutines started in a loop, each sending one result,
// collected by a receive loop.
//
// Memory model: each send is synchronized before the completion of its
// receive. The worker is started in a loop (multi: stands for any number
// of goroutines), and the receive loop is taken to drain every send.
// Expected: the spawn edge from main's first spawn, and the workers'
// sends → main after the end of its receive loop (an event inside a
// loop is ordered only after the loop ends: the next iteration's event
// comes later). The receives cannot be counted against the sends, so no
// edge from a receive into the workers.
package main

var results [3]int

func main() {
	ch := make(chan int)
	for i := 0; i < 3; i++ {
		go worker(i, ch)
	}
	sum := 0
	for i := 0; i < 3; i++ {
		sum += <-ch
	}
	_ = results
}

func worker(i int, ch chan int) {
	results[i] = i
	ch <- i
}
