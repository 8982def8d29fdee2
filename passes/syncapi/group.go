package syncapi

import "golang.org/x/tools/go/ssa"

// WaitGroupOp is a method of sync.WaitGroup that orders goroutines.
// WaitGroup.Go starts one, so it is a spawner (see Spawn).
type WaitGroupOp uint8

// The methods of sync.WaitGroup, besides Go.
const (
	NotWaitGroup WaitGroupOp = iota
	WaitGroupAdd
	WaitGroupDone
	WaitGroupWait
)

// WaitGroup recognizes a call of Add, Done or Wait of a sync.WaitGroup
// and returns the operation and the WaitGroup.
func WaitGroup(call *ssa.CallCommon) (WaitGroupOp, ssa.Value) {
	name, wg := method(call, "sync", "WaitGroup")
	if op, ok := waitGroupOps[name]; ok {
		return op, wg
	}
	return NotWaitGroup, nil
}

var waitGroupOps = map[string]WaitGroupOp{"Add": WaitGroupAdd, "Done": WaitGroupDone, "Wait": WaitGroupWait}

// errgroupPath is the import path of errgroup, whose Group is a
// WaitGroup for goroutines that return an error.
const errgroupPath = "golang.org/x/sync/errgroup"

// ErrgroupWait recognizes a call of (*errgroup.Group).Wait, which waits
// for the goroutines the group's Go and TryGo started (see Spawn), and
// returns the group.
func ErrgroupWait(call *ssa.CallCommon) (ssa.Value, bool) {
	name, g := method(call, errgroupPath, "Group")
	return g, name == "Wait"
}
