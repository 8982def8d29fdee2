// Package seqtimeout: the goroutines may outlive their tests.
package seqtimeout

import (
	"sync"
	"testing"
	"time"
)

var shared int

var a, b sync.Mutex

func ab() {
	shared++ // expect race "data race on shared"
	a.Lock()
	b.Lock() // expect deadlock "lock order inversion"
	b.Unlock()
	a.Unlock()
}

func ba() {
	shared++
	b.Lock()
	a.Lock()
	a.Unlock()
	b.Unlock()
}

// TestAB waits for its goroutine in a select with a timeout: on the
// timeout path the goroutine lives on into TestBA.
func TestAB(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); ab() }()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }() // expect blocking "WaitGroup.Wait blocks forever"
	select {
	case <-done:
	case <-time.After(time.Second):
	}
}

// TestBA waits the same way.
func TestBA(t *testing.T) {
	done := make(chan struct{})
	go func() { ba(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
}
