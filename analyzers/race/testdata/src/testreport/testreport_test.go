package testreport

import (
	"runtime"
	"sync"
	"testing"
	"testing/synctest"
)

// Nothing waits for the goroutine: reported.
func TestLeak(t *testing.T) {
	go func() {
		t.Log("late") // want `test report after the test: Log at testreport_test.go:\d+ runs in the goroutine started at testreport_test.go:\d+, which TestLeak does not wait for`
	}()
}

// A WaitGroup joins the goroutine: silent.
func TestWaited(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t.Errorf("x")
	}()
	wg.Wait()
}

// t.Fatalf ends its goroutine by runtime.Goexit, which runs the
// deferred calls first: the Done comes after the report, in a loop of
// goroutines too. Silent.
func TestFatalWaited(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i > 5 {
				t.Fatalf("bad %d", i)
			}
		}()
	}
	wg.Wait()
}

// runtime.Goexit runs the deferred close too: the report before it is
// ordered before the test's receive. Silent.
func TestGoexitClosed(t *testing.T) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		t.Error("x")
		runtime.Goexit()
	}()
	<-done
}

// The deferred Done runs after the Fatal, but the Wait came before the
// goroutine started: nothing joins it. Reported.
func TestFatalUnjoined(t *testing.T) {
	var wg sync.WaitGroup
	wg.Wait()
	wg.Add(1)
	go func() {
		defer wg.Done()
		t.Fatal("y") // want `test report after the test: Fatal`
	}()
}

// The goroutine reports, then signals the test: silent.
func TestChannel(t *testing.T) {
	done := make(chan bool)
	go func() {
		t.Log("x")
		done <- true
	}()
	<-done
}

// The goroutine signals before it reports: reported.
func TestSignalFirst(t *testing.T) {
	done := make(chan bool)
	go func() {
		done <- true
		t.Fatal("x") // want `test report after the test: Fatal`
	}()
	<-done
}

// A subtest's own body reports to it; the goroutine it starts and does
// not wait for may report after it: reported.
func TestSubtest(t *testing.T) {
	t.Run("sub", func(t *testing.T) {
		t.Log("own body")
		go func() {
			t.Error("late") // want `test report after the test: Error at testreport_test.go:\d+ runs in the goroutine started at testreport_test.go:\d+, which the subtest started at testreport_test.go:\d+ does not wait for`
		}()
	})
}

// b.RunParallel waits for its bodies: silent.
func BenchmarkParallel(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			b.Log("x")
		}
	})
}

// The same in a helper that two benchmarks call: b.RunParallel still
// waits, at each call.
func parallelGet(b *testing.B, n int) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if n < 0 {
				b.Fatal("negative")
			}
		}
	})
}

func BenchmarkGetSmall(b *testing.B) { parallelGet(b, 1) }
func BenchmarkGetLarge(b *testing.B) { parallelGet(b, 1<<20) }

// A goroutine the benchmark's helper starts and leaves: its log may
// come after the benchmark returned, which the testing package takes as
// output (a benchmark is never marked done): silent. The same through
// testing.TB, whose dynamic type may be a test's, is reported.
func leaveRunning(b *testing.B) {
	go func() {
		b.Log("late")
	}()
	leaveRunningTB(b)
}

func leaveRunningTB(tb testing.TB) {
	go func() {
		tb.Log("late") // want `test report after the test: Log`
	}()
}

func BenchmarkLeaveA(b *testing.B) { leaveRunning(b) }
func BenchmarkLeaveB(b *testing.B) { leaveRunning(b) }

// Fuzz runs its target on each input and returns after them: a report
// in the target is in time, one in a goroutine it leaves is not.
func FuzzTarget(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" {
			t.Skip("empty")
		}
		go func() {
			t.Log(s) // want `test report after the test: Log`
		}()
	})
}

// synctest.Test returns after every goroutine of its bubble has exited,
// those its function starts and those they start: their writes and
// reports come before the test goes on.
func TestBubble(t *testing.T) {
	n := 0
	synctest.Test(t, func(t *testing.T) {
		go func() {
			n = 1 // silent "happens-before"
			t.Log("in the bubble")
		}()
	})
	t.Log(n)
}

func TestBubbleNested(t *testing.T) {
	n := 0
	synctest.Test(t, func(t *testing.T) {
		go func() {
			go func() {
				n = 2 // silent "happens-before"
				t.Log("deeper in the bubble")
			}()
		}()
	})
	t.Log(n)
}

// Outside a bubble nothing waits for the goroutine.
func TestNoBubble(t *testing.T) {
	n := 0
	go func() {
		n = 3         // want `data race on n`
		t.Log("late") // want `test report after the test: Log`
	}()
	t.Log(n)
}

// Each round makes its own WaitGroup and waits for the goroutines it
// started before the next round: the round's Wait joins them, though
// the pointer analysis tells the rounds' WaitGroups apart. Silent.
func TestRounds(t *testing.T) {
	users := map[string]int{"a": 1, "b": 2}
	for range 3 {
		var wg sync.WaitGroup
		wg.Add(len(users))
		for name, n := range users {
			go func() {
				defer wg.Done()
				if n < 0 {
					t.Errorf("%s: %d", name, n)
				}
			}()
		}
		wg.Wait()
	}
}

// Only some rounds wait: a goroutine of a round that does not may
// report after the test.
func TestSomeRounds(t *testing.T) {
	for i := range 3 {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Log("round") // want `test report after the test: Log`
		}()
		if i == 0 {
			wg.Wait()
		}
	}
}

// A round that may end the test before its Wait does not join its
// goroutine on that path.
func TestRoundsQuit(t *testing.T) {
	for i := range 3 {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Log("round") // want `test report after the test: Log`
		}()
		if i == 2 {
			return
		}
		wg.Wait()
	}
}

// A benchmark is never marked done by the testing package: a late
// b.Log is a line of output, not a panic. Silent, in the benchmark's
// body and in a sub-benchmark's. A late b.Error is a failure nothing
// reports any more: reported.
func BenchmarkLateLog(b *testing.B) {
	go func() {
		b.Logf("late %d", b.N)
	}()
	b.Run("sub", func(b *testing.B) {
		go func() {
			b.Log("late")
			b.Error("late") // want `test report after the test: Error at testreport_test.go:\d+ runs in the goroutine started at testreport_test.go:\d+, which the subtest started at testreport_test.go:\d+ does not wait for, so it may run after the test returned, where the benchmark's failure is no longer reported`
		}()
	})
}
