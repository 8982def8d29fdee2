// Package gblib annotates the fields and methods that package gbuse
// accesses and calls: the annotations reach gbuse as facts.
package gblib

import "sync"

type Stats struct {
	Mu sync.RWMutex
	// +checklocks:Mu
	Hits int // want Hits:`guarded\(Mu at lib\.go:9\)`
	// +checklocks:mu
	misses int // want misses:`guarded\(mu at lib\.go:11\)`
	mu     sync.Mutex
}

// +checklocks:s.Mu
func (s *Stats) AddLocked(n int) { // want AddLocked:`guarded\(s\.Mu at lib\.go:16\)`
	s.Hits += n
}

// Miss counts a miss under the unexported mutex.
func (s *Stats) Miss() {
	s.mu.Lock()
	s.misses++
	s.mu.Unlock()
}

// +checklocksread:s.Mu
func Peek(s *Stats) int { // want Peek:`guarded\(read s\.Mu at lib\.go:28\)`
	return s.Hits
}

var (
	// +checklocks:FooMu
	Foo   int // want Foo:`guarded\(FooMu at lib\.go:34\)`
	FooMu sync.Mutex

	// +checklocks:barMu
	Bar   int // want Bar:`guarded\(barMu at lib\.go:38\)`
	barMu sync.Mutex
)

// LockBar takes the unexported mutex that guards Bar.
func LockBar() { barMu.Lock() }

// UnlockBar releases it.
func UnlockBar() { barMu.Unlock() }

type Generic[T any] struct {
	Mu sync.Mutex
	// +checklocks:Mu
	Value T // want Value:`guarded\(Mu at lib\.go:51\)`
}
