// Package xstub makes stubs for package xruns's tests: each call of
// NewStub allocates a stub of its own, Shared returns the package's one,
// and Keep holds the stubs it is given in a package-level list.
package xstub

// Stub counts what it is given.
type Stub struct {
	Total int
	Name  string
}

// NewStub makes a stub.
func NewStub() *Stub { return &Stub{} }

var shared = &Stub{}

// Shared returns the package's stub.
func Shared() *Stub { return shared }

var kept []*Stub

// Keep makes a stub and keeps it, for later calls of Last.
func Keep() *Stub {
	s := &Stub{}
	kept = append(kept, s)
	return s
}

// Last returns the last stub Keep made.
func Last() *Stub { return kept[len(kept)-1] }
