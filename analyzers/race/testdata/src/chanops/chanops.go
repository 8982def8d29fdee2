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
	selectSendVsClose()
	selectSendInCallee()
	selectSendThenClose()
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

// A select's send case reads its channel as a plain send does: nothing
// orders it and the close (runtime/race's TestRaceChanSendSelectClose).
func selectSendVsClose() {
	ch := make(chan int, 1)
	quit := make(chan int)
	go func() {
		select {
		case ch <- 1:
		case <-quit:
		}
	}()
	close(ch) // want `data race on a chan int: write at chanops.go:\d+ \(main goroutine\) vs read at chanops.go:\d+`
}

// The same, the select one call away in the goroutine.
func selectSendInCallee() {
	ch := make(chan int, 1)
	go trySend(ch, make(chan int))
	close(ch) // want `data race on a chan int: write at chanops.go:\d+ \(main goroutine\) vs read at chanops.go:\d+`
}

func trySend(ch, quit chan int) {
	select {
	case ch <- 1:
	case <-quit:
	}
}

// The goroutine's result is received after its select, before the
// close: silent.
func selectSendThenClose() {
	ch := make(chan int, 1)
	done := make(chan bool)
	go func() {
		select {
		case ch <- 1:
		default:
		}
		done <- true
	}()
	<-done
	close(ch) // silent "happens-before"
}
