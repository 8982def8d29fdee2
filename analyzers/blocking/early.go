package blocking

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// sendBeforeReceivers reports a send that blocks forever because its
// goroutine makes it before any goroutine that receives from the
// channel is started, with the buffer already full: every receive of
// the channel is in a goroutine that t starts after the send, or in t
// after it ("ch <- x; go consume(ch)" on an unbuffered channel, or a
// second send before the consumer starts on a buffer of one).
func (c *checker) sendBeforeReceivers(t *shb.Trace, ev *shb.Event, mc *ssa.MakeChan, objs []*pointer.Object) bool {
	if ev.Loop >= 0 || ev.Select {
		return false
	}
	size, ok := bufferSize(mc)
	if !ok || c.unknownOp(mc, shb.Recv) {
		return false
	}
	if c.receivedOffTrace(objs) {
		return false
	}
	// The sends of t before this one fill the buffer. The tests run one
	// after the other in one trace, each with its own objects: only the
	// operations of the send's run count, and the goroutines it starts.
	run := t.Run(ev.ID)
	var filled []*shb.Event
	var first *shb.Trace // a receiver, for the message
	for _, u := range c.hb.Traces {
		var spawn int32 = -1 // where t starts u, when it does
		if u != t {
			var ok bool
			if spawn, ok = spawnedBy(u, t); ok && t.Run(spawn) != run {
				continue
			}
		}
		for i := range u.Events {
			e := &u.Events[i]
			if e.Kind != shb.Recv && e.Kind != shb.Send || !c.sameChannel(u, e, objs) {
				continue
			}
			switch {
			case u == t && t.Run(e.ID) != run:
			case e.Kind == shb.Send && u == t && e.ID < ev.ID:
				if e.Loop >= 0 || e.Select {
					return false
				}
				filled = append(filled, e)
			case e.Kind == shb.Recv && u == t:
				if e.ID < ev.ID || e.Loop >= 0 {
					return false
				}
			case e.Kind == shb.Recv:
				if spawn <= ev.ID {
					return false // started before the send, or not by t
				}
				if first == nil {
					first = u
				}
			}
		}
	}
	if first == nil || int64(len(filled)) < size {
		return false
	}
	send := ev.Instr.(*ssa.Send)
	buffer := "unbuffered"
	if size > 0 {
		buffer = fmt.Sprintf("its buffer of %d already full after the send at %s", size, c.pos(filled[len(filled)-1].Instr.Pos()))
	}
	c.report(send, send.Pos(), slices.Concat(c.startedAt(t), c.madeAt(mc), c.related(first.Origin.Site, "the receiver is started here, after the send")),
		"send blocks forever: %s sends on %s (made at %s, %s) before it starts any goroutine that receives from it (the first at %s)",
		c.goroutine(t), c.chanName(send.Chan), c.pos(mc.Pos()), buffer, c.pos(first.Origin.Site))
	return true
}

// bufferSize returns the constant capacity a make gives its channel.
func bufferSize(mc *ssa.MakeChan) (int64, bool) {
	k, ok := mc.Size.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(k.Value)
}

// sameChannel reports whether event e of u operates on one of objs.
func (c *checker) sameChannel(u *shb.Trace, e *shb.Event, objs []*pointer.Object) bool {
	for _, o := range c.channelsOf(u, e) {
		if slices.Contains(objs, o) {
			return true
		}
	}
	return false
}

// spawnedBy returns the event of t that starts u, directly or through
// u's ancestors, and whether there is one.
func spawnedBy(u, t *shb.Trace) (int32, bool) {
	for o := u.Origin; o != nil; o = o.Parent {
		for i := range t.Events {
			e := &t.Events[i]
			if e.Kind == shb.Spawn && slices.Contains(e.Spawned, o) {
				return e.ID, true
			}
		}
	}
	return -1, false
}

// receivedOffTrace reports whether a function that no goroutine of the
// package's programs reaches (one only another package calls) receives
// from one of objs: it may run at any time.
func (c *checker) receivedOffTrace(objs []*pointer.Object) bool {
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
						if slices.Contains(objs, l.Obj) {
							return true
						}
					}
				}
			}
		}
	}
	return false
}
