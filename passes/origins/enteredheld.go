package origins

import (
	"strings"

	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// enteredHeld returns the package's methods that are entered with a
// mutex of their receiver held, so that they are no calls of their own
// for a library's concurrent callers (see concurrentMethods): the
// callers that hold the mutex run them. A method is entered so when its
// name says so (fooLocked, Go's convention for "the caller holds the
// lock") and it locks no mutex itself, or when the package's own code calls it, and every such call
// (tests aside) holds, at the call, a mutex reached from the receiver it
// passes, or is in a method entered so on the same receiver (etcd's
// UnsafeLoad, whose one caller Recover holds c.Mutex around it).
func enteredHeld(pass *analysis.Pass, ir *buildir.IR, ls *lockset.Result) map[*ssa.Function]bool {
	calls := make(map[*ssa.Function][]*ssa.Call)
	for _, fn := range ir.SrcFuncs {
		if strings.HasSuffix(pass.Fset.Position(fn.Pos()).Filename, "_test.go") {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				if callee := call.Call.StaticCallee(); callee != nil && callee.Signature.Recv() != nil && len(call.Call.Args) > 0 {
					calls[callee] = append(calls[callee], call)
				}
			}
		}
	}
	held := make(map[*ssa.Function]bool)
	for _, fn := range ir.SrcFuncs {
		if fn.Signature.Recv() != nil && strings.HasSuffix(fn.Name(), "Locked") && !locks(fn) {
			held[fn] = true
		}
	}
	// Grow the set until it holds: a caller entered with the lock held
	// passes it on to what it calls on the same receiver.
	for changed := true; changed; {
		changed = false
		for fn, sites := range calls {
			if held[fn] {
				continue
			}
			all := true
			for _, call := range sites {
				if !holdsReceiverLock(call, ls) && !(held[call.Parent()] && passesReceiver(call)) {
					all = false
					break
				}
			}
			if all {
				held[fn] = true
				changed = true
			}
		}
	}
	return held
}

// locks reports whether fn locks a mutex itself: then a name ending in
// Locked says what it does (ReadLocked reads holding the lock it takes),
// not what its caller holds.
func locks(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				if op, _ := syncapi.MutexOp(call.Common()); op == syncapi.Lock || op == syncapi.RLock {
					return true
				}
			}
		}
	}
	return false
}

// holdsReceiverLock reports whether the caller of call holds, at it, a
// mutex reached from the receiver the call passes (c.mu.Lock(), or the
// embedded c.Lock(), then c.Load()).
func holdsReceiverLock(call *ssa.Call, ls *lockset.Result) bool {
	recv := baseOf(call.Call.Args[0])
	for _, h := range ls.Before(call) {
		if !h.Read && h.Value != nil && baseOf(h.Value) == recv {
			return true
		}
	}
	return false
}

// passesReceiver reports whether call passes its function's own
// receiver as the receiver (or a field of it).
func passesReceiver(call *ssa.Call) bool {
	fn := call.Parent()
	return fn.Signature.Recv() != nil && len(fn.Params) > 0 && baseOf(call.Call.Args[0]) == fn.Params[0]
}

// baseOf returns the value that v reaches a field from: c for &c.mu,
// &c.a.b or c itself.
func baseOf(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		default:
			return v
		}
	}
}
