package cleanups

import "testing"

// TestLeftRunning's cleanup resets the count of a poller nothing stops:
// it runs after the test returned, while Run may still count, not where
// it was registered, before the go statement. Reported.
func TestLeftRunning(t *testing.T) {
	p := NewPoller()
	t.Cleanup(func() { p.polls = 0 }) // want `data race on Poller.polls`
	go p.Run()
}

// TestStopThenReset registers Stop last: it runs first, and the reset
// after Run returned. Silent.
func TestStopThenReset(t *testing.T) {
	p := NewPoller()
	t.Cleanup(func() { p.polls = 1 }) // silent "happens-before"
	go p.Run()
	t.Cleanup(p.Stop)
}

// startPoller registers Stop for its caller's test, which registers its
// reset after: the reset runs first, while Run counts. Reported.
func startPoller(t *testing.T) *Poller {
	p := NewPoller()
	go p.Run()
	t.Cleanup(p.Stop)
	return p
}

func TestResetThenStop(t *testing.T) {
	p := startPoller(t)
	t.Cleanup(func() { p.polls = 2 }) // want `data race on Poller.polls`
}

// A subtest's cleanup runs when the subtest ends, before its t.Run
// returns: the parent's goroutine started after it sees its reset.
// Silent.
func TestSubtestCleanup(t *testing.T) {
	p := NewPoller()
	t.Run("reset", func(t *testing.T) {
		t.Cleanup(func() { p.polls = 3 }) // silent "happens-before"
	})
	go p.Run()
	t.Cleanup(p.Stop)
}

// Poller counts in the background until it is stopped.
type Poller struct {
	polls int
	stop  chan struct{}
	done  chan struct{}
}

// NewPoller makes a poller; Run starts it.
func NewPoller() *Poller { return &Poller{stop: make(chan struct{}), done: make(chan struct{})} }

// Run counts until Stop.
func (p *Poller) Run() {
	defer close(p.done)
	for {
		select {
		case <-p.stop:
			return
		default:
			p.polls++
		}
	}
}

// Stop stops Run and waits for it to return.
func (p *Poller) Stop() {
	close(p.stop)
	<-p.done
}
