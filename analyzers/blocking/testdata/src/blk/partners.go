// Package main checks channel operations that nothing can complete, and
// their look-alikes that something does.
package main

import (
	"fmt"
	"os"
	"sync"
)

// nilRecv receives from a channel it never made.
func nilRecv() {
	var c chan int
	<-c // want `receive from nil channel blocks forever: goroutine started at partners.go:\d+ never proceeds`
}

// nilSend sends on a channel it never made.
func nilSend() {
	var c chan int
	c <- 1 // want `send on nil channel blocks forever`
}

// nilCase is a select whose nil case is only disabled: silent.
func nilCase(done chan int) {
	var c chan int
	select { // silent "partner"
	case <-c:
	case <-done:
	}
}

// noSender receives from a channel nothing sends on.
func noSender() {
	c := make(chan int)
	<-c // want `receive blocks forever: goroutine started at partners.go:\d+ receives from c \(made at partners.go:\d+\), which nothing sends on or closes`
}

// noReceiver sends on an unbuffered channel nobody receives from.
func noReceiver() {
	c := make(chan int)
	c <- 1 // want `send blocks forever: goroutine started at partners.go:\d+ sends on c \(made at partners.go:\d+, unbuffered\), which no other goroutine receives from`
}

// buffered sends into a buffer: silent.
func buffered() {
	c := make(chan int, 1)
	c <- 1 // silent "buffered"
}

// deadSelect waits on cases that nothing completes.
func deadSelect() {
	a, b := make(chan int), make(chan int)
	select { // want `select blocks forever: goroutine started at partners.go:\d+ selects on cases none of which can proceed`
	case a <- 1:
	case <-b:
	}
}

// liveSelect has a case another goroutine completes: silent.
func liveSelect() {
	a, b := make(chan int), make(chan int)
	go func() { b <- 1 }()
	select { // silent "partner"
	case a <- 1:
	case <-b:
	}
}

// waitForever blocks in a goroutine on purpose, which is a leak all the
// same.
func waitForever() {
	select {} // want `select \{\} blocks forever: waitForever never returns`
}

// serveUntilKilled blocks on purpose in main, which calls it (no go
// statement starts it, unlike waitForever): silent.
func serveUntilKilled() {
	select {} // silent "serve-forever"
}

// blockUntilKilled waits in the flow of main for a receive from a
// channel that nothing else can reach: the idiom of select {}, silent.
func blockUntilKilled() {
	<-make(chan struct{}) // silent "serve-forever"
}

// receiveForever does the same in a goroutine: a leak.
func receiveForever() {
	<-make(chan struct{}) // want `receive blocks forever: goroutine started at partners.go:\d+ receives from the channel \(made at partners.go:\d+\), which nothing sends on or closes`
}

// handoff sends to a goroutine that receives: silent.
func handoff() int {
	c := make(chan int)
	go func() { c <- 1 }() // silent "partner"
	return <-c
}

// closedOnly is a receive that a close completes: silent.
func closedOnly() {
	done := make(chan struct{})
	go func() { close(done) }()
	<-done // silent "partner"
}

// noClose ranges over a channel that the function's workers never
// close.
func noClose(items []int) {
	c := make(chan int)
	for range 3 {
		go func() {
			for v := range c { // want `range over channel blocks forever: goroutine started at partners.go:\d+, in a loop ranges over c \(made at partners.go:\d+\), which nothing closes`
				println(v)
			}
		}()
	}
	for _, it := range items {
		c <- it
	}
}

// closes ranges over a channel closed after the last send: silent.
func closes(items []int) {
	c := make(chan int)
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			for v := range c { // silent "partner"
				println(v)
			}
		})
	}
	for _, it := range items {
		c <- it
	}
	close(c)
	wg.Wait()
}

// global is a channel any code of the package may send on: a receive
// from it is not judged (silent).
var global = make(chan int)

func fromGlobal() { <-global } // silent "out-of-view"

// pinger sends from a method that only package fmt calls.
type pinger struct{ c chan string }

func (p *pinger) String() string {
	p.c <- "ping"
	return "pinger"
}

// fromCallback receives what the Stringer sends when fmt formats it:
// silent, though no goroutine of the package calls String itself.
func fromCallback() {
	p := &pinger{c: make(chan string)}
	go func() { _ = fmt.Sprint(p) }()
	<-p.c // silent "partner"
}

// GoString receives on p.c, and only package fmt calls it: it may
// complete a send on any channel the package stores in a pinger's c.
func (p *pinger) GoString() string { return <-p.c }

// relay's channel goes into no pinger: GoString cannot receive from it,
// and nothing else does.
type relay struct{ out chan string }

func (r *relay) emit() {
	r.out <- "x" // want `send blocks forever: goroutine started at partners.go:\d+ sends on r.out \(made at partners.go:\d+, unbuffered\), which no other goroutine receives from`
}

func relayNoReader() {
	r := &relay{out: make(chan string)}
	go r.emit()
}

type cmd struct{ cancel func() }

// fromHook receives what a closure that another goroutine calls sends:
// the closure is stored, so where it runs is not known here (silent).
func fromHook(c *cmd) {
	ready := make(chan bool)
	c.cancel = func() { ready <- true }
	<-ready // silent "partner"
}

// closedLater receives from a channel that a goroutine closes in a
// deferred call: silent.
func closedLater() {
	done := make(chan struct{})
	go func() {
		defer close(done)
		println("work")
	}()
	<-done
}

// ignored blocks forever on purpose, and says so: silent.
func ignored() {
	c := make(chan int)
	<-c //origo:ignore blocking parks the goroutine for the test's lifetime // silent "ignored"
}

// ignoredOther silences another analyzer only: reported.
func ignoredOther() {
	c := make(chan int)
	<-c //origo:ignore race not this one // want `receive blocks forever`
}

// Run starts each case in its own goroutine.
func Run(items []int) {
	go nilRecv()
	go nilSend()
	done := make(chan int)
	go nilCase(done)
	close(done)
	go noSender()
	go noReceiver()
	go buffered()
	go deadSelect()
	go liveSelect()
	go waitForever()
	go receiveForever()
	go handoff()
	go closedOnly()
	go noClose(items)
	go closes(items)
	go fromGlobal()
	go fromCallback()
	go fromHook(&cmd{})
	go closedLater()
	go ignored()
	go ignoredOther()
	go relayNoReader()
	Cancels()
	go sendFirst()
	go bufferFull()
	go bufferRoom()
	go flagged()
	Drained()
}

func main() {
	Run(nil)
	if len(os.Args) > 2 {
		blockUntilKilled()
	}
	serveUntilKilled()
}
