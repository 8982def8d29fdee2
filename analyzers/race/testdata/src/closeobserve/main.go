// Package main checks a receive after which the code goes on only once
// the channel was closed: the loop of "for e := range ech { panic(e) }"
// ends only when a receive returned because ech was closed, and
// "if err, ok := <-ch; ok { panic(err) }" falls through only then too.
// What the closing goroutine did before its close happens before what
// follows such a receive (the memory model: a close happens before a
// receive that returns because the channel is closed), as after a
// receive loop, though neither is a loop.
package main

import "errors"

type State struct {
	n, m, k int
}

// scan panics on the first error: past the loop, ch was closed.
func (s *State) scan() {
	ech := s.check()
	for e := range ech {
		panic(e)
	}
	s.m = 2 // silent "happens-before"
}

// scanOnce receives once and panics on a value.
func (s *State) scanOnce() {
	ch := s.check()
	if err, ok := <-ch; ok {
		panic(err)
	}
	s.k = 2 // silent "happens-before"
}

// scanFirst stops at the first error without waiting for the close:
// past its loop, the goroutine may still run.
func (s *State) scanFirst() error {
	ech := s.check()
	var first error
	for e := range ech {
		first = e
		break
	}
	s.m = 3 // want `data race on State.m`
	return first
}

// check reads and writes s on a goroutine that may send an error, and
// closes the channel it returns when it is done.
func (s *State) check() chan error {
	ch := make(chan error)
	go func() {
		defer close(ch)
		if s.n < 0 {
			ch <- errors.New("negative")
		}
		s.m = 1
		s.k = 1
	}()
	return ch
}

func main() {
	go (&State{}).scan()
	go (&State{}).scanOnce()
	go (&State{}).scanFirst()
}
