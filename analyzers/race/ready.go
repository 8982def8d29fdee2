package race

import (
	"go/token"

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

// readyClosed reports whether event x of trace t (access a) and event y
// of trace u (access b) on obj are ordered so: b reads a field of obj
// through a value v after a receive from v's channel field f that
// dominates it, and t closes obj's field f after x, the only send or
// close anywhere on that channel (or one of t's closes, the one after x
// following x on every path).
func (c *checker) readyClosed(obj *pointer.Object, a pointer.Access, t *shb.Trace, x int32, b pointer.Access, u *shb.Trace, y int32, perIter bool) bool {
	if b.Write {
		return false
	}
	fa, ok := accessedAddr(b).(*ssa.FieldAddr)
	if !ok {
		return false
	}
	w, ok := c.waited[b.Instr]
	if !ok {
		w.field, w.ok = waitedField(fa.X, b.Instr)
		if c.waited == nil {
			c.waited = make(map[ssa.Instruction]waited)
		}
		c.waited[b.Instr] = w
	}
	if !w.ok {
		return false
	}
	field := w.field
	last := t.Last(x, perIter)
	ch, closed := int32(-1), int32(-1)
	for id := last + 1; id < int32(len(t.Events)); id++ {
		ev := &t.Events[id]
		if ev.Kind != shb.Close || ev.Obj < 0 || !c.closesFieldOf(t, id, obj, field) {
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
	for _, op := range c.opsOn(ch) {
		if op.t.Events[op.id].Kind == shb.Send || op.t != t || op.id <= last && !always {
			return false
		}
	}
	return true
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
func (c *checker) opsOn(ch int32) []chanOp {
	if c.chanOps == nil {
		c.chanOps = make(map[int32][]chanOp)
		for _, t := range c.hb.Traces {
			for i := range t.Events {
				ev := &t.Events[i]
				if ev.Obj >= 0 && (ev.Kind == shb.Send || ev.Kind == shb.Close) {
					c.chanOps[ev.Obj] = append(c.chanOps[ev.Obj], chanOp{t, ev.ID})
				}
			}
		}
	}
	return c.chanOps[ch]
}

// waitedField returns the field f of the struct that base points to
// such that a receive from base.f dominates instr.
func waitedField(base ssa.Value, instr ssa.Instruction) (int, bool) {
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
			}
		}
	}
	return 0, false
}

// closesFieldOf reports whether close event id of t closes the channel
// at field of obj, and of obj alone, in the chain of calls the event
// was walked in.
func (c *checker) closesFieldOf(t *shb.Trace, id int32, obj *pointer.Object, field int) bool {
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
	locs, ok := c.ptr.PointsToAlong(t.Origin, frames, fa.X)
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
