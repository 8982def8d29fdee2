// Package chanops checks the races of channel operations themselves: a
// close writes the channel and a send reads it, as the race detector
// sees them.
package main

func main() {
	sendThenClose()
	sendVsClose()
	closeVsLen()
	joinedCloser()
	twoClosers(make(chan struct{}))
}

// The receive orders the send before the close: silent.
func sendThenClose() {
	ch := make(chan int)
	go func() { ch <- 1 }()
	<-ch
	close(ch) // silent "happens-before"
}

// Nothing orders the send and the close.
func sendVsClose() {
	ch := make(chan int, 1)
	go func() { ch <- 1 }()
	close(ch) // want `data race on a chan int: write at chanops.go:\d+ \(main goroutine\) vs read at chanops.go:\d+`
}

// len and cap do not race with close (runtime/race's
// TestNoRaceChanCloseLen): silent.
func closeVsLen() {
	ch := make(chan int, 1)
	go func() { close(ch) }()
	_ = len(ch)
}

// The first closer's close is received before the second goroutine
// starts: ordered, and not reported either way.
func joinedCloser() {
	started := make(chan struct{})
	closeIt := func() { close(started) } // silent "closes-both"
	go closeIt()
	<-started
	go closeIt()
}

// Two closes that nothing orders are a double close if both run, which
// panics whichever comes first: not reported as a race.
func twoClosers(done chan struct{}) {
	for range 2 {
		go func() { close(done) }() // silent "closes-both"
	}
}
