package main

import (
	"context"
	"sync"

	"blklib"
)

// sum ranges over a channel that blklib.Send, which never closes it, is
// its only user of: after the value the loop waits forever.
func sum() (n int) {
	ch := make(chan int)
	go blklib.Send(ch, 1)
	for v := range ch { // want `range over channel blocks forever: goroutine started at contained.go:\d+ ranges over ch \(made at contained.go:\d+\), which nothing closes`
		n += v
	}
	return n
}

// sumAll's sender closes the channel after its values: silent.
func sumAll() (n int) {
	ch := make(chan int)
	go blklib.SendAll(ch, []int{1, 2})
	for v := range ch { // silent "partner"
		n += v
	}
	return n
}

// sumKept hands the channel to Keep too, which stores it: anyone may
// close it. Silent.
func sumKept() (n int) {
	ch := make(chan int)
	blklib.Keep(ch)
	go blklib.Send(ch, 1)
	for v := range ch { // silent "out-of-view"
		n += v
	}
	return n
}

// awaitNone waits, inside blklib.AwaitAll, for a task nothing finishes.
func awaitNone() {
	var wg sync.WaitGroup
	wg.Add(1)
	blklib.AwaitAll(&wg) // want `WaitGroup.Wait blocks forever: goroutine started at contained.go:\d+ waits for wg in blklib.AwaitAll, whose counter Add raises, but nothing calls Done on it`
}

// awaitFinished's task is finished by blklib.Finish: silent.
func awaitFinished() {
	var wg sync.WaitGroup
	wg.Add(1)
	go blklib.Finish(&wg)
	blklib.AwaitAll(&wg) // silent "partner"
}

// awaitChecked's task returns before Done when it failed.
func awaitChecked(failed bool) {
	var wg sync.WaitGroup
	wg.Add(1)
	go blklib.FinishOK(&wg, failed)
	wg.Wait() // want `WaitGroup.Wait blocks forever when the goroutine started at contained.go:\d+ returns early: blklib.FinishOK may return without calling Done on wg`
}

// awaitFinishedOnce's task always calls Done (awaitFinished's too, with
// a Wait inside blklib): silent.
func awaitFinishedOnce() {
	var wg sync.WaitGroup
	wg.Add(1)
	go blklib.Finish(&wg)
	wg.Wait() // silent "every-path"
}

// pick selects on two channels that blklib.Drain only receives from:
// no case can proceed.
func pick() int {
	a, b := make(chan int), make(chan int)
	go blklib.Drain(a)
	go blklib.Drain(b)
	select { // want `select blocks forever: goroutine started at contained.go:\d+ selects on cases none of which can proceed`
	case v := <-a:
		return v
	case v := <-b:
		return v
	}
}

// pickSent's second channel gets blklib.Send's value, buffered: silent.
func pickSent() int {
	a, b := make(chan int), make(chan int, 1)
	go blklib.Drain(a)
	go blklib.Send(b, 2)
	select { // silent "partner"
	case v := <-a:
		return v
	case v := <-b:
		return v
	}
}

// sleepAlone sleeps, inside blklib.Sleep, on a Cond nothing wakes.
func sleepAlone() {
	c := sync.NewCond(new(sync.Mutex))
	go blklib.Sleep(c) // want `Cond.Wait blocks forever: the goroutine started here waits on c in blklib.Sleep, which nothing signals`
}

// sleepWoken's Cond is woken by blklib.Wake: silent.
func sleepWoken() {
	c := sync.NewCond(new(sync.Mutex))
	go blklib.Sleep(c) // silent "partner"
	blklib.Wake(c)
}

// fetched starts blklib.Send for its result and may stop listening
// when ctx is done first: Send blocks forever.
func fetched(ctx context.Context) int {
	ch := make(chan int)
	go blklib.Send(ch, 1) // want `send blocks forever when fetched returns early: the goroutine started here \(blklib.Send\) sends on ch \(made at contained.go:\d+, unbuffered\), and fetched may return at contained.go:\d+ without receiving it`
	select {
	case v := <-ch:
		return v
	case <-ctx.Done():
		return 0
	}
}

// fetchedBuffered gives the result a buffer of one: silent.
func fetchedBuffered(ctx context.Context) int {
	ch := make(chan int, 1)
	go blklib.Send(ch, 1) // silent "buffered"
	select {
	case v := <-ch:
		return v
	case <-ctx.Done():
		return 0
	}
}

func init() {
	go fetched(context.Background())
	go fetchedBuffered(context.Background())
	go sum()
	go sumAll()
	go sumKept()
	go awaitNone()
	go awaitFinished()
	go awaitChecked(true)
	go pick()
	go pickSent()
	go awaitFinishedOnce()
	go sleepAlone()
	go sleepWoken()
}
