// Package gbuse accesses fields and calls functions that package gblib
// annotated: the annotations are facts here.
package gbuse

import "gblib"

func Use(s *gblib.Stats) int {
	s.Mu.Lock()
	s.Hits++
	s.AddLocked(1)
	s.Mu.Unlock()
	s.Hits++       // want `write to s.Hits without s.Mu held \(annotated \+checklocks:Mu at lib.go:9\)`
	s.AddLocked(2) // want `call of AddLocked without s.Mu held \(annotated \+checklocks:s.Mu at lib.go:16\)`
	s.Mu.RLock()
	defer s.Mu.RUnlock()
	return s.Hits + gblib.Peek(s)
}

func Unlocked(s *gblib.Stats) int {
	return gblib.Peek(s) // want `call of Peek without s.Mu held \(annotated \+checklocksread:s.Mu at lib.go:28\)`
}

func Globals(g *gblib.Generic[string]) {
	gblib.FooMu.Lock()
	gblib.Foo++
	gblib.FooMu.Unlock()
	gblib.Foo++ // want `write to gblib.Foo without gblib.FooMu held \(annotated \+checklocks:FooMu at lib.go:34\)`
	// Bar's mutex is unexported: go vet's export data leaves it out, and
	// lockset cannot tell that LockBar takes it, so it is taken for held.
	gblib.LockBar()
	gblib.Bar++
	gblib.UnlockBar()
	gblib.Bar++
	g.Mu.Lock()
	g.Value = "x"
	g.Mu.Unlock()
	_ = g.Value // want `read of g.Value without g.Mu held \(annotated \+checklocks:Mu at lib.go:51\)`
}
