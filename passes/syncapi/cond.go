package syncapi

import "golang.org/x/tools/go/ssa"

// CondOp is a method of sync.Cond.
type CondOp uint8

// The methods of sync.Cond.
const (
	NotCond CondOp = iota
	CondWait
	CondSignal
	CondBroadcast
)

// Cond recognizes a call of Wait, Signal or Broadcast of a sync.Cond and
// returns the operation and the Cond.
func Cond(call *ssa.CallCommon) (CondOp, ssa.Value) {
	name, c := method(call, "sync", "Cond")
	if op, ok := condOps[name]; ok {
		return op, c
	}
	return NotCond, nil
}

var condOps = map[string]CondOp{"Wait": CondWait, "Signal": CondSignal, "Broadcast": CondBroadcast}

// NewCond recognizes sync.NewCond(l) and returns l, the Locker that the
// Cond's Wait releases and reacquires.
func NewCond(call *ssa.CallCommon) (ssa.Value, bool) {
	fn := call.StaticCallee()
	if fn == nil || len(call.Args) != 1 || fn.Signature.Recv() != nil || qualifiedName(fn) != "sync.NewCond" {
		return nil, false
	}
	return call.Args[0], true
}
