// Package seqjoin: each test joins its goroutine, so the two never
// overlap, though they write one variable and lock in opposite orders.
package seqjoin

import (
	"sync"
	"testing"
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
