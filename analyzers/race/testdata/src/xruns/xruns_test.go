package xruns

import (
	"testing"

	"xstub"
)

func newStub() *xstub.Stub { return xstub.NewStub() }

type pair struct{ a, b *xstub.Stub }

func newPair() pair { return pair{a: newStub(), b: newStub()} }

// TestCount leaves a goroutine counting on its own stub; TestReset,
// which runs after, resets the one newStub made for it: silent.
func TestCount(t *testing.T) {
	s := newStub()
	go func() {
		for s.Total < 100 {
			s.Total++
		}
	}()
}

func TestReset(t *testing.T) {
	s := newStub()
	done := make(chan bool)
	go func() {
		println(s.Name)
		done <- true
	}()
	s.Total = 0 // silent "test-objects"
	<-done
}

// One call further: the pair's stubs, made by newPair through newStub.
func TestPairName(t *testing.T) {
	p := newPair()
	go func() {
		p.a.Name = "a"
	}()
}

func TestPairRename(t *testing.T) {
	p := newPair()
	done := make(chan bool)
	go func() {
		println(p.a.Total)
		done <- true
	}()
	p.a.Name = "b" // silent "test-objects"
	<-done
}

// TestKeep's goroutine writes the stub xstub keeps in its list, which
// TestLast gets back from it: reported.
func TestKeep(t *testing.T) {
	s := xstub.Keep()
	go func() {
		s.Name = "kept" // want `data race on memory of alloc made at xstub.go:\d+ in xstub: write at xruns_test.go:\d+ \(goroutine started at xruns_test.go:\d+\) vs read at xruns_test.go:\d+ \(test goroutine\)`
	}()
}

func TestLast(t *testing.T) {
	println(xstub.Last().Name)
}
