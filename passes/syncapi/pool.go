package syncapi

import "golang.org/x/tools/go/ssa"

// PoolOp is a method of sync.Pool that moves objects in or out of it.
type PoolOp int

const (
	NotPool PoolOp = iota
	PoolGet        // p.Get(): an object some Put gave the pool, or New's
	PoolPut        // p.Put(x): x goes back to the pool
)

// Pool recognizes p.Get() and p.Put(x) on a *sync.Pool and returns the
// operation and the pool. Under the race detector a Put happens before
// the Get that returns what it put.
func Pool(call *ssa.CallCommon) (PoolOp, ssa.Value) {
	name, recv := method(call, "sync", "Pool")
	switch {
	case name == "Get" && len(call.Args) == 1:
		return PoolGet, recv
	case name == "Put" && len(call.Args) == 2:
		return PoolPut, recv
	}
	return NotPool, nil
}
