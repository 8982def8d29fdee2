// Package selects: receives in a select.
//
// Memory model: a select case that proceeds is an ordinary send or
// receive, but which case proceeds is not known statically. The first
// select has two live cases: neither receive must happen, so no edge
// may lead into them (events marked maybe). The second select's case on
// never is dead (nothing sends on or closes it), so its case on b
// happens for sure: expected, the spawn edges and sender b's send → main
// after the second select, and no edge from sender a into main. An edge
// from main to sender a after its send: if a's send completes, main's
// select received it (nothing else receives on a), and a receive on an
// unbuffered channel is synchronized before the completion of the send.
package main

var x, y int

func main() {
	a := make(chan int)
	b := make(chan int)
	never := make(chan int)
	go func() { x = 1; a <- 1 }()
	go func() { y = 1; b <- 1 }()
	select {
	case <-a:
	case <-b:
	}
	select {
	case <-b:
	case <-never:
	}
	_ = y
}
