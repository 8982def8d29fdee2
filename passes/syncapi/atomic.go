package syncapi

import (
	"strings"

	"golang.org/x/tools/go/ssa"
)

// AtomicOp is what a function of sync/atomic does to the memory its
// first argument points to.
type AtomicOp uint8

// The kinds of sync/atomic operations.
const (
	NotAtomic            AtomicOp = iota // not a function of sync/atomic
	AtomicLoad                           // Load*: reads
	AtomicCompareAndSwap                 // CompareAndSwap*: writes, and a loop may spin on it
	AtomicWrite                          // Store*, And*, Or*: writes
	AtomicAdd                            // Add*: writes, and returns the new value
	AtomicSwap                           // Swap*: writes, and returns the old value
)

// Atomic classifies fn, a function or method of sync/atomic (typed
// methods such as atomic.Int32.Add included), by its name.
func Atomic(fn *ssa.Function) AtomicOp {
	obj := fn.Object()
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "sync/atomic" {
		return NotAtomic
	}
	switch name := obj.Name(); {
	case strings.HasPrefix(name, "Load"):
		return AtomicLoad
	case strings.HasPrefix(name, "CompareAndSwap"):
		return AtomicCompareAndSwap
	case strings.HasPrefix(name, "Add"):
		return AtomicAdd
	case strings.HasPrefix(name, "Swap"):
		return AtomicSwap
	}
	return AtomicWrite
}

// Writes reports whether the operation may write the memory.
func (op AtomicOp) Writes() bool { return op != NotAtomic && op != AtomicLoad }

// AtomicOperand returns the value operand of an atomic operation: the
// delta of an Add, the old value of a CompareAndSwap, the new value of
// a Store or Swap; nil for a Load. Functions and the methods of the
// typed atomics both pass it second, after the address or receiver.
func AtomicOperand(op AtomicOp, call *ssa.CallCommon) ssa.Value {
	if op == NotAtomic || op == AtomicLoad || len(call.Args) < 2 {
		return nil
	}
	return call.Args[1]
}
