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

// Each test's stop waits for its own pipeline's goroutines before it
// reads what they counted: silent.
func TestPipelineSend(t *testing.T) {
	p := newPipeline()
	p.start()
	p.msgc <- 1
	p.stop()
	if p.sent > 1 { // silent "happens-before"
		t.Error(p.sent)
	}
}

func TestPipelineFail(t *testing.T) {
	p := newPipeline()
	p.start()
	p.stop()
	if p.sent != 0 { // silent "happens-before"
		t.Error(p.sent)
	}
}

// A reset before stop races with the pipeline's goroutines.
func TestPipelineEarly(t *testing.T) {
	p := newPipeline()
	p.start()
	p.msgc <- 1
	p.sent = 0 // want `data race on pipeline.sent: write at factories_test.go:\d+ \(test goroutine\) vs write at factories.go:\d+ \(goroutine started at factories.go:\d+, in a loop\); locks held: \{\} vs \{p.mu\}`
	p.stop()
}

// Each test's close waits for its own server's goroutines: silent.
func TestServeA(t *testing.T) {
	s := newServer()
	s.goAttach(func() { s.served++ })
	s.close()
	if s.served != 1 { // silent "happens-before"
		t.Error(s.served)
	}
}

func TestServeB(t *testing.T) {
	s := newServer()
	s.goAttach(func() { s.served += 2 })
	s.close()
	s.served = 0
}

// A write before close races with the server's goroutine.
func TestServeEarly(t *testing.T) {
	s := newServer()
	s.goAttach(func() { s.served++ }) // want `data race on server.served: write at factories_test.go:\d+ \(goroutine started at factories.go:\d+\) vs write at factories_test.go:\d+ \(test goroutine\)`
	s.served = 5
	s.close()
}

// Each notifier calls the callback its own SetCallback call gave it: the
// goroutine writes a, the test b: silent.
func TestOwnCallbacks(t *testing.T) {
	n1, n2 := &notifier{}, &notifier{}
	a, b := 0, 0
	n1.SetCallback(func() { a++ })
	n2.SetCallback(func() { b++ })
	done := make(chan bool)
	go func() {
		n1.fire()
		done <- true
	}()
	b = 5
	<-done
	_ = a
}

// The test writes what the goroutine's callback writes: reported.
func TestCallbackRace(t *testing.T) {
	n1 := &notifier{}
	a := 0
	n1.SetCallback(func() { a++ }) // want `data race on a: write at factories_test.go:\d+ \(goroutine started at factories_test.go:\d+\) vs write at factories_test.go:\d+ \(test goroutine\)`
	done := make(chan bool)
	go func() {
		n1.fire()
		done <- true
	}()
	a = 5
	<-done
}
