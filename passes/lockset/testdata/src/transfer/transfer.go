// Package transfer: a go statement whose goroutine releases a lock that
// its starter holds, without taking it first, hands the lock over: the
// starter no longer holds it after the go statement, nor do its callers.
package transfer

import "sync"

type summary struct {
	mtx  sync.Mutex
	hot  []float64
	cold []float64
}

func (s *summary) swap() { s.hot, s.cold = s.cold, s.hot } // want `return: held {}`

func (s *summary) flush() { s.cold = s.cold[:0] } // want `return: held {}`

// asyncFlush holds s.mtx until the flush it starts finishes.
func (s *summary) asyncFlush() {
	s.mtx.Lock() // want `Lock: held {}`
	s.swap()
	go func() {
		s.flush()
		s.mtx.Unlock() // want `Unlock: held {}`
	}() // want `return: held {}`
} // want `return: held {}`

// A caller of asyncFlush does not hold s.mtx after it: locking it again
// waits for the flush.
func (s *summary) observe(v float64) {
	s.asyncFlush()
	s.mtx.Lock() // want `Lock: held {}`
	s.hot = append(s.hot, v)
	s.mtx.Unlock() // want `Unlock: held {p0.0}`
} // want `return: held {}`

// go mu.Unlock() hands the lock over too.
func handOff(mu *sync.Mutex) {
	mu.Lock()      // want `Lock: held {}`
	go mu.Unlock() // want `Unlock: held {p0}`
	mu.Lock()      // want `Lock: held {}`
	mu.Unlock()    // want `Unlock: held {p0}`
} // want `return: held {}`

func (s *summary) unlockIf(done bool) {
	if done {
		s.mtx.Unlock() // want `Unlock: held {}`
	}
} // want `return: held {}`

// A constant argument that skips the goroutine's Unlock hands nothing
// over; one that reaches it does.
func (s *summary) keeps() {
	s.mtx.Lock() // want `Lock: held {}`
	go s.unlockIf(false)
	s.mtx.Unlock() // want `Unlock: held {p0.0}`
} // want `return: held {}`

func (s *summary) handsOver() {
	s.mtx.Lock() // want `Lock: held {}`
	go s.unlockIf(true)
	s.mtx.Lock()   // want `Lock: held {}`
	s.mtx.Unlock() // want `Unlock: held {p0.0}`
} // want `return: held {}`
