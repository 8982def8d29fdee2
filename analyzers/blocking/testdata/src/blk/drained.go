package main

import "sync"

// A collector receives its workers' results in a loop until it is told
// to stop. A shutdown that stops the senders before the receiver (it
// waits for the workers, then stops the collector) leaves no send
// without its receiver: the stop comes only once every worker is past
// its send. One that stops the collector first does.

type collector struct {
	results chan int
	stop    chan struct{}
	wg      sync.WaitGroup
	sem     chan struct{}
}

func (c *collector) collect() {
	for {
		select {
		case <-c.results:
		case <-c.stop:
			return
		}
	}
}

// waitedWorker's send comes before its Done, and shutdownWaited stops
// the collector after the Wait: silent.
func (c *collector) waitedWorker() {
	defer c.wg.Done()
	c.results <- 1 // silent "happens-before"
}

func shutdownWaited() {
	c := &collector{results: make(chan int), stop: make(chan struct{})}
	go c.collect()
	c.wg.Add(1)
	go c.waitedWorker()
	c.wg.Wait()
	c.stop <- struct{}{}
}

// dispatch's worker gives its semaphore token back after its send,
// and shutdownDrained takes every token before it stops the collector
// (a loop of cap(sem) sends completes only once every holder released
// the token it took): silent.
func (c *collector) dispatch() {
	c.sem <- struct{}{}
	go func() {
		defer func() { <-c.sem }()
		c.results <- 2 // silent "happens-before"
	}()
}

func shutdownDrained() {
	c := &collector{results: make(chan int), stop: make(chan struct{}), sem: make(chan struct{}, 4)}
	go c.collect()
	c.dispatch()
	for i := 0; i < cap(c.sem); i++ {
		c.sem <- struct{}{}
	}
	c.stop <- struct{}{}
}

// hastyWorker's collector is stopped before the Wait: its send may
// come after collect returned. Reported.
func (c *collector) hastyWorker() {
	defer c.wg.Done()
	c.results <- 3 // want `send blocks forever once its receiver has returned: goroutine started at drained.go:\d+ sends on c.results \(made at drained.go:\d+, unbuffered\), whose only receiver, goroutine started at drained.go:\d+, receives in a loop that it may leave \(when it receives from c.stop\)`
}

func shutdownHasty() {
	c := &collector{results: make(chan int), stop: make(chan struct{})}
	go c.collect()
	c.wg.Add(1)
	go c.hastyWorker()
	c.stop <- struct{}{}
	c.wg.Wait()
}

// Drained starts each shutdown.
func Drained() {
	go shutdownWaited()
	go shutdownDrained()
	go shutdownHasty()
}

// Stop stops the collector.
func (c *collector) Stop() { c.stop <- struct{}{} }
