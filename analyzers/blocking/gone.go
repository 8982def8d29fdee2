package blocking

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/analyzers/internal/blocks"
	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/runflag"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// A goroutine that serves a channel in a loop may leave the loop and
// return: on a stop signal, a cancelled context, or a value it
// received. A plain send on that channel that can come after it has no
// receiver any more and blocks forever:
//
//	func (n *node) run() {
//		for {
//			select {
//			case c := <-n.status:
//				c <- n.state
//			case <-n.stop:
//				return
//			}
//		}
//	}
//
//	func (n *node) Status() State { c := make(chan State); n.status <- c; return <-c }
//
// Status blocks forever when it comes after Stop. A send that happens
// before whatever stops the loop (the goroutine that stops it sends
// first) cannot.

// loopExit is a way out of a receiving loop: the return it reaches,
// and, when a receive on another channel starts it (case <-stop), that
// channel.
type loopExit struct {
	ret     *ssa.Return
	trigger ssa.Value // nil: the loop leaves on a value it received, or on no receive at all
}

// goneReceivers reports the plain sends on an unbuffered channel whose
// every receiver is a goroutine receiving in a loop that it may leave
// before the send.
func (c *checker) goneReceivers(s *sequelState) {
	if c.judged == nil {
		return
	}
	for _, u := range c.hb.Traces {
		// The library's API: a caller may use it wrongly, the program
		// need not. -why follows it to say so.
		library := u.Entries != nil
		if library && (c.why == nil || u.Origin.Root != pointer.EntriesRoot) {
			continue
		}
		for i := range u.Events {
			ev := &u.Events[i]
			if sel, ok := ev.Instr.(*ssa.Select); ok && ev.Kind == shb.Send && c.why.at(sel.Pos()) {
				c.guardedSend(u, sel)
				continue
			}
			send, ok := ev.Instr.(*ssa.Send)
			if !ok || ev.Kind != shb.Send || ev.Select || c.reportedForAll(send) || isNil(send.Chan) {
				continue
			}
			explain := c.why.at(send.Pos())
			if library && !explain {
				continue
			}
			mc, objs, ok := c.allJudged(u, send.Chan, c.judged)
			if !ok || c.unknownOp(mc, shb.Recv) || blocks.OnCycle(mc.Block()) {
				continue // a channel made in a loop is one iteration's
			}
			q := ""
			if explain {
				q = fmt.Sprintf("send blocks forever once its receiver has returned? %s sends on %s (made at %s), whose receivers may leave their loop", c.goroutine(u), c.chanName(send.Chan), c.pos(mc.Pos()))
			}
			size := "unbuffered"
			once := false // a receiver that receives once and returns leaves it blocked too
			if !c.unbuffered(mc) {
				n, ok := overfills(send, mc)
				if !ok {
					if explain {
						r := why(rules.Buffered, "%s has a buffer", c.chanName(send.Chan))
						if n, counted := constTrips(send.Block()); counted {
							r = why(rules.Buffered, "the loop around it sends %d times, which the buffer of %s holds", n, c.chanName(send.Chan))
						}
						c.why.note(send.Pos(), q, r)
					}
					continue
				}
				capacity := mc.Size.(*ssa.Const).Int64()
				size = fmt.Sprintf("a buffer of %d, and the loop around it sends %d times", capacity, n)
				once = n > capacity+1
			}
			// The receivers of these very channels: a claim about order
			// cannot stand on another instance's (see chanKey).
			var receivers []place
			untraced := false
			for _, obj := range objs {
				k := chanKey(obj)
				untraced = untraced || s.untraced[k][shb.Recv]
				for _, p := range s.byChan[k] {
					if p.t.Events[p.ev].Kind == shb.Recv && !slices.Contains(receivers, p) && s.sameChannel(p, objs) {
						receivers = append(receivers, p)
					}
				}
			}
			if untraced || len(receivers) == 0 {
				if untraced && len(receivers) > 0 && explain {
					c.why.note(send.Pos(), q, why(rules.Partner, "a receive from %s in code no goroutine of the package's programs reaches, which another package may call at any time", c.chanName(send.Chan)))
				}
				continue
			}
			if n, m, ok := c.countedSends(s, u, send, mc, objs, receivers); ok {
				if explain {
					if n < 0 {
						c.why.note(send.Pos(), q, why(rules.Counted, "the goroutines a counting loop starts each send once, and a loop with the same bound receives once per goroutine with no other way out"))
					} else {
						c.why.note(send.Pos(), q, why(rules.Counted, "%d goroutines each send once, and the receiving loop receives %d times with no other way out", n, m))
					}
				}
				continue
			}
			var left place
			var exit loopExit
			all := true
			for _, r := range receivers {
				x, ok, stays := c.mayLeaveBefore(s, r, objs, u, ev.ID, once)
				if !ok {
					if explain && stays.Rule != "" {
						c.why.note(send.Pos(), q, stays)
					}
					all = false
					break
				}
				if left.t == nil {
					left, exit = r, x
				}
			}
			if !all {
				continue
			}
			if exit.trigger != nil {
				if st := c.stoppedFlag(send, exit.trigger); st != nil {
					c.why.note(send.Pos(), q, why(rules.RunningFlag, "the send runs only where %s reads true, holding the mutex every store of it holds, and the store of false at %s follows the send on %s that makes the loop leave", runflag.Field(st.Addr).Name(), c.pos(st.Pos()), c.chanName(exit.trigger)))
					continue
				}
			}
			if library {
				c.why.note(send.Pos(), q, why(rules.LibraryCallers, "%s is the library's API: whether its callers send after what ends the receiving loop is theirs to know", c.goroutine(u)))
				continue
			}
			c.blockedIn.Add(send.Pos(), u)
			for _, r := range receivers {
				if !slices.Contains(s.leftBy[send.Pos()], r.t) {
					s.leftBy[send.Pos()] = append(s.leftBy[send.Pos()], r.t)
				}
			}
			retPos := returnPos(exit.ret)
			why := "on a value it received"
			if exit.trigger != nil {
				why = "when it receives from " + c.chanName(exit.trigger)
			}
			leaves := fmt.Sprintf("receives in a loop that it may leave (%s) and return at %s", why, c.pos(retPos))
			if !blocks.OnCycle(left.t.Events[left.ev].Instr.Block()) {
				leaves = fmt.Sprintf("receives once and may then return, at %s", c.pos(retPos))
			}
			rel := slices.Concat(c.startedAt(u), c.madeAt(mc), c.related(retPos, "the receiving goroutine returns here"))
			c.report(kinds.SendBlocks, send, send.Pos(), rel, "send blocks forever once its receiver has returned: %s sends on %s (made at %s, %s), whose only receiver, %s, %s; a send after that has no receiver: select on a done channel too",
				c.goroutine(u), c.chanName(send.Chan), c.pos(mc.Pos()), size, c.goroutine(left.t), leaves)
		}
	}
}

// guardedSend explains, for -why, a send of u's goroutine that is a
// case of the select sel: it is no candidate for a receiver that left
// when the select has another way out.
func (c *checker) guardedSend(u *shb.Trace, sel *ssa.Select) {
	q := fmt.Sprintf("send blocks forever once its receiver has returned? %s sends in a select", c.goroutine(u))
	if !sel.Blocking {
		c.why.note(sel.Pos(), q, why(rules.OtherCase, "the select has a default case"))
		return
	}
	for _, st := range sel.States {
		if st.Dir != types.SendOnly {
			c.why.note(sel.Pos(), q, why(rules.OtherCase, "the select has another case, a receive from %s", c.chanName(st.Chan)))
			return
		}
	}
}

// overfills reports whether send, on the channel mc makes with a
// constant buffer, is in a loop that runs a constant number of times,
// more than the buffer holds (for i := 0; i < 8; i++ { ch <- v } on a
// buffer of 6), and returns that number: once the receiver has left,
// the sends past the buffer block.
func overfills(send *ssa.Send, mc *ssa.MakeChan) (int64, bool) {
	k, ok := mc.Size.(*ssa.Const)
	if !ok || k.Value == nil {
		return 0, false
	}
	n, ok := constTrips(send.Block())
	return n, ok && n > k.Int64()
}

// constTrips returns how many times the innermost counted loop around
// block b runs, when it counts from a constant to a constant by one:
// for i := lo; i < hi; i++.
func constTrips(b *ssa.BasicBlock) (int64, bool) {
	_, n, ok := countingLoop(b)
	return n, ok
}

// countingLoop returns the header of the counting loop around b (for i
// := lo; i < hi; i++, constants lo and hi) and how many times it runs.
func countingLoop(b *ssa.BasicBlock) (*ssa.BasicBlock, int64, bool) {
	h, lo, hi, ok := boundedLoop(b, isIntConst)
	if !ok {
		return nil, 0, false
	}
	return h, hi.(*ssa.Const).Int64() - lo, true
}

// isIntConst reports whether v is an integer constant.
func isIntConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && c.Value.Kind() == constant.Int
}

// boundedLoop returns the header of a counting loop around b (for i :=
// lo; i < hi; i++, a constant lo and a bound hi made before the loop: a
// constant, a parameter, a value computed before it) whose hi bound
// passes (nil: any), lo and hi.
func boundedLoop(b *ssa.BasicBlock, bound func(ssa.Value) bool) (*ssa.BasicBlock, int64, ssa.Value, bool) {
	for _, h := range b.Parent().Blocks {
		br, ok := h.Instrs[len(h.Instrs)-1].(*ssa.If)
		if !ok || !h.Dominates(b) || !blocks.Reaches(b, h) || !blocks.Reaches(h.Succs[0], b) {
			continue
		}
		cmp, ok := br.Cond.(*ssa.BinOp)
		if !ok || cmp.Op != token.LSS {
			continue
		}
		phi, ok := cmp.X.(*ssa.Phi)
		if !ok || phi.Block() != h || len(phi.Edges) != 2 || !madeBefore(cmp.Y, h) || bound != nil && !bound(cmp.Y) {
			continue
		}
		var lo *ssa.Const
		stepped := false
		for _, e := range phi.Edges {
			switch e := e.(type) {
			case *ssa.Const:
				lo = e
			case *ssa.BinOp:
				one, ok := e.Y.(*ssa.Const)
				stepped = e.Op == token.ADD && e.X == phi && ok && one.Value != nil && one.Int64() == 1
			}
		}
		if lo != nil && lo.Value != nil && lo.Value.Kind() == constant.Int && stepped {
			return h, lo.Int64(), cmp.Y, true
		}
	}
	return nil, 0, nil, false
}

// madeBefore reports whether v keeps one value through the loop whose
// header is h: a constant, a parameter or free variable, or a value
// made in a block that dominates h and that the loop does not reach.
func madeBefore(v ssa.Value, h *ssa.BasicBlock) bool {
	switch v := v.(type) {
	case *ssa.Const, *ssa.Parameter, *ssa.FreeVar:
		return true
	case ssa.Instruction:
		b := v.Block()
		return b != nil && b != h && b.Dominates(h) && !blocks.Reaches(h, b)
	}
	return false
}

// everyIteration returns how many times b runs at least: it is in a
// counting loop (see countingLoop) that has no way out but its header's
// test, and it runs in each iteration (every path back to the header
// passes it). Also the loop's header.
func everyIteration(b *ssa.BasicBlock) (*ssa.BasicBlock, int64, bool) {
	h, lo, hi, ok := everyIterationBound(b, isIntConst)
	if !ok {
		return nil, 0, false
	}
	return h, hi.(*ssa.Const).Int64() - lo, true
}

// everyIterationBound is everyIteration for a loop of boundedLoop whose
// bound passes (nil: any): it returns the loop's header, lo and hi.
func everyIterationBound(b *ssa.BasicBlock, bound func(ssa.Value) bool) (*ssa.BasicBlock, int64, ssa.Value, bool) {
	h, lo, hi, ok := boundedLoop(b, bound)
	if !ok {
		return nil, 0, nil, false
	}
	for _, x := range b.Parent().Blocks {
		if x == h || !h.Dominates(x) || !blocks.Reaches(x, h) {
			continue // not in the loop's body
		}
		if len(x.Succs) == 0 {
			return nil, 0, nil, false // a return or a panic inside
		}
		for _, y := range x.Succs {
			if y != h && !(h.Dominates(y) && blocks.Reaches(y, h)) {
				return nil, 0, nil, false // a break, or a way out of the loop
			}
		}
	}
	for _, p := range h.Preds {
		if h.Dominates(p) && !b.Dominates(p) {
			return nil, 0, nil, false // an iteration that skips b
		}
	}
	return h, lo, hi, true
}

// countedSends reports whether the one receiver of the channel mc makes
// takes every send on it, whatever the order: the sends are the one
// send of the goroutines that one go statement of mc's function starts
// in a counting loop of n iterations, each sending once, and the
// receiver receives in each of the m >= n iterations of a counting loop
// of the same function that has no other way out and that every path
// from the go statement reaches (for i := 0; i < 3; i++ { go func() {
// ch <- f() }() }; for i := 0; i < 3; i++ { <-ch }). Each call makes
// its own channel, so the copies the analysis makes of a goroutine
// started in a loop pair with their own. The bound need not be a
// constant where both loops count from the same start to the same value
// made before them (for i := 0; i < workers; i++, twice): then n and m
// are -1.
func (c *checker) countedSends(s *sequelState, u *shb.Trace, send *ssa.Send, mc *ssa.MakeChan, objs []*pointer.Object, receivers []place) (n, m int64, ok bool) {
	fn := mc.Parent()
	recv, isRecv := receivers[0].t.Events[receivers[0].ev].Instr.(*ssa.UnOp)
	if !isRecv || recv.CommaOk || recv.Parent() != fn {
		return 0, 0, false
	}
	for _, r := range receivers[1:] {
		if r.t.Events[r.ev].Instr != recv {
			return 0, 0, false
		}
	}
	if send.Parent() != u.Origin.Entry || blocks.OnCycle(send.Block()) {
		return 0, 0, false // more than one send in a goroutine
	}
	var g *ssa.Go
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if gs, ok := instr.(*ssa.Go); ok && gs.Pos() == u.Origin.Site {
				g = gs
			}
		}
	}
	if g == nil {
		return 0, 0, false
	}
	for _, obj := range objs {
		for _, p := range s.byChan[chanKey(obj)] {
			if p.t.Events[p.ev].Kind == shb.Send && (p.t.Events[p.ev].Instr != send || p.t.Origin.Site != g.Pos()) {
				return 0, 0, false // another sender
			}
		}
	}
	h, n, m, ok := countedLoops(g, recv)
	if !ok || returnAvoiding([]*ssa.BasicBlock{g.Block()}, fn, func(b *ssa.BasicBlock) bool { return b == h }, nil) != nil {
		return 0, 0, false
	}
	return n, m, true
}

// countedLoops returns the header of the loop that receives recv in
// each of its m iterations, and n, where the goroutines that g starts
// are no more: n constant loop runs (m >= n), or -1 for both where the
// two loops count to one value made before them (i < workers, twice),
// or the receiving loop counts from zero to what a counter of g's
// goroutines reached (countsGo).
func countedLoops(g *ssa.Go, recv *ssa.UnOp) (h *ssa.BasicBlock, n, m int64, ok bool) {
	if n, ok := constTrips(g.Block()); ok {
		if h, m, ok := everyIteration(recv.Block()); ok {
			return h, n, m, m >= n
		}
	}
	h, lo, hi, ok := everyIterationBound(recv.Block(), nil)
	if !ok {
		return nil, 0, 0, false
	}
	if lo == 0 && countsGo(hi, g) {
		return h, -1, -1, true // as many receives as the counter counts goroutines
	}
	if _, glo, _, ok := boundedLoop(g.Block(), func(v ssa.Value) bool { return v == hi }); ok && glo == lo {
		// for i := 0; i < workers; i++ { go ... } and then for i := 0;
		// i < workers; i++ { <-results }: as many receives as senders.
		return h, -1, -1, true
	}
	return nil, 0, 0, false
}

// countsGo reports whether n, from zero, counts the goroutines that the
// go statement g starts: n is the value, on leaving g's loop, of a
// counter that goes up by one in g's own block and nowhere else in the
// loop (n++; go f(), in a loop that may skip both: for _, x := range xs
// { if skip(x) { continue }; n++; go f(x) }).
func countsGo(n ssa.Value, g *ssa.Go) bool {
	phi, ok := n.(*ssa.Phi)
	if !ok || !blocks.OnCycle(g.Block()) || !phi.Block().Dominates(g.Block()) || !blocks.Reaches(g.Block(), phi.Block()) {
		return false
	}
	zero, inc := false, false
	var edge func(v ssa.Value, depth int) bool
	edge = func(v ssa.Value, depth int) bool {
		switch v := v.(type) {
		case *ssa.Const:
			if v.Value != nil && v.Value.Kind() == constant.Int && v.Int64() == 0 && !zero {
				zero = true
				return true
			}
		case *ssa.BinOp:
			one, ok := v.Y.(*ssa.Const)
			if v.Op == token.ADD && v.X == phi && ok && one.Value != nil && one.Int64() == 1 && v.Block() == g.Block() {
				inc = true
				return true
			}
		case *ssa.Phi:
			if v == phi {
				return true
			}
			if depth > 0 {
				return false
			}
			for _, e := range v.Edges {
				if !edge(e, depth+1) {
					return false
				}
			}
			return true
		}
		return false
	}
	for _, e := range phi.Edges {
		if !edge(e, 0) {
			return false
		}
	}
	return zero && inc
}

// mayLeaveBefore returns a way out of the loop in which receiver r,
// a receive on one of objs in the function its goroutine runs, waits,
// that the send at event e of u need not happen before: false when r is
// not so, or every way out is started by a receive whose every partner
// the send happens before, and then, for -why, the rule that keeps the
// receiver there (none when r is no loop of this kind). When once is
// set, the sends outnumber the buffer and one receive: r need not be in
// a loop.
func (c *checker) mayLeaveBefore(s *sequelState, r place, objs []*pointer.Object, u *shb.Trace, e int32, once bool) (loopExit, bool, rules.Reason) {
	t := r.t
	instr := t.Events[r.ev].Instr
	if t == u || t.Origin.Parent == nil {
		return loopExit{}, false, rules.None
	}
	fn := instr.Parent()
	isOurs := func(v ssa.Value) bool {
		return slices.ContainsFunc(c.ptr.PointsToIn(t.Origin, v), func(l pointer.Location) bool { return slices.Contains(objs, l.Obj) })
	}
	receives := func(b *ssa.BasicBlock) bool { return receivesIn(b, isOurs) }
	if !once && !blocks.OnCycle(instr.Block()) || !c.lastReceiver(t, r.ev, isOurs) {
		return loopExit{}, false, rules.None
	}
	explain := c.why != nil // the reasons are worded only when -why may ask
	if closedExit(fn, instr, isOurs) {
		if !explain {
			return loopExit{}, false, rules.None
		}
		return loopExit{}, false, why(rules.ClosedSend, "%s may leave its loop because the channel was closed", c.goroutine(t))
	}
	var exits []loopExit
	stays := rules.None // for -why: why no way out
	// The ways out on a close of a channel that nothing closes are
	// never taken (never-closed): looked for only once a way out is
	// found at all.
	var shut map[*ssa.If]ssa.Value
	looked := false
	var cut ssa.Value // a channel whose way out was so left aside
	returnAvoiding := func(start []*ssa.BasicBlock, fn *ssa.Function, stop func(*ssa.BasicBlock) bool) *ssa.Return {
		ret := returnAvoiding(start, fn, stop, nil)
		if ret == nil {
			return nil
		}
		if !looked {
			shut, looked = c.neverClosedExits(s, t, fn), true
		}
		if len(shut) == 0 {
			return ret
		}
		ret = returnAvoiding(start, fn, stop, shut)
		if ret == nil && cut == nil {
			for _, b := range fn.Blocks { // the first in block order, for a stable reason
				if br, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok && shut[br] != nil {
					cut = shut[br]
					break
				}
			}
		}
		return ret
	}
	switch x := instr.(type) {
	case *ssa.UnOp:
		start := x.Block().Succs
		if x.CommaOk {
			// v, ok := <-ch (a range): the way out when !ok is the
			// close's, after which a send panics; the others remain.
			br, ok := okBranch(x)
			if !ok {
				return loopExit{}, false, rules.None
			}
			start = br.Block().Succs[:1]
			if explain {
				stays = why(rules.ClosedSend, "%s leaves its loop (at %s) only once the channel is closed", c.goroutine(t), c.pos(x.Pos()))
			}
		} else if explain {
			stays = why(rules.Partner, "%s receives in a loop (at %s) that it never leaves", c.goroutine(t), c.pos(x.Pos()))
		}
		if ret := returnAvoiding(start, fn, receives); ret != nil {
			exits = append(exits, loopExit{ret: ret})
		}
	case *ssa.Select:
		bodies, dflt := blocks.SelectBodies(x)
		if dflt != nil {
			return loopExit{}, false, rules.None
		}
		if explain {
			stays = why(rules.Partner, "%s receives in a loop (at %s) no case of which returns", c.goroutine(t), c.pos(x.Pos()))
		}
		for i, st := range x.States {
			if bodies[i] == nil {
				return loopExit{}, false, rules.None
			}
			ret := returnAvoiding([]*ssa.BasicBlock{bodies[i]}, fn, receives)
			if ret == nil {
				continue
			}
			ex := loopExit{ret: ret}
			if !isOurs(st.Chan) {
				ex.trigger = st.Chan
			}
			exits = append(exits, ex)
		}
	default:
		return loopExit{}, false, rules.None
	}
	if len(exits) > 0 {
		stays = rules.None
	} else if cut != nil && explain {
		stays = why(rules.NeverClosed, "%s leaves its loop only once %s is closed, and nothing closes it", c.goroutine(t), c.chanName(cut))
	}
	for _, ex := range exits {
		switch {
		case ex.trigger == nil && c.severalSends(s, objs, u, e):
			// The loop may leave on another send's value.
			return ex, true, rules.None
		case ex.trigger == nil:
			if explain {
				stays = firstOf(stays, why(rules.Partner, "%s leaves its loop (returning at %s) on a value it received, which can only be this send's: it takes it first", c.goroutine(t), c.pos(returnPos(ex.ret))))
			}
		default:
			after, r := c.sentAfter(s, r, objs, ex.trigger, u, e)
			if !after {
				return ex, true, rules.None
			}
			stays = firstOf(stays, r)
		}
	}
	return loopExit{}, false, stays
}

// severalSends reports whether the channel objs may get a send other
// than event e of u: one of another goroutine, e again in a loop, or
// e in another instance of u's goroutine that shares the channel (u,
// or a goroutine between it and the one that made the channel, is
// started in a loop). A receiver that leaves its loop on a value may
// leave on e's own, which then is not left over.
func (c *checker) severalSends(s *sequelState, objs []*pointer.Object, u *shb.Trace, e int32) bool {
	if u.Events[e].Loop >= 0 {
		return true
	}
	for _, obj := range objs {
		for _, p := range s.byChan[chanKey(obj)] {
			if p.t != u && p.t.Events[p.ev].Kind == shb.Send && s.sameChannel(p, objs) {
				return true
			}
		}
		var maker *pointer.Origin
		if obj.Ctx != nil {
			maker = obj.Ctx.Origin
		}
		for o := u.Origin; o != nil && o != maker; o = o.Parent {
			if o.Multi {
				return true
			}
		}
	}
	return false
}

// lastReceiver reports whether, once the function of event ev (a
// receive of t's goroutine) returns, the goroutine receives from the
// channel no more: the function is the goroutine's own, or is called by
// it through calls of one callee each from functions that receive from
// the channel nowhere themselves (go func() { a.Run(ctx) }()).
func (c *checker) lastReceiver(t *shb.Trace, ev int32, isOurs func(ssa.Value) bool) bool {
	frames, ok := t.Frames(ev)
	if !ok || len(frames) == 0 || frames[0].Fn != t.Origin.Entry || !c.oneWay(t, ev) {
		return false
	}
	for _, f := range frames[:len(frames)-1] {
		if slices.ContainsFunc(f.Fn.Blocks, func(b *ssa.BasicBlock) bool { return receivesIn(b, isOurs) }) {
			return false
		}
	}
	return true
}

// sentAfter reports whether every send on and close of the channel
// trigger (in t's goroutine) is known and comes after event e of u (see
// after). A trigger nothing sends on or closes never fires. In a
// package nothing imports, code no trace reaches never runs; elsewhere
// an importer may call it (a Stop method) at any time. When it does, it
// says why, for -why.
func (c *checker) sentAfter(s *sequelState, r place, objs []*pointer.Object, trigger ssa.Value, u *shb.Trace, e int32) (bool, rules.Reason) {
	t := r.t
	locs := c.ptr.PointsToIn(t.Origin, trigger)
	if len(locs) == 0 {
		return false, rules.None
	}
	whole := buildir.NoImporters(c.pkg.Pkg)
	var later, self, apart *place // a stop that comes after e, one the loop gives itself, and one in another test's run
	untraced := false
	for _, l := range locs {
		if _, ok := c.judged(l.Obj); !ok {
			return false, rules.None
		}
		k := chanKey(l.Obj)
		if !whole && (s.untraced[k][shb.Send] || s.untraced[k][shb.Close]) {
			return false, rules.None
		}
		untraced = untraced || s.untraced[k][shb.Send] || s.untraced[k][shb.Close]
		for _, p := range s.byChan[k] {
			if kind := p.t.Events[p.ev].Kind; kind != shb.Send && kind != shb.Close || !s.sameChannel(p, []*pointer.Object{l.Obj}) {
				continue
			}
			if p.t == t && p.ev > r.ev && !c.severalSends(s, objs, u, e) {
				self = &p
				continue // the loop stops itself after a receive, which can only be e's
			}
			if c.hb.SeparateRuns(u, e, p.t, p.ev) {
				apart = &p
				continue // a stop in another run, of what another test made
			}
			if !c.after(u, e, p) {
				return false, rules.None
			}
			later = &p
		}
	}
	switch {
	case c.why == nil:
		return true, rules.None
	case later != nil:
		return true, why(rules.HappensBefore, "the stop on %s at %s (%s) comes after the send (later in its goroutine, in a goroutine it starts after it, or once its goroutine is past the send): the loop is still receiving", c.chanName(trigger), c.pos(later.t.Events[later.ev].Instr.Pos()), c.goroutine(later.t))
	case self != nil:
		return true, why(rules.Partner, "%s stops its loop on %s itself (at %s), only after it took this send", c.goroutine(t), c.chanName(trigger), c.pos(self.t.Events[self.ev].Instr.Pos()))
	case apart != nil:
		return true, why(c.hb.RunsRule(u, apart.t), "the stop on %s at %s (%s) is in a run apart from the send's (%s): another test's, which ends before this one starts", c.chanName(trigger), c.pos(apart.t.Events[apart.ev].Instr.Pos()), c.goroutine(apart.t), c.goroutine(u))
	case untraced:
		return true, why(rules.NeverRuns, "only code nothing in the program calls sends on or closes %s", c.chanName(trigger))
	}
	return true, why(rules.NeverRuns, "no code the program runs sends on or closes %s", c.chanName(trigger))
}

// selfWaits reports a receive whose every sender and closer is its own
// goroutine, later: close(done) deferred by the function that, through
// a callback, ends up waiting for done.
func (c *checker) selfWaits(s *sequelState) {
	if c.judged == nil {
		return
	}
	for _, t := range c.hb.Traces {
		for i := range t.Events {
			ev := &t.Events[i]
			recv, ok := ev.Instr.(*ssa.UnOp)
			if !ok || ev.Kind != shb.Recv || ev.Select || c.reported[recv] || recv.Op != token.ARROW || isNil(recv.X) {
				continue
			}
			mc, objs, ok := c.allJudged(t, recv.X, c.judged)
			if !ok || c.unknownOp(mc, shb.Send, shb.Close) {
				continue
			}
			var last place
			own := true
			laterOwn := false   // its own goroutine sends or closes later: a candidate
			other := rules.None // for -why: what else may complete it
			for _, obj := range objs {
				k := chanKey(obj)
				if s.untraced[k][shb.Send] || s.untraced[k][shb.Close] {
					own = false
					other = firstOf(other, why(rules.Partner, "a send or close in code no goroutine of the package's programs reaches, which another package may call at any time"))
				}
				for _, p := range s.byChan[k] {
					if kind := p.t.Events[p.ev].Kind; kind != shb.Send && kind != shb.Close || !s.sameChannel(p, objs) {
						continue
					}
					switch {
					case p.t != t:
						own = false
						other = firstOf(other, c.partnerAt("the send or close", p.t, instrPos(p.t.Events[p.ev].Instr)))
					case p.ev <= ev.ID || inSameLoop(t, ev.ID, p.ev):
						own = false
						other = firstOf(other, c.partnerAt("its own send or close, which may come first,", t, instrPos(p.t.Events[p.ev].Instr)))
					case t.Run(p.ev) != t.Run(ev.ID):
						own = false
					default:
						laterOwn = true
					}
					last = p
				}
			}
			question := func() string {
				return fmt.Sprintf("receive blocks forever? %s receives from %s, which it sends on or closes itself, later", c.goroutine(t), c.chanName(recv.X))
			}
			if own && last.t != nil {
				if site := c.handedAway(t, ev.ID); site != nil {
					if c.why.at(recv.Pos()) {
						c.why.note(recv.Pos(), question(),
							why(rules.HandedAway, "the receive is in a function value given to %s at %s, which runs it where that code runs it", facts.ShortName(site.Common().StaticCallee().String()), c.pos(site.Pos())))
					}
					continue
				}
			}
			if !own || last.t == nil || !c.oneWay(t, ev.ID) || !c.oneWay(t, last.ev) {
				if laterOwn && other.Rule != "" && c.why.at(recv.Pos()) {
					c.why.note(recv.Pos(), question(), other)
				}
				continue
			}
			at := last.t.Events[last.ev].Instr.Pos()
			c.report(kinds.ReceiveBlocks, recv, recv.Pos(), slices.Concat(c.startedAt(t), c.madeAt(mc), c.related(at, "it sends or closes here, later")),
				"receive blocks forever: %s receives from %s (made at %s), which only it sends on or closes, later (at %s): it waits for itself",
				c.goroutine(t), c.chanName(recv.X), c.pos(mc.Pos()), c.pos(at))
		}
	}
}

// handedAway returns the call of another package's function through
// which t's goroutine reaches event ev in a function value it gave that
// code (p.Submit(func() { <-ch })): the pointer analysis calls such a
// value at the call, but the code may keep it and run it later, on a
// goroutine of its own (a worker pool). nil when there is none. sync's
// functions (Once.Do) run it there and then.
func (c *checker) handedAway(t *shb.Trace, ev int32) ssa.CallInstruction {
	frames, ok := t.Frames(ev)
	if !ok {
		return nil
	}
	for _, f := range frames {
		if f.Site == nil {
			continue
		}
		callee := f.Site.Common().StaticCallee()
		if callee != nil && callee != f.Fn && buildir.Imported(callee) && (callee.Pkg == nil || callee.Pkg.Pkg.Path() != "sync") {
			return f.Site
		}
	}
	return nil
}

// oneWay reports whether t's goroutine reaches event ev through calls
// each of which has one callee: a function value or interface method
// that may be several functions (a parameter given two closures, whose
// calls the analysis merges) may take it elsewhere.
func (c *checker) oneWay(t *shb.Trace, ev int32) bool {
	frames, ok := t.Frames(ev)
	if !ok {
		return false
	}
	for _, f := range frames {
		if f.Site != nil && f.Site.Common().StaticCallee() == nil && len(c.ptr.Callees(t.Origin, f.Site)) != 1 {
			return false
		}
	}
	return true
}

// after reports whether p comes after event e of u: later in u's own
// function (Status(); Stop()), in a goroutine u starts after e, or
// once u's goroutine is past e (see pastSend). Not through the
// happens-before graph into e, which orders everything the receiver
// does after its receive of e after e too, its way out of the loop
// included.
func (c *checker) after(u *shb.Trace, e int32, p place) bool {
	if p.t == u {
		return p.ev > e && u.Run(p.ev) == u.Run(e) && !inSameLoop(u, e, p.ev)
	}
	if id, ok := c.spawnedBy(p.t, u); ok && id > e && !inSameLoop(u, e, id) {
		return true
	}
	return c.pastSend(u, e, p)
}

// pastSend reports whether what u's goroutine does once past event e
// (past the loop around e) happens before p: a stop given only after
// the sender did something it does after the send (asynq's workers give
// their semaphore token back after their last send, and the shutdown
// that stops the receivers first takes every token; a worker's Done
// before a Wait) cannot come before the send completes, which the
// sender must do to go on. An edge leaves the operation that gives it
// (a Done, a send) from the events before it: e's own edge, which says
// what the receiver does after it took e, is not one of them.
func (c *checker) pastSend(u *shb.Trace, e int32, p place) bool {
	return c.order.HappensBefore(u, e, p.t, p.ev, false)
}

// inSameLoop reports whether events x and y of t are in one loop, where
// y may come before x in the next iteration.
func inSameLoop(t *shb.Trace, x, y int32) bool {
	lx, ly := t.Events[x].Loop, t.Events[y].Loop
	return lx >= 0 && lx == ly
}

// sameChannel reports whether the operation at p (a send, receive or
// close of the traces) may be on one of objs itself, not only on a
// channel made at the same place.
func (s *sequelState) sameChannel(p place, objs []*pointer.Object) bool {
	return slices.ContainsFunc(s.chans[p], func(o *pointer.Object) bool { return slices.Contains(objs, o) })
}

// returnAvoiding returns a return of fn that a path from the blocks
// start reaches without passing a block that stop reports true for (one
// that receives from the channel, the header of a loop), nor the way
// out on a close of an if of shut (see neverClosedExits), or nil.
func returnAvoiding(start []*ssa.BasicBlock, fn *ssa.Function, stop func(*ssa.BasicBlock) bool, shut map[*ssa.If]ssa.Value) *ssa.Return {
	seen := make(map[*ssa.BasicBlock]bool)
	work := slices.Clone(start)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] || b == fn.Recover {
			continue
		}
		seen[b] = true
		if stop(b) {
			continue
		}
		switch last := b.Instrs[len(b.Instrs)-1].(type) {
		case *ssa.Return:
			return last
		case *ssa.If:
			if _, ok := shut[last]; ok {
				work = append(work, b.Succs[0]) // on a value only
				continue
			}
		}
		work = append(work, b.Succs...)
	}
	return nil
}

// neverClosedExits returns the ifs of fn, run by t's goroutine, on the
// ok of a receive (a range over a channel, v, ok := <-ch; if !ok) from
// a channel that nothing closes (neverClosed), with that channel: their
// way out on a close is never taken (never-closed).
func (c *checker) neverClosedExits(s *sequelState, t *shb.Trace, fn *ssa.Function) map[*ssa.If]ssa.Value {
	var shut map[*ssa.If]ssa.Value
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			recv, ok := instr.(*ssa.UnOp)
			if !ok || recv.Op != token.ARROW || !recv.CommaOk {
				continue
			}
			br, ok := okBranch(recv)
			if !ok || !c.neverClosed(s, t, recv.X) {
				continue
			}
			if shut == nil {
				shut = make(map[*ssa.If]ssa.Value)
			}
			shut[br] = recv.X
		}
	}
	return shut
}

// neverClosed reports whether every channel ch may be in t's goroutine
// is one the package makes and that nothing closes: one it keeps to the
// function that makes it and its goroutines, or any of its channels in
// a whole program (a main package nothing imports), with no close that
// code the analysis cannot name may make.
func (c *checker) neverClosed(s *sequelState, t *shb.Trace, ch ssa.Value) bool {
	locs := c.ptr.PointsToIn(t.Origin, ch)
	if len(locs) == 0 {
		return false
	}
	whole := buildir.NoImporters(c.pkg.Pkg)
	for _, l := range locs {
		mc, ok := c.judged(l.Obj)
		if !ok || !localChannel(mc) && (!whole || c.unknownOp(mc, shb.Close)) {
			return false
		}
		k := chanKey(l.Obj)
		if s.untraced[k][shb.Close] {
			return false
		}
		for _, p := range s.byChan[k] {
			if p.t.Events[p.ev].Kind == shb.Close {
				return false
			}
		}
	}
	return true
}

// receivesIn reports whether block b receives from the channel.
func receivesIn(b *ssa.BasicBlock, isOurs func(ssa.Value) bool) bool {
	for _, instr := range b.Instrs {
		switch x := instr.(type) {
		case *ssa.UnOp:
			if x.Op == token.ARROW && isOurs(x.X) {
				return true
			}
		case *ssa.Select:
			for _, st := range x.States {
				if st.Dir == types.RecvOnly && isOurs(st.Chan) {
					return true
				}
			}
		}
	}
	return false
}

// closedExit reports whether fn tells a closed channel from a value
// (v, ok := <-ch; range) elsewhere than at the receive r, whose own way
// out on a close the caller leaves aside (see okBranch): it may leave
// its loop because the channel was closed, after which a send panics
// rather than blocks.
func closedExit(fn *ssa.Function, r ssa.Instruction, isOurs func(ssa.Value) bool) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.UnOp:
				if x.Op == token.ARROW && x.CommaOk && isOurs(x.X) && x != r {
					return true
				}
			case *ssa.Select:
				if !slices.ContainsFunc(x.States, func(st *ssa.SelectState) bool { return st.Dir == types.RecvOnly && isOurs(st.Chan) }) {
					continue
				}
				for _, r := range *x.Referrers() {
					if ex, ok := r.(*ssa.Extract); ok && ex.Index == 1 && len(*ex.Referrers()) > 0 {
						return true
					}
				}
			}
		}
	}
	return false
}

// okBranch returns the if on the ok of receive recv (v, ok := <-ch, a
// range over a channel) in recv's block: its first successor is taken
// on a value, its second on a close.
func okBranch(recv *ssa.UnOp) (*ssa.If, bool) {
	for _, r := range *recv.Referrers() {
		ex, ok := r.(*ssa.Extract)
		if !ok || ex.Index != 1 {
			continue
		}
		for _, rr := range *ex.Referrers() {
			if br, ok := rr.(*ssa.If); ok && br.Cond == ex && br.Block() == recv.Block() {
				return br, true
			}
		}
	}
	return nil, false
}
