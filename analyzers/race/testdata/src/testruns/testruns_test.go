package testruns

import (
	"testing"
	"time"
)

// Each test makes its own server and writes it before start's go
// statement: silent, though TestA's goroutine may still run in TestB.
func TestA(t *testing.T) {
	s := &server{}
	s.start()
}

func TestB(t *testing.T) {
	s := &server{}
	s.start()
}

// A write after the goroutine started, in the same test: reported.
func TestC(t *testing.T) {
	s := &server{}
	s.start()
	s.cfg = 2 // want `data race on server.cfg: write at testruns_test.go:\d+ \(test goroutine\) vs read at testruns.go:\d+ \(goroutine started at testruns.go:\d+\)`
}

// A cache made by package initialization is every test's: the
// goroutine TestD leaves running races with TestE's write.
var shared = &cache{}

func TestD(t *testing.T) {
	shared.start()
}

func TestE(t *testing.T) {
	shared.size = 3 // want `data race on cache.size: write at testruns_test.go:\d+ \(test goroutine\) vs read at testruns.go:\d+ \(goroutine started at testruns.go:\d+\)`
}

// Each test's worker writes its own queue before its goroutine starts;
// the goroutine TestWorkerA leaves running reads TestWorkerA's queue:
// silent.
func TestWorkerA(t *testing.T) { newWorker() }

func TestWorkerB(t *testing.T) { newWorker() }

// Each run of the loop makes its own pool in setUpPool, and resets it
// before its goroutine starts; the goroutine of the last run reads the
// last run's pool: silent.
func BenchmarkPool(b *testing.B) {
	for range b.N {
		p := setUpPool()
		p.recoverPool()
	}
}

// A write without the lock once the goroutine runs: reported.
func TestPoolReset(t *testing.T) {
	p := setUpPool()
	p.size = 2 // want `data race on pool.size: write at testruns_test.go:\d+ \(test goroutine\) vs read at testruns.go:\d+ \(goroutine started at testruns.go:\d+\); locks held: \{\} vs \{p.mu\}`
}

// A goroutine that a test waits for ends before the test returns, even
// when the wait is a select the test may leave by failing (a failed test
// is not one whose races matter): TestF's worker and TestG's write are
// in different tests, silent.
var limit int

func TestF(t *testing.T) {
	done := make(chan bool)
	go func() {
		limit = 1
		done <- true
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
		t.Error("timed out")
	}
}

func TestG(t *testing.T) { limit = 2 } // silent "tests-in-sequence"

// The same worker racing with its own test: reported.
func TestH(t *testing.T) {
	done := make(chan bool)
	go func() {
		limit = 3 // want `data race on limit: write at testruns_test.go:\d+ \(goroutine started at testruns_test.go:\d+\) vs write at testruns_test.go:\d+ \(test goroutine\)`
		done <- true
	}()
	limit = 4
	<-done
}
