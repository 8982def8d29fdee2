package syncapi

import (
	"go/types"
	"slices"
)

// ConcurrentField reports whether a struct field of type t says that the
// struct is meant to be used by several goroutines at once: t is
// sync.Mutex, sync.RWMutex or a type of sync/atomic.
func ConcurrentField(t types.Type) bool {
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	switch named.Obj().Pkg().Path() {
	case "sync":
		switch named.Obj().Name() {
		case "Mutex", "RWMutex":
			return true
		}
	case "sync/atomic":
		return true
	}
	return false
}

// PointerTo reports whether t is a pointer to one of the named types of
// package sync (PointerTo(t, "WaitGroup", "Cond") for *sync.WaitGroup or
// *sync.Cond).
func PointerTo(t types.Type, names ...string) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && slices.Contains(names, n.Obj().Name())
}
