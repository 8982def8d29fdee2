package main

import "sync"

// A Session is stopped by stop, which returns holding changeMu on every
// path, and started again by start, which unlocks it: a lock passed from
// one function to the next. The Unlock of another mutex that stop defers
// leaves changeMu as it is, and the return a recovered panic would take
// (go/ssa's Recover block, which nothing here reaches) is not one that
// unlocks it.
type Session struct {
	changeMu sync.Mutex
	readyMu  sync.Mutex
	live     bool
	ready    []int
}

func (s *Session) stop() int {
	s.changeMu.Lock()
	if !s.live {
		return 0
	}
	s.live = false
	s.readyMu.Lock()
	defer s.readyMu.Unlock()
	s.ready = nil
	return 1
}

func (s *Session) start() {
	s.live = true
	s.changeMu.Unlock()
}

// stopIf unlocks on its early return only: the other return leaves
// changeMu locked.
func (s *Session) stopIf() int {
	s.changeMu.Lock()
	if !s.live {
		s.changeMu.Unlock()
		return 0
	}
	s.readyMu.Lock()
	defer s.readyMu.Unlock()
	s.ready = nil
	return 1 // want `lock left held: s.changeMu \(locked at passedlock.go:\d+\) is still locked when stopIf returns here, while its other returns unlock it`
}

func useSession() {
	s := &Session{live: true}
	s.stop()
	s.start()
	s.stopIf()
}
