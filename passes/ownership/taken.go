package ownership

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/passes/internal/loops"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// A goroutine that, holding a mutex, loads a field and resets it
//
//	s.mu.Lock()
//	victims := s.victims
//	s.victims = nil
//	s.mu.Unlock()
//	for _, b := range victims { for w := range b { w.send() } }
//
// has taken what the field held: the other goroutines reach those
// objects through the field, under the mutex, and the field no longer
// holds them. Its accesses through the taken value, in the function or
// in the callees it passes them to, are then as if it held the mutex:
// they race with unlocked accesses, not with those made holding it
// (etcd's watchable store, whose victim batches are sent to without
// s.mu and put back under it). The pointer analysis cannot see this:
// the objects taken are the ones the field will hold again.

// takeLocks returns the lockset held at the take (see isTake) that
// event x of trace t, an execution of acc, reaches its object through:
// the locks its goroutine holds, as owner, for that access. 0 when the
// access reaches it through no take.
func (q *Query) takeLocks(t *shb.Trace, x int32, acc pointer.Access) shb.LocksetID {
	take := q.takenBy(t, x, acc)
	if take == nil {
		return 0
	}
	// The take's execution in this goroutine: the last one before x.
	at := int32(-1)
	for _, ev := range t.EventsAt(take) {
		if ev < x && ev > at {
			at = ev
		}
	}
	if at < 0 {
		return 0
	}
	return t.Events[at].Locks
}

// takenExcludes reports whether a and b are kept apart by what one or
// both of them took out of a field under its mutex (see isTake): an
// access through a take holds, as owner, the locks held at the take, so
// it excludes the other access's locks; and two takers never hold one
// entry at once (the second finds it only after the first put it back,
// under the mutex: deregister(1) and deregister(2) of one map, which the
// pointer analysis takes to hold one handler), so their takes' locks
// exclude each other.
func (q *Query) takenExcludes(a, b Exec) bool {
	excludes := func(x, y shb.LocksetID) bool { return x != 0 && y != 0 && q.order.Exclusive(x, y) }
	ta := q.takeLocks(a.T, a.X, a.Acc)
	if excludes(ta, b.Locks) {
		return true
	}
	if ta == 0 && a.Locks == 0 {
		return false // nothing for b's take to exclude: no need to find it
	}
	tb := q.takeLocks(b.T, b.X, b.Acc)
	return excludes(tb, a.Locks) || excludes(ta, tb)
}

// takenBy returns the take (see isTake) whose value event x of trace t,
// an execution of acc, reaches its address from along its chain of
// calls; nil when there is none.
func (q *Query) takenBy(t *shb.Trace, x int32, acc pointer.Access) *ssa.UnOp {
	k := touchKey{t, x, acc.Instr, acc.Write}
	if take, ok := q.takes[k]; ok {
		return take
	}
	var take *ssa.UnOp
	if addr := accessedAddr(acc); addr != nil && acc.Imported == nil {
		if frames, ok := t.Frames(x); ok && len(frames) > 0 && frames[len(frames)-1].Fn == acc.Instr.Parent() {
			d := &derivation{q: q, frames: frames, seen: make(map[derivedKey]bool)}
			take, _ = d.from(addr, len(frames)-1)
		}
	}
	if q.takes == nil {
		q.takes = make(map[touchKey]*ssa.UnOp)
	}
	q.takes[k] = take
	return take
}

// derivation follows a value back to the take it is reached from, by
// fields, elements, loads, range iteration and the variables a
// function fills with it, and from a parameter or free variable to
// what the call of the chain gives it.
type derivation struct {
	q      *Query
	frames []pointer.Frame
	seen   map[derivedKey]bool
	steps  int
	// stop, when set, replaces isTake: the loads a derivation ends at.
	stop func(*ssa.UnOp) bool
}

type derivedKey struct {
	v ssa.Value
	k int
}

// maxDerivationSteps bounds the values a derivation visits.
const maxDerivationSteps = 200

// from returns the take v, a value of frame k's function, is reached
// from; ok is false when v is reached from anything else. A value met
// again on a cycle (a loop's phi) adds nothing: from returns nil, true.
func (d *derivation) from(v ssa.Value, k int) (take *ssa.UnOp, ok bool) {
	key := derivedKey{v, k}
	if d.seen[key] {
		return nil, true
	}
	d.seen[key] = true
	if d.steps++; d.steps > maxDerivationSteps {
		return nil, false
	}
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return nil, false
		}
		if d.stop != nil && d.stop(v) || d.stop == nil && d.q.isTake(v) {
			return v, true
		}
		// The pointer an element popped off a slice held (x := s[n];
		// s = s[:n]): the object it points to is taken, not the slot,
		// which a later append under the mutex writes again.
		if ia, isElem := v.X.(*ssa.IndexAddr); isElem && d.stop == nil {
			if load, isLoad := ia.X.(*ssa.UnOp); isLoad && d.q.pops(load, ia.Index) {
				return load, true
			}
		}
		return d.from(v.X, k)
	case *ssa.FieldAddr:
		return d.from(v.X, k)
	case *ssa.IndexAddr:
		return d.from(v.X, k)
	case *ssa.Field:
		return d.from(v.X, k)
	case *ssa.Index:
		return d.from(v.X, k)
	case *ssa.Slice:
		return d.from(v.X, k)
	case *ssa.Lookup:
		if load, ok := v.X.(*ssa.UnOp); ok && d.stop == nil && d.q.deletes(load, v.Index) {
			return load, true
		}
		return d.from(v.X, k)
	case *ssa.Range:
		return d.from(v.X, k)
	case *ssa.ChangeType:
		return d.from(v.X, k)
	case *ssa.MakeInterface:
		return d.from(v.X, k)
	case *ssa.TypeAssert:
		return d.from(v.X, k)
	case *ssa.Extract:
		switch tu := v.Tuple.(type) {
		case *ssa.Next:
			return d.from(tu.Iter, k)
		case *ssa.Lookup, *ssa.TypeAssert:
			return d.from(tu, k)
		}
	case *ssa.Phi:
		return d.all(v.Edges, k)
	case *ssa.Call:
		if b, isBuiltin := v.Call.Value.(*ssa.Builtin); isBuiltin && b.Name() == "append" {
			return d.all(v.Call.Args, k) // a filtered copy: ne = append(ne, wr.Events[i])
		}
	case *ssa.MakeSlice:
		return nil, true // holds what is appended to it

	case *ssa.Alloc:
		vals, ok := storedInto(v)
		if !ok {
			return nil, false
		}
		return d.all(vals, k)
	case *ssa.Parameter:
		if k == 0 || d.frames[k].Site == nil {
			return nil, false
		}
		i := slices.Index(d.frames[k].Fn.Params, v)
		args := pointer.ParamArgs(d.frames[k].Site.Common())
		if i < 0 || len(args) != len(d.frames[k].Fn.Params) {
			return nil, false
		}
		return d.from(args[i], k-1)
	case *ssa.FreeVar:
		i := slices.Index(v.Parent().FreeVars, v)
		if mc, j := d.closure(k); mc != nil && i >= 0 {
			return d.from(mc.Bindings[i], j)
		}
		return nil, false
	}
	return nil, false
}

// all returns the one take every value of vs that carries pointers is
// reached from; a nil constant adds nothing.
func (d *derivation) all(vs []ssa.Value, k int) (take *ssa.UnOp, ok bool) {
	for _, v := range vs {
		if c, isConst := v.(*ssa.Const); isConst && c.IsNil() {
			continue
		}
		t, ok := d.from(v, k)
		if !ok || t != nil && take != nil && t != take {
			return nil, false
		}
		if t != nil {
			take = t
		}
	}
	return take, true
}

// storedInto returns the values that a function stores into the local
// variable cell, or into its fields and elements, that carry pointers
// (a composite literal: WatchResponse{Events: eb.evs, Revision: rev});
// false when the cell escapes otherwise.
func storedInto(cell *ssa.Alloc) ([]ssa.Value, bool) {
	var vals []ssa.Value
	var visit func(addr ssa.Value) bool
	visit = func(addr ssa.Value) bool {
		for _, r := range *addr.Referrers() {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Addr != addr {
					return false // the cell itself is stored
				}
				if !pointerFree(r.Val.Type()) {
					vals = append(vals, r.Val)
				}
			case *ssa.FieldAddr:
				if !visit(r) {
					return false
				}
			case *ssa.IndexAddr:
				if !visit(r) {
					return false
				}
			case *ssa.UnOp:
				if r.Op != token.MUL {
					return false
				}
			case *ssa.MakeClosure:
				if !readOnlyCapture(r, cell) {
					return false
				}
			case *ssa.Slice:
				if !appended(r) {
					return false
				}
			case *ssa.DebugRef:
			default:
				return false
			}
		}
		return true
	}
	ok := visit(cell)
	return vals, ok
}

// appended reports whether v is only appended: the varargs of
// append(ne, x).
func appended(v ssa.Value) bool {
	for _, r := range *v.Referrers() {
		call, ok := r.(*ssa.Call)
		if !ok {
			return false
		}
		if b, ok := call.Call.Value.(*ssa.Builtin); !ok || b.Name() != "append" {
			return false
		}
	}
	return true
}

// readOnlyCapture reports whether the closure mc only reads the
// variable cell that it captures, or its fields and elements.
func readOnlyCapture(mc *ssa.MakeClosure, cell ssa.Value) bool {
	fn := mc.Fn.(*ssa.Function)
	for i, b := range mc.Bindings {
		if b == cell && !readsOnly(fn.FreeVars[i]) {
			return false
		}
	}
	return true
}

// readsOnly reports whether the referrers of address v only load from
// it, or from its fields and elements.
func readsOnly(v ssa.Value) bool {
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.FieldAddr:
			if !readsOnly(r) {
				return false
			}
		case *ssa.IndexAddr:
			if !readsOnly(r) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// pointerFree reports whether values of type t carry no pointer: a
// number, a bool, a string (immutable).
func pointerFree(t types.Type) bool {
	_, ok := t.Underlying().(*types.Basic)
	return ok
}

// closure returns the closure that the call of frame k calls, and the
// frame whose function made it: called there, passed there to a
// function of another package (verify.Verify(func() ...)), or given to
// the caller by its own caller (a local helper that calls its argument).
func (d *derivation) closure(k int) (*ssa.MakeClosure, int) {
	if k == 0 || d.frames[k].Site == nil {
		return nil, -1
	}
	call := d.frames[k].Site.Common()
	for _, v := range append([]ssa.Value{call.Value}, call.Args...) {
		for j := k - 1; j >= 0; {
			switch x := v.(type) {
			case *ssa.ChangeType:
				v = x.X // a named function type: verify.VerifyFunc(func() ...)
				continue
			case *ssa.MakeClosure:
				if x.Fn == d.frames[k].Fn {
					return x, j
				}
			case *ssa.Parameter:
				if i := slices.Index(d.frames[j].Fn.Params, x); i >= 0 && j > 0 && d.frames[j].Site != nil {
					if args := pointer.ParamArgs(d.frames[j].Site.Common()); len(args) == len(d.frames[j].Fn.Params) {
						v, j = args[i], j-1
						continue
					}
				}
			}
			break
		}
	}
	return nil, -1
}

// isTake reports whether load reads a field (or package variable) that
// the same block then resets, to nil or to a value made there, holding
// a mutex (not only for reading) from the load through the reset: the
// loader takes what the field held.
func (q *Query) isTake(load *ssa.UnOp) bool {
	if v, ok := q.takeLoads[load]; ok {
		return v
	}
	v := q.resets(load)
	if q.takeLoads == nil {
		q.takeLoads = make(map[*ssa.UnOp]bool)
	}
	q.takeLoads[load] = v
	return v
}

// resets reports whether load is followed in its block, the mutex held
// all along, by a store that empties the variable it loaded (see
// isTake).
func (q *Query) resets(load *ssa.UnOp) bool {
	return q.takesEntry(load, func(instr ssa.Instruction) bool {
		st, ok := instr.(*ssa.Store)
		return ok && sameVariable(st.Addr, load.X) && emptied(st.Val)
	})
}

// deletes reports whether load, a load of a map field holding a mutex,
// is followed in its block, the mutex held all along, by delete of key
// from the same field: the lookup of key in the value loaded takes the
// entry (a handler deregistered, an idle connection checked out; see
// "Taking a field under its mutex" in the package documentation).
func (q *Query) deletes(load *ssa.UnOp, key ssa.Value) bool {
	return q.takesEntry(load, func(instr ssa.Instruction) bool {
		call, ok := instr.(*ssa.Call)
		if !ok {
			return false
		}
		b, isBuiltin := call.Call.Value.(*ssa.Builtin)
		if !isBuiltin || b.Name() != "delete" || call.Call.Args[1] != key {
			return false
		}
		m, ok := call.Call.Args[0].(*ssa.UnOp)
		return ok && m.Op == token.MUL && sameVariable(m.X, load.X)
	})
}

// pops reports whether load, a load of a slice field of pointers
// holding a mutex, is followed in its block, the mutex held all along,
// by a store into the same field of the value loaded without the
// element at index: its last one (s[:i] where the element is s[i]) or
// its first (s[1:] where the element is s[0]). The element read at
// index is taken (a free list, a queue).
func (q *Query) pops(load *ssa.UnOp, index ssa.Value) bool {
	elems, ok := load.Type().Underlying().(*types.Slice)
	if !ok {
		return false
	}
	if _, ok := elems.Elem().Underlying().(*types.Pointer); !ok {
		return false // a struct element is the slot itself
	}
	return q.takesEntry(load, func(instr ssa.Instruction) bool {
		st, ok := instr.(*ssa.Store)
		if !ok || !sameVariable(st.Addr, load.X) {
			return false
		}
		sl, ok := st.Val.(*ssa.Slice)
		if !ok || !sameLoad(load, sl.X) || sl.Max != nil {
			return false
		}
		first, isConst := loops.IntConst(index)
		low, lowConst := loops.IntConst(sl.Low)
		return sl.Low == nil && sl.High == index ||
			isConst && first == 0 && lowConst && low == 1 && sl.High == nil
	})
}

// takesEntry reports whether load reads a field or package variable
// holding a mutex (not only for reading) that stays held in load's
// block up to an instruction that removes reports true for.
func (q *Query) takesEntry(load *ssa.UnOp, removes func(ssa.Instruction) bool) bool {
	b := load.Block()
	if b == nil || load.Op != token.MUL {
		return false
	}
	locks := q.locks.Func(load.Parent())
	held := writeLocks(locks.Before(load))
	if len(held) == 0 {
		return false
	}
	i := slices.Index(b.Instrs, ssa.Instruction(load))
	for _, instr := range b.Instrs[i+1:] {
		held = slices.DeleteFunc(held, func(k string) bool { return !slices.Contains(writeLocks(locks.Before(instr)), k) })
		if len(held) == 0 {
			return false
		}
		if removes(instr) {
			return true
		}
	}
	return false
}

// sameLoad reports whether v is load, or a load of the same variable
// later in its block with no store to it between: the same value
// (p.free[:n] loads p.free again).
func sameLoad(load *ssa.UnOp, v ssa.Value) bool {
	if v == ssa.Value(load) {
		return true
	}
	again, ok := v.(*ssa.UnOp)
	if !ok || again.Op != token.MUL || again.Block() != load.Block() || !sameVariable(again.X, load.X) {
		return false
	}
	instrs := load.Block().Instrs
	i, j := slices.Index(instrs, ssa.Instruction(load)), slices.Index(instrs, ssa.Instruction(again))
	if j < i {
		return false
	}
	for _, instr := range instrs[i:j] {
		if st, ok := instr.(*ssa.Store); ok && sameVariable(st.Addr, load.X) {
			return false
		}
	}
	return true
}

// writeLocks returns the keys of the mutexes s holds for writing.
func writeLocks(s lockset.Set) []string {
	var keys []string
	for _, h := range s {
		if !h.Read {
			keys = append(keys, h.Key.String())
		}
	}
	return keys
}

// sameVariable reports whether addresses a and b are the same package
// variable, or the same field of one pointer value (a receiver that a
// function literal captures is one value at each load: see sameBase).
func sameVariable(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	fa, ok1 := a.(*ssa.FieldAddr)
	fb, ok2 := b.(*ssa.FieldAddr)
	return ok1 && ok2 && sameBase(fa.X, fb.X) && fa.Field == fb.Field
}

// emptied reports whether v, stored into the field taken, leaves none
// of what it held: nil, or something made anew.
func emptied(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Const:
		return v.IsNil()
	case *ssa.MakeMap, *ssa.MakeSlice, *ssa.MakeChan:
		return true
	case *ssa.Alloc:
		return v.Heap
	}
	return false
}
