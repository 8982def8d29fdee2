// Package main checks that "//origo:ignore blocking reason" silences
// each kind of blocking report: every reported case has a twin silenced
// at the end of the reported line or by the directive alone on the line
// above; a directive that names another analyzer, or that is malformed,
// silences nothing.
package main

import (
	"context"
	"sync"
)

func nilRecv() {
	var c chan int
	<-c // want `receive from nil channel blocks forever`
}

func nilRecvSilenced() {
	var c chan int
	<-c //origo:ignore blocking the test checks the directive at the end of the line // silent "ignored"
}

func noSender() {
	c := make(chan int)
	<-c // want `receive blocks forever: goroutine started at main.go:\d+ receives from c`
}

func noSenderSilenced() {
	c := make(chan int)
	<-c //origo:ignore blocking the test checks the directive at the end of the line // silent "ignored"
}

func noSenderSilencedAbove() {
	c := make(chan int)
	// The directive alone on its line applies to the line under its
	// block of comments.
	//origo:ignore blocking the test checks the directive on the line above
	<-c // silent "ignored"
}

func noSenderBoth() {
	c := make(chan int)
	<-c //origo:ignore deadlock,blocking a list of analyzers // silent "ignored"
}

func noSenderOther() {
	c := make(chan int)
	<-c //origo:ignore race another analyzer's directive // want `receive blocks forever`
}

func noSenderMisspelled() {
	c := make(chan int)
	<-c //origo:ingore blocking misspelled // want `receive blocks forever`
}

func noSenderUnknown() {
	c := make(chan int)
	<-c //origo:ignore blockng misspelled name // want `receive blocks forever`
}

func fetch(ctx context.Context) int {
	ch := make(chan int)
	go func() {
		ch <- 1 // want `send blocks forever when fetch returns early`
	}()
	select {
	case v := <-ch:
		return v
	case <-ctx.Done():
		return 0
	}
}

func fetchSilenced(ctx context.Context) int {
	ch := make(chan int)
	go func() {
		//origo:ignore blocking the test checks a leak on an early return
		ch <- 1 // silent "ignored"
	}()
	select {
	case v := <-ch:
		return v
	case <-ctx.Done():
		return 0
	}
}

func noDone() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { println("work") }()
	wg.Wait() // want `WaitGroup.Wait blocks forever`
}

func noDoneSilenced() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { println("work") }()
	wg.Wait() //origo:ignore blocking the test checks a Wait with no Done // silent "ignored"
}

// A deadlock silenced by "//origo:ignore deadlock" on the line of either
// of its sides leaves no sequel either: the Wait for its goroutines is
// not reported. Without the directive, the Wait would be.
var a, b sync.Mutex

func lockAB(wg *sync.WaitGroup) {
	defer wg.Done()
	a.Lock()
	b.Lock()
	b.Unlock()
	a.Unlock()
}

func lockBA(wg *sync.WaitGroup) {
	defer wg.Done()
	b.Lock()
	a.Lock() //origo:ignore deadlock the test checks that the deadlock's sequels go with it
	a.Unlock()
	b.Unlock()
}

func deadlockSilenced() {
	var wg sync.WaitGroup
	wg.Add(2)
	go lockAB(&wg)
	go lockBA(&wg)
	wg.Wait() // silent "ignored"
}

func main() {
	go nilRecv()
	go nilRecvSilenced()
	go noSender()
	go noSenderSilenced()
	go noSenderSilencedAbove()
	go noSenderBoth()
	go noSenderOther()
	go noSenderMisspelled()
	go noSenderUnknown()
	go fetch(context.Background())
	go fetchSilenced(context.Background())
	go noDone()
	go noDoneSilenced()
	go deadlockSilenced()
}
