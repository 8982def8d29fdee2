// Package cblib keeps the callbacks it is given and calls them later,
// on a goroutine of its own: a subscription's message handler and its
// "closed" handler. A hook it keeps and calls only when its caller asks
// runs on the caller's goroutine.
package cblib

import "sync"

// Sub delivers messages to its handler from its own goroutine.
type Sub struct {
	mu      sync.Mutex
	in      chan string
	handler func(string)
	closed  func()
	hook    func()
}

// Subscribe keeps handler for the goroutine it starts.
func Subscribe(handler func(string)) *Sub {
	s := &Sub{in: make(chan string), handler: handler}
	go s.loop()
	return s
}

// SetClosedHandler keeps f; the subscription's goroutine calls it when
// it ends.
func (s *Sub) SetClosedHandler(f func()) {
	s.mu.Lock()
	s.closed = f
	s.mu.Unlock()
}

// OnFire keeps f for Fire, which its caller calls.
func (s *Sub) OnFire(f func()) { s.hook = f }

// Fire calls the hook on the caller's goroutine.
func (s *Sub) Fire() {
	if h := s.hook; h != nil {
		h()
	}
}

func (s *Sub) Deliver(m string) { s.in <- m }

func (s *Sub) Close() { close(s.in) }

func (s *Sub) loop() {
	for m := range s.in {
		s.handler(m)
	}
	s.mu.Lock()
	done := s.closed
	s.mu.Unlock()
	if done != nil {
		done()
	}
}
