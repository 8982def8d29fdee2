// Package main checks that "//origo:ignore deadlock reason" silences
// each kind of deadlock report: every reported case has a twin silenced
// at the end of the reported line and one silenced by the directive
// alone on the line above; a directive that names another analyzer, or
// that is malformed, silences nothing.
package main

import "sync"

type box struct {
	mu sync.Mutex
	n  int
}

func (b *box) get() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n
}

func (b *box) relock() {
	b.mu.Lock()
	b.mu.Lock() // want `double lock: b.mu is locked at main.go:\d+ while already held`
}

func (b *box) relockSilenced() {
	b.mu.Lock()
	b.mu.Lock() //origo:ignore deadlock the test checks the directive at the end of the line // silent "ignored"
}

func (b *box) relockSilencedAbove() {
	b.mu.Lock()
	// The directive alone on its line applies to the line under its
	// block of comments.
	//origo:ignore deadlock the test checks the directive on the line above
	b.mu.Lock() // silent "ignored"
}

func (b *box) relockBoth() {
	b.mu.Lock()
	b.mu.Lock() //origo:ignore race,deadlock a list of analyzers // silent "ignored"
}

func (b *box) relockOther() {
	b.mu.Lock()
	b.mu.Lock() //origo:ignore race another analyzer's directive // want `double lock: b.mu is locked`
}

func (b *box) relockMalformed() {
	b.mu.Lock()
	b.mu.Lock() // origo:ignore deadlock a space after the slashes // want `double lock: b.mu is locked`
}

func (b *box) relockNoReason() {
	b.mu.Lock()
	//origo:ignore deadlock
	b.mu.Lock() // want `double lock: b.mu is locked`
}

// The directive on the line above a report applies to that line only.
func (b *box) relockTwice() {
	b.mu.Lock()
	//origo:ignore deadlock only the next line
	b.mu.Lock() // silent "ignored"
	b.mu.Lock() // want `double lock: b.mu is locked`
}

func (b *box) report() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.get() // want `double lock: b.mu is held \(locked at main.go:\d+\) when this goroutine calls \(\*dlignore.box\).get`
}

func (b *box) reportSilenced() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.get() //origo:ignore deadlock the test checks a double lock through a callee // silent "ignored"
}

func (b *box) first() int {
	b.mu.Lock()
	if b.n == 0 {
		return 0 // want `lock left held: b.mu \(locked at main.go:\d+\) is still locked when first returns here`
	}
	b.mu.Unlock()
	return 1
}

func (b *box) firstSilenced() int {
	b.mu.Lock()
	if b.n == 0 {
		return 0 //origo:ignore deadlock the test checks a lock left held // silent "ignored"
	}
	b.mu.Unlock()
	return 1
}

func (b *box) firstSilencedAbove() int {
	b.mu.Lock()
	if b.n == 0 {
		//origo:ignore deadlock the test checks a lock left held, from the line above
		return 0 // silent "ignored"
	}
	b.mu.Unlock()
	return 1
}

func (b *box) unlockTwice() {
	b.mu.Lock()
	b.mu.Unlock()
	b.mu.Unlock() // want `unlock of unlocked mutex: b.mu is unlocked at main.go:\d+`
}

func (b *box) unlockTwiceSilenced() {
	b.mu.Lock()
	b.mu.Unlock()
	b.mu.Unlock() //origo:ignore deadlock the test checks an unlock of an unlocked mutex // silent "ignored"
}

// Two goroutines take two locks in opposite orders.
func transfer(from, to *box) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock() // want `lock order inversion: to.mu is locked at main.go:\d+ while holding from.mu`
	defer to.mu.Unlock()
}

func transferSilenced(from, to *box) {
	from.mu.Lock()
	defer from.mu.Unlock()
	//origo:ignore deadlock the test checks a lock order inversion
	to.mu.Lock() // silent "ignored"
	defer to.mu.Unlock()
}

func inverted() {
	a, b := &box{}, &box{}
	go transfer(a, b)
	go transfer(b, a)
	c, d := &box{}, &box{}
	go transferSilenced(c, d)
	go transferSilenced(d, c)
}

// The sender holds the lock its receiver needs.
func sendLocked() {
	b := &box{}
	ch := make(chan int)
	go func() {
		b.mu.Lock()
		b.n = <-ch
		b.mu.Unlock()
	}()
	b.mu.Lock()
	ch <- 1 // want `blocking while holding a lock: main goroutine sends on ch`
	b.mu.Unlock()
}

func sendLockedSilenced() {
	b := &box{}
	ch := make(chan int)
	go func() {
		b.mu.Lock()
		b.n = <-ch
		b.mu.Unlock()
	}()
	b.mu.Lock()
	ch <- 1 //origo:ignore deadlock the test checks blocking while holding a lock // silent "ignored"
	b.mu.Unlock()
}

// Two functions take two locks in opposite orders: a deadlock is one
// report, at the first one's second Lock, and the directive on the
// second one's, the other side of the deadlock, silences it too.
type pair struct{ a, b sync.Mutex }

func (p *pair) ab() {
	p.a.Lock()
	p.b.Lock() // silent "ignored"
	p.b.Unlock()
	p.a.Unlock()
}

func (p *pair) ba() {
	p.b.Lock()
	p.a.Lock() //origo:ignore deadlock the test checks a directive on the other side of the deadlock // silent "ignored"
	p.a.Unlock()
	p.b.Unlock()
}

func invertedOtherSide() {
	p := &pair{}
	go p.ab()
	go p.ba()
}

// The receiver holds the lock while it waits for the send, which comes
// after the sender's Lock: the sender's Lock, the other side of the
// deadlock, silences the report on the receive.
func recvLockedOtherSide() {
	b := &box{}
	ch := make(chan int)
	go func() {
		b.mu.Lock()
		b.n = <-ch // silent "ignored"
		b.mu.Unlock()
	}()
	b.mu.Lock() //origo:ignore deadlock the test checks a directive on the other side of the deadlock // silent "ignored"
	b.n++
	b.mu.Unlock()
	ch <- 1
}

func main() {
	(&box{}).relock()
	(&box{}).relockSilenced()
	(&box{}).relockSilencedAbove()
	(&box{}).relockBoth()
	(&box{}).relockOther()
	(&box{}).relockMalformed()
	(&box{}).relockNoReason()
	(&box{}).relockTwice()
	(&box{}).report()
	(&box{}).reportSilenced()
	(&box{}).first()
	(&box{}).firstSilenced()
	(&box{}).firstSilencedAbove()
	(&box{}).unlockTwice()
	(&box{}).unlockTwiceSilenced()
	inverted()
	sendLocked()
	sendLockedSilenced()
	invertedOtherSide()
	recvLockedOtherSide()
}
