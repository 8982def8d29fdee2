package main

import "testing"

// Each test makes and stops its own collector, through a constructor
// that fills an out parameter (no factory, analyzed once for all its
// callers: one object to the analysis). TestCollectorStop stops one
// that has no workers; in TestCollectorWork, which go test runs after
// it, the worker's send meets its own collector, which nothing stops:
// silent.
func newTestCollector() *collector {
	var c *collector
	makeCollector(&c)
	return c
}

func makeCollector(out **collector) {
	*out = &collector{results: make(chan int), stop: make(chan struct{})}
}

func TestCollectorStop(t *testing.T) {
	c := newTestCollector()
	go c.collect()
	c.stop <- struct{}{}
}

func TestCollectorWork(t *testing.T) {
	c := newTestCollector()
	go c.collect()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		c.results <- 4 // silent "tests-in-sequence"
	}()
	c.wg.Wait()
}

// TestCollectorHasty stops its collector while its worker may still
// send: reported.
func TestCollectorHasty(t *testing.T) {
	c := newTestCollector()
	go c.collect()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		c.results <- 5 // want `send blocks forever once its receiver has returned`
	}()
	c.stop <- struct{}{}
	c.wg.Wait()
}

// The testing package runs a test's cleanups once the test function has
// returned: the stop they give comes after every send of the
// goroutines the test waited for (registered directly, and by a helper
// as a method value). Silent.
func TestCollectorCleanup(t *testing.T) {
	c := &collector{results: make(chan int), stop: make(chan struct{})}
	go c.collect()
	t.Cleanup(func() { c.stop <- struct{}{} })
	done := make(chan struct{})
	go func() {
		c.results <- 6 // silent "happens-before"
		close(done)
	}()
	<-done
}

func startCollector(t *testing.T) *collector {
	c := &collector{results: make(chan int), stop: make(chan struct{})}
	go c.collect()
	t.Cleanup(c.Stop)
	return c
}

func TestCollectorHelper(t *testing.T) {
	c := startCollector(t)
	done := make(chan struct{})
	go func() {
		c.results <- 7 // silent "happens-before"
		close(done)
	}()
	<-done
}
