package paralleltests

import (
	"testing"
	"time"
)

// TestInfinity runs without t.Parallel: its writes happen before the
// parallel tests go on from their t.Parallel.
func TestInfinity(t *testing.T) {
	Enable()
	roots = append(roots, "ca") // silent "happens-before"
	t.Cleanup(func() { level = 0 })
}

func TestLevel(t *testing.T) {
	level = 2 // silent "happens-before"
}

// TestPoll leaves its poller running: the poller may run beside the
// parallel tests.
func TestPoll(t *testing.T) {
	Poll(make(chan struct{}))
}

func TestEncode(t *testing.T) {
	t.Parallel()
	if Encode() == "" {
		t.Error("no infinity")
	}
	_ = len(roots) + level
	_ = polls
}

func TestParallelAgain(t *testing.T) {
	t.Parallel()
	_ = Encode()
}

// Poll starts a poller that writes polls until it is told to stop, and
// returns without waiting for it.
func Poll(stop chan struct{}) {
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
				polls++ // want `data race on polls: write at paralleltests_test.go:\d+ \(goroutine started at paralleltests_test.go:\d+\) vs read at paralleltests_test.go:\d+ \(parallel tests\)`
			}
		}
	}()
}
