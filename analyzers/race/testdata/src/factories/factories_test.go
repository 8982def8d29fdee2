package factories

import "testing"

// Each test's lessor is written by recover before its runLoop starts:
// silent, though the runLoop of one test still runs in the next.
func TestGrant(t *testing.T) {
	l := newLessor()
	defer l.Stop()
	l.mu.Lock()
	l.leases[2] = 2
	l.mu.Unlock()
}

func TestRevoke(t *testing.T) {
	l := NewLessor()
	defer l.Stop()
	l.mu.Lock()
	delete(l.leases, 0)
	l.mu.Unlock()
}

// The checkpointer reports to its test from runLoop, which the
// deferred Stop waits for: silent.
func TestCheckpoint(t *testing.T) {
	l := newLessor()
	defer l.Stop()
	l.SetCheckpointer(func(n int) {
		if n != 1 {
			t.Errorf("checkpoint %d", n)
		}
	})
}

// A write without the lock after the constructor returned races with
// its runLoop.
func TestReset(t *testing.T) {
	l := newLessor()
	defer l.Stop()
	l.leases = nil // want `data race on lessor.leases: write at factories_test.go:\d+ \(test goroutine\) vs read at factories.go:\d+ \(goroutine started at factories.go:\d+\)`
}

// A checkpointer whose runLoop nobody stops reports after its test.
func TestLeak(t *testing.T) {
	l := newLessor()
	l.SetCheckpointer(func(n int) {
		t.Errorf("checkpoint %d", n) // want `test report after the test`
	})
}
