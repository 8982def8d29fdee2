package blocking

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// sendBeforeReceivers reports a send that blocks forever because its
// goroutine makes it before any goroutine that receives from the
// channel is started, with the buffer already full: every receive of
// the channel is in a goroutine that t starts after the send, or in t
// after it ("ch <- x; go consume(ch)" on an unbuffered channel, or a
// second send before the consumer starts on a buffer of one). When it
// does not, it may say why: a receiver that runs while the send waits,
// room in the buffer.
func (c *checker) sendBeforeReceivers(t *shb.Trace, ev *shb.Event, mc *ssa.MakeChan, objs []*pointer.Object) (bool, rules.Reason) {
	if ev.Loop >= 0 || ev.Select {
		return false, rules.None
	}
	size, ok := bufferSize(mc)
	if !ok || c.unknownOp(mc, shb.Recv) {
		return false, rules.None
	}
	if c.receivedOffTrace(objs) {
		return false, why(rules.Partner, "a receive from %s in code no goroutine of the package's programs reaches, which another package may call at any time", c.chanName(mc))
	}
	// The sends of t before this one fill the buffer. The tests run one
	// after the other in one trace, each with its own objects: only the
	// operations of the send's run count, and the goroutines it starts.
	run := t.Run(ev.ID)
	filled, last := 0, (*shb.Event)(nil) // the sends before, and the last of them
	var first *shb.Trace                 // a receiver, for the message
	for _, r := range c.chanEvents(objs) {
		u, e := r.t, &r.t.Events[r.id]
		var spawn int32 = -1 // where t starts u, when it does
		if u != t {
			var ok bool
			if spawn, ok = c.spawnedBy(u, t); ok && t.Run(spawn) != run {
				continue
			}
		}
		switch {
		case u == t && t.Run(e.ID) != run:
		case e.Kind == shb.Send && u == t && e.ID < ev.ID:
			if e.Loop >= 0 || e.Select {
				return false, rules.None
			}
			if last == nil || e.ID > last.ID {
				last = e
			}
			filled++
		case e.Kind == shb.Recv && u == t:
			if e.ID < ev.ID || e.Loop >= 0 {
				return false, rules.None
			}
		case e.Kind == shb.Recv:
			if spawn <= ev.ID {
				// Started before the send, or not by t.
				return false, c.partnerAt("the receive", u, instrPos(e.Instr))
			}
			if first == nil {
				first = u
			}
		}
	}
	if first == nil {
		return false, rules.None
	}
	if int64(filled) < size {
		if other := c.otherRunSend(t, ev, mc); other != nil && int64(filled)+1 >= size {
			return false, why(rules.RunObjects, "the send at %s is another test's, on the channel that test made at %s", c.pos(other.Instr.Pos()), c.pos(mc.Pos()))
		}
		return false, why(rules.Buffered, "%s (made at %s) has a buffer of %d, and %d sends come before this one", c.chanName(mc), c.pos(mc.Pos()), size, filled)
	}
	var recvFuncs []*ssa.Function // where the receives are
	for _, r := range c.chanEvents(objs) {
		if e := &r.t.Events[r.id]; e.Kind == shb.Recv && !slices.Contains(recvFuncs, e.Instr.Parent()) {
			recvFuncs = append(recvFuncs, e.Instr.Parent())
		}
	}
	if r := c.startedFlagReason(ev.Instr, recvFuncs); r.Rule != "" {
		return false, r
	}
	send := ev.Instr.(*ssa.Send)
	buffer := "unbuffered"
	if size > 0 {
		buffer = fmt.Sprintf("its buffer of %d already full after the send at %s", size, c.pos(last.Instr.Pos()))
	}
	c.report(kinds.SendBlocks, send, send.Pos(), slices.Concat(c.startedAt(t), c.madeAt(mc), c.related(first.Origin.Site, "the receiver is started here, after the send")),
		"send blocks forever: %s sends on %s (made at %s, %s) before it starts any goroutine that receives from it (the first at %s)",
		c.goroutine(t), c.chanName(send.Chan), c.pos(mc.Pos()), buffer, c.pos(first.Origin.Site))
	return true, rules.None
}

// otherRunSend returns, for -why, a plain send of t before event ev in
// another run (a test before this one) on a channel made where mc makes
// ev's: the tests run one after the other, each with its own objects.
func (c *checker) otherRunSend(t *shb.Trace, ev *shb.Event, mc *ssa.MakeChan) *shb.Event {
	if c.why == nil || t.Entries == nil {
		return nil
	}
	for i := range ev.ID {
		e := &t.Events[i]
		if e.Kind == shb.Send && !e.Select && t.Run(e.ID) != t.Run(ev.ID) && slices.ContainsFunc(c.channelsOf(t, e), func(o *pointer.Object) bool { return o.Site == ssa.Value(mc) }) {
			return e
		}
	}
	return nil
}

// bufferSize returns the constant capacity a make gives its channel.
func bufferSize(mc *ssa.MakeChan) (int64, bool) {
	k, ok := mc.Size.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(k.Value)
}

// evRef is an event of a trace.
type evRef struct {
	t  *shb.Trace
	id int32
}

// chanEvents returns the send and receive events of the traces on one of
// objs, in trace order; the index is made once.
func (c *checker) chanEvents(objs []*pointer.Object) []evRef {
	if c.byObj == nil {
		c.byObj = make(map[*pointer.Object][]evRef)
		for _, t := range c.hb.Traces {
			for i := range t.Events {
				e := &t.Events[i]
				if e.Kind != shb.Send && e.Kind != shb.Recv {
					continue
				}
				for _, o := range c.channelsOf(t, e) {
					c.byObj[o] = append(c.byObj[o], evRef{t, e.ID})
				}
			}
		}
	}
	var out []evRef
	seen := make(map[evRef]bool)
	for _, o := range objs {
		for _, r := range c.byObj[o] {
			if !seen[r] {
				seen[r] = true
				out = append(out, r)
			}
		}
	}
	return out
}

// spawnedBy returns the event of t that starts u, directly or through
// u's ancestors, and whether there is one.
func (c *checker) spawnedBy(u, t *shb.Trace) (int32, bool) {
	spawns, ok := c.spawnsIn[t]
	if !ok {
		spawns = make(map[*pointer.Origin]int32)
		for i := range t.Events {
			if e := &t.Events[i]; e.Kind == shb.Spawn {
				for _, o := range t.Spawned(e.ID) {
					if _, seen := spawns[o]; !seen {
						spawns[o] = e.ID
					}
				}
			}
		}
		if c.spawnsIn == nil {
			c.spawnsIn = make(map[*shb.Trace]map[*pointer.Origin]int32)
		}
		c.spawnsIn[t] = spawns
	}
	for o := u.Origin; o != nil; o = o.Parent {
		if id, ok := spawns[o]; ok {
			return id, true
		}
	}
	return -1, false
}

// receivedOffTrace reports whether a function that no goroutine of the
// package's programs reaches (one only another package calls) receives
// from one of objs: it may run at any time.
func (c *checker) receivedOffTrace(objs []*pointer.Object) bool {
	if c.offTrace == nil {
		c.offTrace = make(map[*pointer.Object]bool)
		for _, fn := range c.funcs {
			if len(c.ptr.OriginsOf(fn)) > 0 {
				continue
			}
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					var chans []ssa.Value
					switch x := instr.(type) {
					case *ssa.UnOp:
						if x.Op == token.ARROW {
							chans = append(chans, x.X)
						}
					case *ssa.Select:
						for _, st := range x.States {
							if st.Dir != types.SendOnly {
								chans = append(chans, st.Chan)
							}
						}
					}
					for _, ch := range chans {
						for _, l := range c.pointsToAnywhere(ch) {
							c.offTrace[l.Obj] = true
						}
					}
				}
			}
		}
	}
	return slices.ContainsFunc(objs, func(o *pointer.Object) bool { return c.offTrace[o] })
}
