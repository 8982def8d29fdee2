// Package unbuffered: a send and a receive on an unbuffered channel.
//
// Memory model: "A send on a channel is synchronized before the
// completion of the corresponding receive from that channel", and "A
// receive from an unbuffered channel is synchronized before the
// completion of the corresponding send on that channel." Expected: the
// spawn edge main → child; child's send → main after its receive; and
// main's receive → child after its send.
package main

var x, y int

func main() {
	ch := make(chan int)
	go child(ch)
	<-ch
	_ = x
	y = 1
}

func child(ch chan int) {
	x = 1
	ch <- 1
	_ = y
}
