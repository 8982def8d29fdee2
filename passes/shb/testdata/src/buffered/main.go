// Package buffered: a send and a receive on a channel of capacity 1.
//
// Memory model: a send is synchronized before the completion of the
// corresponding receive; "The kth receive on a channel with capacity C is
// synchronized before the completion of the k+Cth send". With C = 1 and
// one send, no receive orders the send: expected, besides the spawn
// edge, only child's send → main after its receive, and no edge from
// main's receive back into child.
//
// KNOWN DIFFERENCE (pinned by the golden): a channel of capacity 1 is
// taken for a semaphore (send to acquire, receive to release), so child's
// y = 2 after its send "holds {ch}" though the send here is a handoff,
// never given back in child. Two goroutines that each do "ch <- 1; y = n"
// would look mutually exclusive on y while they race.
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
