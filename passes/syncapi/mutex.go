package syncapi

import "golang.org/x/tools/go/ssa"

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
// the mutex (the Locker for an interface call).
func MutexOp(call *ssa.CallCommon) (LockOp, ssa.Value) {
	var name string
	var mu ssa.Value
	if call.IsInvoke() {
		if !isNamed(call.Value.Type(), "sync", "Locker") {
			return NoLockOp, nil
		}
		name, mu = call.Method.Name(), call.Value
	} else if name, mu = method(call, "sync", "Mutex"); mu == nil {
		name, mu = method(call, "sync", "RWMutex")
	}
	if op, ok := lockOps[name]; ok && mu != nil {
		return op, mu
	}
	return NoLockOp, nil
}

var lockOps = map[string]LockOp{
	"Lock":     Lock,
	"RLock":    RLock,
	"Unlock":   Unlock,
	"RUnlock":  RUnlock,
	"TryLock":  TryLock,
	"TryRLock": TryRLock,
}
