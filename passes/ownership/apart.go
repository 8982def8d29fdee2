package ownership

import (
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// settingUp reports whether acc is a write in a method that its callers
// run only on objects they have not shared yet (see setupMethod): the
// maps that Transport.Start makes before any handler can reach them.
func (q *Query) settingUp(acc pointer.Access) bool {
	return acc.Write && acc.Imported == nil && q.fresh.setupMethod(acc.Instr.Parent())
}

// internal reports whether a and b are both made by functions of other
// packages on an object whose code there also accesses it atomically:
// a type that synchronizes itself (a reference count, a lock built on
// compare-and-swap, as os.File's descriptor does), which the race
// detector sees as synchronization and origo cannot follow. Whether two
// goroutines may call such a type's methods at once is its own
// package's contract; a type with no atomics (a bytes.Buffer) is still
// checked.
func (q *Query) internal(obj *pointer.Object, a, b pointer.Access) bool {
	if a.Imported == nil || b.Imported == nil {
		return false
	}
	if q.selfSynced == nil {
		q.selfSynced = make(map[*pointer.Object]bool)
		for _, acc := range q.ptr.Accesses() {
			if acc.Atomic && acc.Imported != nil {
				q.selfSynced[acc.Loc.Obj] = true
			}
		}
	}
	return q.selfSynced[obj]
}

// closes reports whether acc is a close of a channel. Two closes of
// one channel are not reported as a race: if both run, the second
// panics whatever their order, and whether both run depends on values
// (a flag, a branch taken once) that origo does not follow.
func closes(acc pointer.Access) bool {
	if acc.Imported != nil {
		return false
	}
	call, ok := acc.Instr.(ssa.CallInstruction)
	if !ok {
		return false
	}
	_, ok = syncapi.Close(call.Common())
	return ok
}
