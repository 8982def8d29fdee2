// Package seqparallel: parallel tests run together.
package seqparallel

import (
	"sync"
	"testing"
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

// TestAB joins its goroutine with a WaitGroup: if the goroutines
// deadlock, the Wait blocks too.
func TestAB(t *testing.T) {
	t.Parallel()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); ab() }()
	wg.Wait() // expect blocking "WaitGroup.Wait blocks forever"
}

// TestBA joins its goroutine with a plain receive.
func TestBA(t *testing.T) {
	t.Parallel()
	done := make(chan struct{})
	go func() { ba(); close(done) }()
	<-done // expect blocking "receive blocks forever"
}
