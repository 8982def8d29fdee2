package syncapi

import "go/types"

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
