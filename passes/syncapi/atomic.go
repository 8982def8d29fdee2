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
	AtomicWrite                          // Store*, Add*, Swap*, And*, Or*: writes
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
	}
	return AtomicWrite
}

// Writes reports whether the operation may write the memory.
func (op AtomicOp) Writes() bool { return op == AtomicCompareAndSwap || op == AtomicWrite }
