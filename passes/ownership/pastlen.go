package ownership

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// Appends past the length. s.f = append(s.f, x) under s.mu writes the
// element at index len(s.f) of the backing array (or a new array): it
// never writes an element below the length of the header it loaded. A
// reader that took the header under the same mutex (hooks := s.hooks,
// or a method that returns s.hooks holding it) and reads its elements
// after Unlock reads below that header's length, and the header only
// grows: so the append writes past every element the reader may read,
// and the two touch no memory at once. It holds while the field is never
// cut shorter with its array kept (s.f = s.f[:0], whose next append
// overwrites what a snapshot still reads): every store into the field
// in the package is an append to itself, nil, or a new array, and its
// address goes nowhere else. The field must be unexported, so no other
// package stores into it. The mutex is held at a load where its Lock
// dominates the load and no Unlock runs between them (one round of an
// event loop unlocks, the next locks again before it loads).

// appendPastLen reports whether a, an append into a slice field under a
// mutex of its struct, writes past every element that b reads through a
// header taken from that field under that mutex.
func (q *Query) appendPastLen(a, b pointer.Access) bool {
	if !a.Write || b.Write || a.Imported != nil || b.Imported != nil {
		return false
	}
	call, ok := a.Instr.(*ssa.Call)
	if !ok || !isAppend(call) || len(call.Call.Args) == 0 {
		return false
	}
	ld, ok := call.Call.Args[0].(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	st, named := fieldStruct(fa)
	if named == nil || st.Field(fa.Field).Exported() {
		return false
	}
	mu := mutexHeldAt(call, fa.X)
	if mu < 0 {
		return false
	}
	v := indexedSlice(b.Instr)
	if v == nil || !q.snapshot(v, named, fa.Field, mu, 0) {
		return false
	}
	return q.neverCut(named, fa.Field)
}

// isAppend reports whether call calls the builtin append.
func isAppend(call *ssa.Call) bool {
	b, ok := call.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == "append"
}

// fieldStruct returns the struct and the named type that fa selects a
// field of.
func fieldStruct(fa *ssa.FieldAddr) (*types.Struct, *types.Named) {
	p, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil, nil
	}
	named, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok {
		return nil, nil
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return nil, nil
	}
	return st, named
}

// indexedSlice returns the slice whose element instr reads: *(&v[i]),
// or nil.
func indexedSlice(instr ssa.Instruction) ssa.Value {
	ld, ok := instr.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil
	}
	ia, ok := ld.X.(*ssa.IndexAddr)
	if !ok {
		return nil
	}
	if _, ok := ia.X.Type().Underlying().(*types.Slice); !ok {
		return nil
	}
	return ia.X
}

// maxSnapshotDepth bounds the calls snapshot follows.
const maxSnapshotDepth = 2

// snapshot reports whether the slice v is a header loaded from field f
// of a struct of type named, holding the mutex in field mu of the same
// struct: directly, re-sliced, or as what a function of the package
// returns on every path.
func (q *Query) snapshot(v ssa.Value, named *types.Named, f, mu, depth int) bool {
	switch v := v.(type) {
	case *ssa.Slice:
		return q.snapshot(v.X, named, f, mu, depth)
	case *ssa.UnOp:
		if cell, ok := v.X.(*ssa.Alloc); ok && v.Op == token.MUL && !cell.Heap {
			// The result variable of a function with defers: every
			// value stored into it.
			n := 0
			for _, r := range *cell.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Addr == cell {
					if !q.snapshot(st.Val, named, f, mu, depth) {
						return false
					}
					n++
				}
			}
			return n > 0
		}
		fa, ok := v.X.(*ssa.FieldAddr)
		if v.Op != token.MUL || !ok || fa.Field != f {
			return false
		}
		if _, n := fieldStruct(fa); n == nil || n.Origin() != named.Origin() {
			return false
		}
		return mutexHeldAt(v, fa.X) == mu
	case *ssa.Parameter:
		// A snapshot passed in: every call of the package's own
		// function passes one.
		fn := v.Parent()
		i := slices.Index(fn.Params, v)
		if fn.Object() == nil || fn.Object().Exported() || i < 0 || depth >= maxSnapshotDepth {
			return false
		}
		sites := q.fresh.callsOf(fn)
		for _, site := range sites {
			_, args, ok := boundArgs(site, fn)
			if !ok || i >= len(args) || !q.snapshot(args[i], named, f, mu, depth+1) {
				return false
			}
		}
		return len(sites) > 0
	case *ssa.Call:
		callee := v.Call.StaticCallee()
		if callee == nil || len(callee.Blocks) == 0 || depth >= maxSnapshotDepth {
			return false
		}
		if res := callee.Signature.Results(); res.Len() != 1 {
			return false
		} else if _, ok := res.At(0).Type().Underlying().(*types.Slice); !ok {
			return false
		}
		n := 0
		for _, b := range callee.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
				if len(ret.Results) != 1 || !q.snapshot(ret.Results[0], named, f, mu, depth+1) {
					return false
				}
				n++
			}
		}
		return n > 0
	}
	return false
}

// mutexHeldAt returns the field of the struct base points to whose
// mutex instr's function holds at instr: a Lock or RLock on &base.mu
// dominates instr, and no Unlock of it not deferred may run between
// them; -1 if none.
func mutexHeldAt(instr ssa.Instruction, base ssa.Value) int {
	fn := instr.Parent()
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			call, ok := in.(*ssa.Call)
			if !ok || len(call.Call.Args) == 0 {
				continue
			}
			op, mu := syncapi.MutexOp(&call.Call)
			fa, ok := mu.(*ssa.FieldAddr)
			if !ok || !sameBase(fa.X, base) || op != syncapi.Lock && op != syncapi.RLock || !pointer.Dominates(call, instr) {
				continue
			}
			if !unlockedBetween(call, instr, base, fa.Field) {
				return fa.Field
			}
		}
	}
	return -1
}

// sameBase reports whether x and y are one value of their function: the
// same SSA value, or loads of the variable that go/ssa gives a
// parameter that closures capture, which holds the parameter for good
// (lockset.Spilled), each use loading it anew.
func sameBase(x, y ssa.Value) bool {
	return x == y || unspill(x) == unspill(y)
}

// unspill returns the parameter that v loads from its captured
// variable, or v.
func unspill(v ssa.Value) ssa.Value {
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		if p, ok := lockset.Spilled(ld.X); ok {
			return p
		}
	}
	return v
}

// unlockedBetween reports whether a call (not deferred) that unlocks
// &base.f may run after lock and before instr, with no run of lock
// between them: in a loop, the Unlock of one round reaches the next
// round's load only through its Lock, which holds the mutex again.
func unlockedBetween(lock, instr ssa.Instruction, base ssa.Value, f int) bool {
	for _, b := range instr.Parent().Blocks {
		for _, in := range b.Instrs {
			call, ok := in.(*ssa.Call)
			if !ok || len(call.Call.Args) == 0 {
				continue
			}
			op, mu := syncapi.MutexOp(&call.Call)
			fa, ok := mu.(*ssa.FieldAddr)
			if !ok || !sameBase(fa.X, base) || fa.Field != f || op != syncapi.Unlock && op != syncapi.RUnlock {
				continue
			}
			if pathFrom(lock, call) && reachesAvoiding(call, instr, lock) {
				return true
			}
		}
	}
	return false
}

// pathFrom reports whether a path leads from instruction x to y: later
// in one block, or through the blocks after x's (see reaches).
func pathFrom(x, y ssa.Instruction) bool {
	return x.Block() == y.Block() && indexOf(x) < indexOf(y) || reaches(x.Block(), y.Block(), nil)
}

// structField is a field of a named struct type, by index.
type structField struct {
	t *types.Named // its origin, for a generic type
	f int
}

// neverCut reports whether field f of named is never cut shorter with
// its array kept: every store into it in the package is an append to
// the same field, nil, a new slice (make, a literal) or a copy into a
// new array, and its address goes only to loads and stores. It scans the
// package once per field: every pair of an append and a read asks.
func (q *Query) neverCut(named *types.Named, f int) bool {
	k := structField{named.Origin(), f}
	if uncut, ok := q.uncut[k]; ok {
		return uncut
	}
	uncut := q.scanNeverCut(named, f)
	if q.uncut == nil {
		q.uncut = make(map[structField]bool)
	}
	q.uncut[k] = uncut
	return uncut
}

func (q *Query) scanNeverCut(named *types.Named, f int) bool {
	for _, fn := range q.funcs {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				fa, ok := in.(*ssa.FieldAddr)
				if !ok || fa.Field != f {
					continue
				}
				if _, n := fieldStruct(fa); n == nil || n.Origin() != named.Origin() {
					continue
				}
				for _, r := range *fa.Referrers() {
					switch r := r.(type) {
					case *ssa.UnOp:
						if r.Op != token.MUL {
							return false
						}
					case *ssa.Store:
						if r.Addr != fa || !newOrAppended(r.Val, f) {
							return false
						}
					case *ssa.DebugRef:
					default:
						return false // its address goes elsewhere
					}
				}
			}
		}
	}
	return true
}

// newOrAppended reports whether v, stored into field f, is an append to
// that field, nil, or a slice that no one else holds: made, a literal.
func newOrAppended(v ssa.Value, f int) bool {
	switch v := v.(type) {
	case *ssa.Const:
		return v.Value == nil
	case *ssa.MakeSlice:
		return true
	case *ssa.Slice:
		_, lit := v.X.(*ssa.Alloc)
		return lit && v.Low == nil && v.High == nil
	case *ssa.Call:
		if !isAppend(v) || len(v.Call.Args) == 0 {
			return false
		}
		if ld, ok := v.Call.Args[0].(*ssa.UnOp); ok && ld.Op == token.MUL {
			if fa, ok := ld.X.(*ssa.FieldAddr); ok && fa.Field == f {
				return true
			}
		}
		// append([]T(nil), ...) or append(fresh, ...): a new array.
		return newOrAppended(v.Call.Args[0], -1)
	}
	return false
}
