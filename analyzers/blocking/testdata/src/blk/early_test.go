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

// TestLoad's goroutine fails the test on an error rather than send
// (load, in quits.go, returns quietly and is reported): silent.
func TestLoad(t *testing.T) {
	ch := make(chan int)
	go func() {
		v, err := lookup(1)
		if err != nil {
			t.Error(err)
			return
		}
		ch <- v
	}()
	<-ch // silent "failed-test"
}

// TestValidate returns before it receives only where it failed
// (validate, in leaks.go, returns quietly and its worker's send is
// reported): silent.
func TestValidate(t *testing.T) {
	ch := make(chan int)
	go func() { ch <- compute() }() // silent "failed-test"
	if _, err := lookup(1); err != nil {
		t.Error(err)
		return
	}
	<-ch
}
