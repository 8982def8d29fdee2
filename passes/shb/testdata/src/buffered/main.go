// Package buffered: a send and a receive on a channel of capacity 1.
//
// Memory model: a send is synchronized before the completion of the
// corresponding receive; "The kth receive on a channel with capacity C is
// synchronized before the completion of the k+Cth send". With C = 1 and
// one send, no receive orders the send: expected, besides the spawn
// edge, only child's send → main after its receive, and no edge from
// main's receive back into child.
//
// child's send is a handoff, never given back in child: y = 2 after it
// holds no lock. Only a send that the same function follows with a
// receive on the channel (a semaphore: send to acquire, receive to
// release) makes the accesses between them hold the channel.
package main

var x, y int

func main() {
	ch := make(chan int, 1)
	go child(ch)
	<-ch
	_ = x
	y = 1
}

func child(ch chan int) {
	x = 1
	ch <- 1
	y = 2
}
