package syncapi

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// LockOp is an operation on a mutex.
type LockOp uint8

// The operations of sync.Mutex, sync.RWMutex and sync.Locker.
const (
	NoLockOp LockOp = iota // not a lock operation
	Lock
	RLock // held for reading: two readers do not exclude each other
	Unlock
	RUnlock
	TryLock  // holds the lock where it returned true
	TryRLock // holds the read lock where it returned true
)

// MutexOp recognizes a call of a method of sync.Mutex or sync.RWMutex,
// or of sync.Locker through the interface, and returns the operation and
// the mutex (the Locker for an interface call). The Lock and Unlock of a
// Locker that RWMutex.RLocker made are RLock and RUnlock.
func MutexOp(call *ssa.CallCommon) (LockOp, ssa.Value) {
	var name string
	var mu ssa.Value
	if call.IsInvoke() {
		if !isNamed(call.Value.Type(), "sync", "Locker") {
			return NoLockOp, nil
		}
		name, mu = call.Method.Name(), call.Value
		if readLocker(mu, 0) {
			name = "R" + name
		}
	} else if name, mu = method(call, "sync", "Mutex"); mu == nil {
		name, mu = method(call, "sync", "RWMutex")
	}
	if op, ok := lockOps[name]; ok && mu != nil {
		return op, mu
	}
	return NoLockOp, nil
}

// readLocker reports whether the Locker v is the result of
// RWMutex.RLocker, directly or through the one store to a variable that
// v loads (a local, or one a closure captures).
func readLocker(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	switch v := v.(type) {
	case *ssa.Call:
		name, _ := method(v.Common(), "sync", "RWMutex")
		return name == "RLocker"
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return false
		}
		if stored := OnlyStore(v.X); stored != nil {
			return readLocker(stored, depth+1)
		}
	}
	return false
}

// OnlyStore returns the value of the one store to the variable at addr,
// an Alloc or a closure's free variable bound to one; nil when there is
// not exactly one.
func OnlyStore(addr ssa.Value) ssa.Value {
	if fv, ok := addr.(*ssa.FreeVar); ok {
		addr = Binding(fv)
	}
	alloc, ok := addr.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var stored ssa.Value
	for _, ref := range *alloc.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == alloc {
			if stored != nil {
				return nil
			}
			stored = st.Val
		}
	}
	return stored
}

// Binding returns what the function that makes fv's closure binds fv to,
// when it makes it once.
func Binding(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	i := slices.Index(fn.FreeVars, fv)
	if fn.Parent() == nil || i < 0 {
		return nil
	}
	var bound ssa.Value
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn && i < len(mc.Bindings) {
				if bound != nil {
					return nil
				}
				bound = mc.Bindings[i]
			}
		}
	}
	return bound
}

var lockOps = map[string]LockOp{
	"Lock":     Lock,
	"RLock":    RLock,
	"Unlock":   Unlock,
	"RUnlock":  RUnlock,
	"TryLock":  TryLock,
	"TryRLock": TryRLock,
}
