package ownership

import (
	"go/token"
	"slices"

	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// The future pattern: a leader fills an object and closes a channel
// held in one of its fields (close(cy.ready)); a joiner that found the
// object waits on that field's channel and then reads the object
// through the same value (<-cy.ready; cy.mfs). The joiner's value may
// be any of the objects that leaders made, and its receive names them
// all, so no edge links it to one leader's close. But a joiner that
// reads this object's fields through the value it received from waited
// on this object's channel, and that channel is only ever closed, by
// this leader after its write: the close happens before the receive
// that returns because of it, and so before the read.
//
// When leaders and joiners run the same code (every caller of Gather
// may lead or join), the channel has a close in every goroutine. It
// still orders the pair when the leader's close is on the value it
// wrote through and follows the write on every path: a second close of
// one channel panics, so no one else closes that one, and a goroutine
// that closed the channel of the value it reads through led that
// object itself. The joiner's value may come into the function of its
// read from a closure's binding or a parameter (the closure that
// releaseFunc(cy) returns reads cy.done when it runs): then the wait
// is where the value enters, at every place the closure is made or the
// function is called.

// readyClosed reports whether event x of trace t (access a) and event y
// of trace u (access b) on obj are ordered so: b reads a field of obj
// through a value v after a receive from v's channel field f that
// dominates it, and t closes obj's field f after x, the only send or
// close anywhere on that channel (or one of t's closes, the one after x
// following x on every path).
func (q *Query) readyClosed(obj *pointer.Object, a pointer.Access, t *shb.Trace, x int32, b pointer.Access, u *shb.Trace, y int32, perIter bool) bool {
	if b.Write {
		return false
	}
	fa, ok := accessedAddr(b).(*ssa.FieldAddr)
	if !ok {
		return false
	}
	w, ok := q.waited[b.Instr]
	if !ok {
		w.field, w.ok = q.waitedVia(fa.X, b.Instr, 0)
		if q.waited == nil {
			q.waited = make(map[ssa.Instruction]waited)
		}
		q.waited[b.Instr] = w
	}
	if !w.ok {
		return false
	}
	field := w.field
	last := t.Last(x, perIter)
	ch, closed := int32(-1), int32(-1)
	for id := last + 1; id < int32(len(t.Events)); id++ {
		ev := &t.Events[id]
		if ev.Kind != shb.Close || ev.Obj < 0 || !q.closesFieldOf(t, id, obj, field) {
			continue
		}
		ch, closed = ev.Obj, id
		break
	}
	if ch < 0 {
		return false
	}
	// The channel is only closed, and only by t after x: the receive
	// returned because of that close. A close of t's before x counts
	// too when the close after x follows x on every path (the close on
	// a panic path, in a deferred function, and the close at the end):
	// a channel is closed once, a second close panics.
	always := a.Imported == nil && postDominates(t.Events[closed].Instr, a.Instr)
	own := always && closesOwn(t.Events[closed].Instr, a)
	for _, op := range q.opsOn(ch) {
		if op.t.Events[op.id].Kind == shb.Send {
			return false
		}
		if !own && (op.t != t || op.id <= last && !always) {
			return false
		}
	}
	return true
}

// closesOwn reports whether close, a close(v.f) of a's function, is on
// the value a accesses a field of: the same object at run time.
func closesOwn(close ssa.Instruction, a pointer.Access) bool {
	fa, ok := accessedAddr(a).(*ssa.FieldAddr)
	if !ok {
		return false
	}
	ch, ok := closedField(close)
	return ok && slices.Contains(sameValues(fa.X), ch.X)
}

// sameValues returns v and, when v is a load of a local variable that
// a closure captures (and so lives in memory) stored once, every load
// of it: the same value.
func sameValues(v ssa.Value) []ssa.Value {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL || storedOnceInto(ld.X) == nil {
		return []ssa.Value{v}
	}
	var out []ssa.Value
	for _, r := range *ld.X.Referrers() {
		if l, ok := r.(*ssa.UnOp); ok && l.Op == token.MUL && l.X == ld.X {
			out = append(out, l)
		}
	}
	return out
}

// closedField returns the field address that close(*fa) loads its
// channel from.
func closedField(instr ssa.Instruction) (*ssa.FieldAddr, bool) {
	call, ok := instr.(*ssa.Call)
	if !ok || len(call.Call.Args) != 1 {
		return nil, false
	}
	if b, ok := call.Call.Value.(*ssa.Builtin); !ok || b.Name() != "close" {
		return nil, false
	}
	ld, ok := call.Call.Args[0].(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil, false
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	return fa, ok
}

// storedOnceInto returns the value of the one store into a local
// variable v that a closure captures, or nil.
func storedOnceInto(v ssa.Value) ssa.Value {
	if st := onlyStore(v); st != nil {
		return st.Val
	}
	return nil
}

// onlyStore returns the one store into a local variable v (an Alloc)
// whose address goes nowhere but to loads and closures, or nil.
func onlyStore(v ssa.Value) *ssa.Store {
	alloc, ok := v.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var store *ssa.Store
	for _, r := range *alloc.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != alloc || store != nil {
				return nil
			}
			store = r
		case *ssa.MakeClosure, *ssa.UnOp:
		default:
			return nil // its address goes elsewhere
		}
	}
	return store
}

// maxWaitedDepth bounds the closures and calls that waitedVia follows.
const maxWaitedDepth = 3

// waitedVia is waitedField through the ways base enters its function:
// for a free variable, at each place its closure is made, from the
// value bound there; for a parameter of an unexported function, at
// each call in the package, from the argument. Every one must wait for
// the same field.
func (q *Query) waitedVia(base ssa.Value, instr ssa.Instruction, depth int) (int, bool) {
	if f, ok := waitedField(base, instr); ok {
		return f, true
	}
	if depth >= maxWaitedDepth {
		return 0, false
	}
	type entry struct {
		v  ssa.Value
		at ssa.Instruction
	}
	var entries []entry
	switch base := base.(type) {
	case *ssa.UnOp:
		// A captured variable: the closure holds its address, and the
		// value is the one stored once into it.
		fv, ok := base.X.(*ssa.FreeVar)
		if !ok || base.Op != token.MUL {
			return 0, false
		}
		fn := fv.Parent()
		i := slices.Index(fn.FreeVars, fv)
		if fn.Parent() == nil || i < 0 {
			return 0, false
		}
		for _, b := range fn.Parent().Blocks {
			for _, in := range b.Instrs {
				if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn {
					v := storedOnceInto(mc.Bindings[i])
					if v == nil {
						return 0, false
					}
					entries = append(entries, entry{v, mc})
				}
			}
		}
	case *ssa.Parameter:
		fn := base.Parent()
		i := slices.Index(fn.Params, base)
		if fn.Object() == nil || fn.Object().Exported() || i < 0 {
			return 0, false // another package may call it
		}
		for _, site := range q.fresh.callsOf(fn) {
			_, args, ok := boundArgs(site, fn)
			if !ok {
				return 0, false
			}
			entries = append(entries, entry{args[i], site})
		}
	}
	field := -1
	for _, e := range entries {
		f, ok := q.waitedVia(e.v, e.at, depth+1)
		if !ok || field >= 0 && f != field {
			return 0, false
		}
		field = f
	}
	return field, field >= 0
}

// waited is what waitedField found for an access.
type waited struct {
	field int
	ok    bool
}

// chanOp is a send or close event.
type chanOp struct {
	t  *shb.Trace
	id int32
}

// opsOn returns the sends and closes of every trace on channel ch,
// indexed once for all.
func (q *Query) opsOn(ch int32) []chanOp {
	if q.chanOps == nil {
		q.chanOps = make(map[int32][]chanOp)
		for _, t := range q.hb.Traces {
			for i := range t.Events {
				ev := &t.Events[i]
				if ev.Obj >= 0 && (ev.Kind == shb.Send || ev.Kind == shb.Close) {
					q.chanOps[ev.Obj] = append(q.chanOps[ev.Obj], chanOp{t, ev.ID})
				}
			}
		}
	}
	return q.chanOps[ch]
}

// waitedField returns the field f of the struct that base points to
// such that a receive from base.f, or a close of it, dominates instr.
func waitedField(base ssa.Value, instr ssa.Instruction) (int, bool) {
	for _, v := range sameValues(base) {
		if f, ok := waitedFieldOf(v, instr); ok {
			return f, true
		}
	}
	return 0, false
}

func waitedFieldOf(base ssa.Value, instr ssa.Instruction) (int, bool) {
	refs := base.Referrers()
	if refs == nil {
		return 0, false
	}
	for _, r := range *refs {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.X != base {
			continue
		}
		for _, load := range *fa.Referrers() {
			ld, ok := load.(*ssa.UnOp)
			if !ok || ld.Op != token.MUL {
				continue
			}
			for _, use := range *ld.Referrers() {
				if recv, ok := use.(*ssa.UnOp); ok && recv.Op == token.ARROW && recv.X == ld && pointer.Dominates(recv, instr) {
					return fa.Field, true
				}
				// A goroutine that closed the channel filled the object.
				if ch, ok := closedField(use); ok && ch == fa && pointer.Dominates(use, instr) {
					return fa.Field, true
				}
			}
		}
	}
	return 0, false
}

// closesFieldOf reports whether close event id of t closes the channel
// at field of obj, and of obj alone, in the chain of calls the event
// was walked in.
func (q *Query) closesFieldOf(t *shb.Trace, id int32, obj *pointer.Object, field int) bool {
	call, ok := t.Events[id].Instr.(*ssa.Call)
	if !ok || len(call.Call.Args) != 1 {
		return false
	}
	ld, ok := call.Call.Args[0].(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	if !ok || fa.Field != field {
		return false
	}
	frames, ok := t.Frames(id)
	if !ok || len(frames) == 0 || frames[len(frames)-1].Fn != call.Parent() {
		return false
	}
	locs, ok := q.ptr.PointsToAlong(t.Origin, frames, fa.X)
	if !ok || len(locs) == 0 {
		return false
	}
	for _, l := range locs {
		if l.Obj != obj {
			return false
		}
	}
	return true
}
