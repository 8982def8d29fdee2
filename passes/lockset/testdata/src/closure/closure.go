// Package closure: closures that lock and unlock what they capture. A
// closure's body starts with nothing held (locksets are local); its
// callers apply its effect, renaming its free variables to the bindings
// (a captured parameter is keyed as the parameter).
package closure

import "sync"

var other sync.Mutex

type S struct {
	mu sync.Mutex
	n  int
}

func (s *S) unlockInClosure() {
	s.mu.Lock()  // want `Lock: held {}`
	other.Lock() // want `Lock: held {p0.0}`
	func() {
		s.n++
		s.mu.Unlock() // want `Unlock: held {}`
	}() // want `return: held {}`
	other.Unlock() // want `Unlock: held {g:closure.other}`
} // want `return: held {}`

func (s *S) lockInClosure() {
	lock := func() {
		s.mu.Lock() // want `Lock: held {}`
	} // want `return: held {fv0@.0}`
	lock()
	s.n++
	s.mu.Unlock() // want `Unlock: held {p0.0}`
} // want `return: held {}`

// A closure started as a goroutine that locks the mutex itself has no
// effect on its starter: it waits for the starter's Unlock. (One that
// unlocks the starter's lock takes it over: see package transfer.)
func (s *S) spawn() {
	s.mu.Lock() // want `Lock: held {}`
	go func() {
		s.mu.Lock()   // want `Lock: held {}`
		s.n++         //
		s.mu.Unlock() // want `Unlock: held {fv0@.0}`
	}() // want `return: held {}`
	s.mu.Unlock() // want `Unlock: held {p0.0}`
} // want `return: held {}`
