package ownership

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// A goroutine that fills an object and then, holding a mutex, stores it
// into a field the mutex guards (a registry's map, a current value)
//
//	p := startPeer(t, id) // writes p's fields, starts p's goroutines
//	t.mu.Lock()
//	t.peers[id] = p
//	t.mu.Unlock()
//
// publishes it there: a goroutine that loads it from that field holding
// the mutex does so after the Unlock that ends the store's critical
// section, and every write the filler made before the store happens
// before what the loader does with the object, locked or not. The
// pointer analysis cannot show this where the object reached other
// goroutines before (the goroutines startPeer starts on p), so the
// object is not "not yet published" (see fresh.go); but those
// goroutines are paired with the filler's writes by the other rules,
// and the loader reaches it only through the field.

// publishedUnder reports whether w, an execution of an access to obj,
// comes before its goroutine stores obj into a field holding a mutex,
// and r, an execution of the other access, reaches obj only through a
// value loaded from that field holding a mutex that excludes the
// store's: the store, and w before it, happen before r.
func (q *Query) publishedUnder(obj *pointer.Object, w, r Exec) bool {
	load, at := q.containerLoad(r)
	if load == nil {
		return false
	}
	field := loadedFieldVar(load)
	held := r.T.Events[at].Locks
	for _, ev := range q.containerStores(w.T) {
		if ev <= w.X {
			continue
		}
		e := &w.T.Events[ev]
		f, val := storedField(e.Instr)
		if mi, ok := val.(*ssa.MakeInterface); ok {
			val = mi.X // what the interface holds
		}
		if f != field || !entry(val) || !q.order.Exclusive(e.Locks, held) {
			continue
		}
		if slices.ContainsFunc(q.ptr.PointsToIn(w.T.Origin, val), func(l pointer.Location) bool { return l.Obj == obj }) {
			return true
		}
	}
	return false
}

// entry reports whether v, stored into a field (or boxed in the
// interface stored), is an entry that the store puts there: a pointer to
// a struct. A slice or a map stored back (l.lines = append(l.lines, s))
// may be the array or the map the field held already, which readers
// reached before the store.
func entry(v ssa.Value) bool {
	if t, ok := v.Type().Underlying().(*types.Pointer); ok {
		_, ok := t.Elem().Underlying().(*types.Struct)
		return ok
	}
	return false
}

// containerLoad returns the load of a field, made holding a lock of the
// function's own, that execution r of an access reaches its object
// through (see derivation), and the event of its last execution before
// r in r's trace; nil when there is none.
func (q *Query) containerLoad(r Exec) (*ssa.UnOp, int32) {
	addr := accessedAddr(r.Acc)
	if addr == nil || r.Acc.Imported != nil {
		return nil, -1
	}
	frames, ok := r.T.Frames(r.X)
	if !ok || len(frames) == 0 || frames[len(frames)-1].Fn != r.Acc.Instr.Parent() {
		return nil, -1
	}
	d := &derivation{q: q, frames: frames, seen: make(map[derivedKey]bool), stop: func(u *ssa.UnOp) bool {
		return loadedFieldVar(u) != nil && len(q.locks.Func(u.Parent()).Before(u)) > 0
	}}
	load, _ := d.from(addr, len(frames)-1)
	if load == nil {
		return nil, -1
	}
	at := int32(-1)
	for _, ev := range r.T.EventsAt(load) {
		if ev < r.X && ev > at {
			at = ev
		}
	}
	if at < 0 || r.T.Events[at].Locks == 0 {
		return nil, -1
	}
	return load, at
}

// containerStores returns the events of t that store a value into a
// field (s.cur = c) or into the map a field holds (t.peers[id] = p)
// holding a lock: the stores that may publish an object (see
// publishedUnder), found once per trace.
func (q *Query) containerStores(t *shb.Trace) []int32 {
	if evs, ok := q.published[t]; ok {
		return evs
	}
	var evs []int32
	for i := range t.Events {
		e := &t.Events[i]
		if e.Kind != shb.Access || e.Locks == 0 || e.Imported != 0 {
			continue
		}
		if f, _ := storedField(e.Instr); f != nil {
			evs = append(evs, int32(i))
		}
	}
	if q.published == nil {
		q.published = make(map[*shb.Trace][]int32)
	}
	q.published[t] = evs
	return evs
}

// storedField returns the field that instr stores a pointer-like value
// into, directly or as an entry of the map the field holds, and the
// value stored; nil when instr is neither.
func storedField(instr ssa.Instruction) (*types.Var, ssa.Value) {
	switch instr := instr.(type) {
	case *ssa.Store:
		if f := lockset.FieldOf(instr.Addr); f != nil {
			return f, instr.Val
		}
	case *ssa.MapUpdate:
		if load, ok := instr.Map.(*ssa.UnOp); ok {
			return loadedFieldVar(load), instr.Value
		}
	}
	return nil, nil
}

// loadedFieldVar returns the field that load reads (*&x.f), or nil.
func loadedFieldVar(load *ssa.UnOp) *types.Var {
	if load.Op != token.MUL {
		return nil
	}
	return lockset.FieldOf(load.X)
}
