// Package seqjoin: each test joins its goroutine, so the two never
// overlap, though they write one variable and lock in opposite orders.
package seqjoin

import (
	"sync"
	"testing"
	"time"
)

var shared int

var a, b sync.Mutex

func ab() {
	shared++ // silent "tests-in-sequence"
	a.Lock()
	b.Lock() // silent "tests-in-sequence"
	b.Unlock()
	a.Unlock()
}

func ba() {
	shared++ // silent "tests-in-sequence"
	b.Lock()
	a.Lock() // silent "tests-in-sequence"
	a.Unlock()
	b.Unlock()
}

// TestAB joins its goroutine with a WaitGroup.
func TestAB(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); ab() }()
	wg.Wait()
}

// TestBA joins its goroutine with a plain receive.
func TestBA(t *testing.T) {
	done := make(chan struct{})
	go func() { ba(); close(done) }()
	<-done
}

// TestABFatal waits in a select whose other case fails the test: every
// run that passes has joined the goroutine, and a failed test's races are
// not the ones that matter.
func TestABFatal(t *testing.T) {
	done := make(chan struct{})
	go func() { ab(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Fatal("timed out")
	}
}
