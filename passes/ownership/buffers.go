package ownership

import (
	"go/token"
	"go/types"

	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// Double buffering. A type keeps two slices in two fields, one filled
// while the other is drained, and swaps them holding the locks of both
// sides (prometheus's summary: Observe appends to s.hotBuf holding
// bufMtx, the flush goroutine reads s.coldBuf holding mtx, and swapBufs
// runs s.hotBuf, s.coldBuf = s.coldBuf, s.hotBuf holding both). The
// pointer analysis merges the two arrays, as the swap stores each into
// both fields, and each side's accesses meet the other's. But the two
// fields never hold one array at one time: they start as two makes, and
// every later store swaps them, reslices a field's own value
// (s.coldBuf = s.coldBuf[0:0]) or appends to it. A side that loads its
// field and accesses the array holding, all along, a lock that every
// swap holds sees its field unchanged meanwhile. So when the two sides
// reach one array through the two fields, a swap came between them, and
// it is ordered after the first by the lock it shares with it, before
// the second by the other.

// bufferKey names two fields of a struct type, in field order.
type bufferKey struct {
	st     *types.Struct
	f1, f2 int
}

// buffers is what bufferStores found for a pair of fields.
type buffers struct {
	ok    bool
	swaps []ssa.Instruction // the stores that swap the two fields
}

// swappedBuffers reports whether a (event x of trace ta, holding la)
// and b (event y of tb, holding lb) reach the array they share through
// two fields of one struct that the package uses as double buffers,
// each loading its field and accessing the array while holding a lock
// that every swap of the two fields holds.
func (q *Query) swappedBuffers(ta *shb.Trace, x int32, a pointer.Access, la shb.LocksetID, tb *shb.Trace, y int32, b pointer.Access, lb shb.LocksetID) bool {
	loadA, fa := fieldLoad(accessedAddr(a))
	loadB, fb := fieldLoad(accessedAddr(b))
	if fa == nil || fb == nil || fa.Field == fb.Field {
		return false
	}
	st, ok := structOf(fa)
	if !ok || !types.Identical(st, mustStruct(fb)) {
		return false
	}
	k := bufferKey{st, min(fa.Field, fb.Field), max(fa.Field, fb.Field)}
	bufs, done := q.buffers[k]
	if !done {
		bufs = q.bufferStores(k)
		if q.buffers == nil {
			q.buffers = make(map[bufferKey]buffers)
		}
		q.buffers[k] = bufs
	}
	if !bufs.ok {
		return false
	}
	sk := swapKey{k, ta.Origin, fa.X, tb.Origin, fb.X}
	swapLocks, done := q.swapLocks[sk]
	if !done {
		swapLocks = q.swapLocksOf(bufs, ta.Origin, fa.X, tb.Origin, fb.X)
		if q.swapLocks == nil {
			q.swapLocks = make(map[swapKey][]shb.LocksetID)
		}
		q.swapLocks[sk] = swapLocks
	}
	if len(swapLocks) == 0 {
		return false // no swap seen: nothing tells the fields apart
	}
	return q.heldAlong(ta, loadA, x, la, swapLocks) && q.heldAlong(tb, loadB, y, lb, swapLocks)
}

// swapKey is a pair of fields and, on each side, the origin and the
// struct pointer whose field a side loads: what swapLocksOf depends on.
type swapKey struct {
	fields bufferKey
	oa     *pointer.Origin
	xa     ssa.Value
	ob     *pointer.Origin
	xb     ssa.Value
}

// swapLocksOf returns the locksets held at the swaps of bufs, in every
// trace, on the objects that xa (in origin oa) and xb (in ob) may
// point to. The race pass asks it for every pair of the two sides'
// events, most of them with the same loads, so the query memoizes it
// (Query.swapLocks).
func (q *Query) swapLocksOf(bufs buffers, oa *pointer.Origin, xa ssa.Value, ob *pointer.Origin, xb ssa.Value) []shb.LocksetID {
	// The swaps that matter are those on the objects the two loads may
	// load from: the pointer analysis tells a constructor's objects apart
	// by call site, and their mutexes with them.
	objs := make(map[*pointer.Object]bool)
	for _, l := range q.ptr.PointsToIn(oa, xa) {
		objs[l.Obj] = true
	}
	for _, l := range q.ptr.PointsToIn(ob, xb) {
		objs[l.Obj] = true
	}
	var swapLocks []shb.LocksetID
	for _, t := range q.hb.Traces {
		for _, s := range bufs.swaps {
			evs := t.EventsAt(s)
			if len(evs) == 0 || !q.mayPointInto(t.Origin, s.(*ssa.Store).Addr.(*ssa.FieldAddr).X, objs) {
				continue
			}
			for _, ev := range evs {
				swapLocks = append(swapLocks, t.Events[ev].Locks)
			}
		}
	}
	return swapLocks
}

// mayPointInto reports whether v may point to one of objs in origin o.
func (q *Query) mayPointInto(o *pointer.Origin, v ssa.Value, objs map[*pointer.Object]bool) bool {
	for _, l := range q.ptr.PointsToIn(o, v) {
		if objs[l.Obj] {
			return true
		}
	}
	return false
}

// heldAlong reports whether, in trace t, the last execution of load
// before event x and every event from it to x hold locks that exclude
// each of swaps, as held (the locks at x) does.
func (q *Query) heldAlong(t *shb.Trace, load *ssa.UnOp, x int32, held shb.LocksetID, swaps []shb.LocksetID) bool {
	from := int32(-1)
	for _, ev := range t.EventsAt(load) {
		if ev <= x && ev > from {
			from = ev
		}
	}
	if from < 0 {
		return false
	}
	for _, s := range swaps {
		if !q.order.Exclusive(held, s) {
			return false
		}
		for ev := from; ev <= x; ev++ {
			if !q.order.Exclusive(t.Events[ev].Locks, s) {
				return false
			}
		}
	}
	return true
}

// fieldLoad returns the load of a struct field that addr selects an
// element or slice of, and that field's address.
func fieldLoad(addr ssa.Value) (*ssa.UnOp, *ssa.FieldAddr) {
	if addr == nil {
		return nil, nil
	}
	load, ok := selected(addr).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil, nil
	}
	if _, ok := fa.Type().(*types.Pointer).Elem().Underlying().(*types.Slice); !ok {
		return nil, nil
	}
	return load, fa
}

func structOf(fa *ssa.FieldAddr) (*types.Struct, bool) {
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil, false
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	return st, ok
}

func mustStruct(fa *ssa.FieldAddr) *types.Struct {
	st, _ := structOf(fa)
	return st
}

// bufferStores checks every store of the package to the two fields of
// k: each is the first store into an object its function just made (of
// a new slice, or nil), a reslice or an append of the field's own value,
// or one half of a swap of the two fields of one object; no field's
// address goes anywhere else, and no store writes the whole struct but
// into an object just made. The fields must be unexported, so that no
// other package stores to them.
func (q *Query) bufferStores(k bufferKey) buffers {
	if k.st.Field(k.f1).Exported() || k.st.Field(k.f2).Exported() {
		return buffers{}
	}
	var swaps []ssa.Instruction
	for _, fn := range q.fresh.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.FieldAddr:
					if !isBufferField(instr, k) {
						continue
					}
					for _, ref := range *instr.Referrers() {
						switch ref := ref.(type) {
						case *ssa.UnOp:
							if ref.Op != token.MUL {
								return buffers{}
							}
						case *ssa.Store:
							if ref.Val == ssa.Value(instr) {
								return buffers{}
							}
							switch bufferStore(ref, instr, k) {
							case storeSwap:
								swaps = append(swaps, ref)
							case storeBad:
								return buffers{}
							}
						case *ssa.DebugRef:
						default:
							return buffers{}
						}
					}
				case *ssa.Store:
					if types.Identical(instr.Val.Type().Underlying(), k.st) {
						if _, ok := instr.Addr.(*ssa.Alloc); !ok {
							return buffers{} // *p = T{...}: both fields at once
						}
					}
				}
			}
		}
	}
	return buffers{ok: len(swaps) > 0, swaps: swaps}
}

// isBufferField reports whether fa addresses one of k's fields.
func isBufferField(fa *ssa.FieldAddr, k bufferKey) bool {
	if fa.Field != k.f1 && fa.Field != k.f2 {
		return false
	}
	st, ok := structOf(fa)
	return ok && types.Identical(st, k.st)
}

type storeKind int

const (
	storeBad  storeKind = iota
	storeKeep           // keeps the two fields' arrays apart by itself
	storeSwap           // one half of a swap
)

// bufferStore classifies store, to field address fa of one of k's
// fields.
func bufferStore(store *ssa.Store, fa *ssa.FieldAddr, k bufferKey) storeKind {
	switch v := store.Val.(type) {
	case *ssa.Const:
		if v.IsNil() {
			return storeKeep
		}
	case *ssa.MakeSlice:
		if alloc, ok := fa.X.(*ssa.Alloc); ok && alloc.Parent() == store.Parent() {
			return storeKeep // a literal's field, a make of its own
		}
	case *ssa.Slice:
		if sameField(v.X, fa) {
			return storeKeep
		}
		if mk, ok := v.X.(*ssa.MakeSlice); ok {
			if alloc, ok := fa.X.(*ssa.Alloc); ok && alloc.Parent() == store.Parent() && mk.Parent() == store.Parent() {
				return storeKeep
			}
		}
	case *ssa.Call:
		if isBuiltinCall(v, "append") && len(v.Call.Args) > 0 && sameField(v.Call.Args[0], fa) {
			return storeKeep
		}
	case *ssa.UnOp:
		other, ok := v.X.(*ssa.FieldAddr)
		if !ok || v.Op != token.MUL || other.X != fa.X || other.Field == fa.Field || !isBufferField(other, k) {
			return storeBad
		}
		// The other half: the other field gets this field's value, in
		// the same block.
		for _, instr := range store.Block().Instrs {
			if s, ok := instr.(*ssa.Store); ok && s != store {
				if to, ok := s.Addr.(*ssa.FieldAddr); ok && to.X == fa.X && to.Field == other.Field {
					if from, ok := s.Val.(*ssa.UnOp); ok && from.Op == token.MUL {
						if f, ok := from.X.(*ssa.FieldAddr); ok && f.X == fa.X && f.Field == fa.Field {
							return storeSwap
						}
					}
				}
			}
		}
	}
	return storeBad
}

// sameField reports whether v is a load of the field that fa addresses,
// on the same object.
func sameField(v ssa.Value, fa *ssa.FieldAddr) bool {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	f, ok := load.X.(*ssa.FieldAddr)
	return ok && f.X == fa.X && f.Field == fa.Field
}

func isBuiltinCall(call *ssa.Call, name string) bool {
	b, ok := call.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == name
}
