package main

import "testing"

func newFeed() chan int { return make(chan int, 1) }

// Each test makes its own channel (one place makes both): the first
// test's send does not fill the second's buffer, silent.
func TestFeedA(t *testing.T) {
	ch := newFeed()
	ch <- 1 // silent "buffered"
	go consume(ch)
	close(ch)
}

func TestFeedB(t *testing.T) {
	ch := newFeed()
	ch <- 1 // silent "test-objects"
	go consume(ch)
	close(ch)
}
