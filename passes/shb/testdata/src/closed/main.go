// Package closed: a close observed by a receive.
//
// Memory model: "The closing of a channel is synchronized before a
// receive that returns because the channel is closed." Expected: the
// spawn edge, and child's close → main after its receive (the receive
// can only return because of the close: nothing sends).
package main

var x int

func main() {
	done := make(chan struct{})
	go child(done)
	<-done
	_ = x
}

func child(done chan struct{}) {
	x = 1
	close(done)
}
