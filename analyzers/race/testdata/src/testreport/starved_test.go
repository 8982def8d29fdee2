package testreport

import (
	"errors"
	"testing"
	"time"
)

func fetch() (int, error) { return 0, errors.New("down") }

// The goroutine reports and returns without the value the test waits
// for: where it reports, nothing ever sends on got, the test never
// returns (it times out), and the report is not after it: silent.
func TestStarvedReturn(t *testing.T) {
	got := make(chan int)
	defer t.Log("done")
	go func() {
		v, err := fetch()
		if err != nil {
			t.Errorf("fetch: %v", err)
			return
		}
		got <- v
	}()
	<-got
}

// The same with t.Fatal, whose Goexit skips the close: silent.
func TestStarvedFatal(t *testing.T) {
	ready := make(chan struct{})
	go func() {
		if _, err := fetch(); err != nil {
			t.Fatal(err)
		}
		close(ready)
	}()
	<-ready
	t.Log("ready")
}

// The test may stop waiting (a timeout): reported.
func TestStarvedTimeout(t *testing.T) {
	got := make(chan int, 1)
	go func() {
		v, err := fetch()
		if err != nil {
			t.Errorf("fetch: %v", err) // want `test report after the test: Errorf`
			return
		}
		got <- v
	}()
	select {
	case <-got:
	case <-time.After(time.Second):
	}
}

// Another goroutine sends on the channel too: the test may get its
// value and return while this one reports. Reported.
func TestStarvedOtherSender(t *testing.T) {
	got := make(chan int)
	go func() { got <- 1 }()
	go func() {
		v, err := fetch()
		if err != nil {
			t.Errorf("fetch: %v", err) // want `test report after the test: Errorf`
			return
		}
		got <- v
	}()
	<-got
}

// A t.Fatal before the receive ends the test without it: reported.
func TestStarvedTestFails(t *testing.T) {
	ready := make(chan struct{})
	go func() {
		if _, err := fetch(); err != nil {
			t.Error(err) // want `test report after the test: Error`
			return
		}
		close(ready)
	}()
	if testing.Short() {
		t.Fatal("short")
	}
	<-ready
}

// A goroutine started in a loop starts the reporting one: two of them
// may run, one sending while the other reports. Reported.
func TestStarvedNested(t *testing.T) {
	got := make(chan int)
	for range 2 {
		go func() {
			go func() {
				v, err := fetch()
				if err != nil {
					t.Errorf("fetch: %v", err) // want `test report after the test: Errorf`
					return
				}
				got <- v
			}()
		}()
	}
	<-got
}
