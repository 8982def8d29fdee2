package main

import "blklib"

// A task handed to another package's pool runs where that code runs it,
// on the pool's worker here: its receive does not wait for its caller,
// which closes the channel after handing it over: silent.
func submitted() {
	p := blklib.NewPool()
	ch := make(chan int)
	p.Submit(func() {
		<-ch // silent "handed-to-import"
	})
	close(ch)
}

// The same, handed over by a helper of the package.
func submit(p *blklib.Pool, f func()) { p.Submit(f) }

func submittedVia() {
	p := blklib.NewPool()
	ch := make(chan int)
	submit(p, func() {
		<-ch // silent "handed-to-import"
	})
	close(ch)
}

// A function value the goroutine calls itself runs on that goroutine,
// which closes the channel only after: it waits for itself.
func ranNow() {
	ch := make(chan int)
	wait := func() {
		<-ch // want `receive blocks forever: goroutine started at main.go:\d+ receives from ch \(made at tasks.go:\d+\), which only it sends on or closes, later \(at tasks.go:\d+\): it waits for itself`
	}
	wait()
	close(ch)
}
