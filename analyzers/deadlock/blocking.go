package deadlock

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/analyzers/internal/blocks"
	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// blocked is a blocking operation that holds a mutex, and the operations
// of other goroutines that could unblock it, all of which need the mutex.
type blocked struct {
	t      *shb.Trace
	ev     int32
	lock   int32 // the mutex's location
	others []other
}

type other struct {
	t  *shb.Trace
	ev int32
	// acquire is the event where the goroutine locks the mutex before
	// it can reach ev, when it does not hold it at ev; -1 otherwise.
	acquire int32
	// how the goroutine comes to lock first.
	how lockWay
	// via are, for lockViaWait, the operations that would complete the
	// receive acquire is, each with where it locks the mutex first.
	via []other
}

// lockWay is how a goroutine that would unblock an operation comes to
// lock the mutex before it does.
type lockWay uint8

const (
	lockFirst   lockWay = iota // on every path to its operation
	lockAgain                  // after it, in a loop around it: from the second run on
	lockInCase                 // on another way out of the select its operation is a case of
	lockInLoop                 // in the body of a loop it leaves before its operation
	lockViaWait                // not itself: it first waits for goroutines that lock first
)

// blockingOps reports a goroutine that blocks on a channel operation,
// WaitGroup.Wait or Cond.Wait while holding a mutex that every goroutine
// able to unblock it holds at the operation that would: whichever locks
// the mutex first, neither proceeds.
//
// Only operations that surely block count: a send on a channel the
// package makes unbuffered, a receive from a channel the package makes,
// a Wait (not holding the Cond's own lock, which Cond.Wait releases);
// never a select case, which another case may complete. The
// mutex must be one location that the package locks with Lock or RLock
// (not a semaphore channel or a Once), and two read locks do not block
// each other.
func (c *checker) blockingOps(hb *shb.Result) {
	mutexes := make(map[int32]bool)
	byObj := make(map[int32][]other) // sync events by object
	for _, t := range hb.Traces {
		for _, ev := range t.Events {
			switch ev.Kind {
			case shb.Acquire:
				if ev.Obj >= 0 {
					mutexes[ev.Obj] = true
				}
			case shb.Send, shb.Recv, shb.Close, shb.WGDone, shb.WGWait, shb.CondWait, shb.CondSignal:
				if ev.Obj >= 0 {
					byObj[ev.Obj] = append(byObj[ev.Obj], other{t, ev.ID, -1, lockFirst, nil})
				}
			}
		}
	}
	var found []blocked
	seen := make(map[ssa.Instruction]bool)
	pairs := make(map[[2]ssa.Instruction]bool) // one report for two goroutines blocking each other
	for _, t := range hb.Traces {
		for _, ev := range t.Events {
			if ev.Obj < 0 || seen[ev.Instr] {
				continue
			}
			_, isSelect := ev.Instr.(*ssa.Select)
			if (ev.Select || isSelect) && !oneCase(ev.Instr) {
				c.noteNoWait(hb, t, ev, mutexes, rules.SelectCase, "another case may complete the select")
				continue
			}
			if !c.surelyBlocks(hb, ev) {
				if n, ok := hb.Capacity(ev.Obj); ok && ev.Kind == shb.Send && n > 0 {
					c.noteNoWait(hb, t, ev, mutexes, rules.Buffered, fmt.Sprintf("%s has a buffer of %d", objName(ev), n))
				}
				continue
			}
			var own []pointer.Location // Cond.Wait releases the cond's own lock
			if ev.Kind == shb.CondWait {
				if own = c.condLocks(t, ev); len(own) == 0 {
					continue
				}
			}
			c.noteUnheld(hb, t, ev, mutexes)
			locs, reads := hb.Locks.Members(ev.Locks)
			for i, l := range locs {
				if len(l) != 1 || !mutexes[l[0]] {
					continue
				}
				if slices.Contains(own, hb.Location(l[0])) {
					c.noteBlocked(hb, t, ev, l[0], rules.CondWait, fmt.Sprintf("%s is the Locker of %s", c.lockLabel(hb, l[0]), objName(ev)))
					continue
				}
				others, rule, detail := c.unblockers(hb, t, ev, byObj, l[0], reads[i], repeats(t, ev, byObj[ev.Obj]))
				if len(others) == 0 {
					if rule != "" {
						c.noteBlocked(hb, t, ev, l[0], rule, detail)
					}
					continue
				}
				seen[ev.Instr] = true
				first := others[0].t.Events[others[0].ev].Instr
				if pairs[[2]ssa.Instruction{first, ev.Instr}] {
					break
				}
				pairs[[2]ssa.Instruction{ev.Instr, first}] = true
				found = append(found, blocked{t, ev.ID, l[0], others})
				break
			}
		}
	}
	for _, b := range found {
		c.reportBlocked(hb, b)
	}
}

// repeats reports whether the operation ev of t, or one of its kind on
// its object, may happen more than once: in a loop, in a goroutine that
// may run more than once, or in two goroutines.
func repeats(t *shb.Trace, ev shb.Event, ops []other) bool {
	n := 0
	for _, o := range ops {
		oe := o.t.Events[o.ev]
		if oe.Kind != ev.Kind {
			continue
		}
		if oe.Loop >= 0 || o.t.Origin.Multi {
			return true
		}
		n++
	}
	return n > 1
}

// surelyBlocks reports whether a synchronization event waits for
// another goroutine.
func (c *checker) surelyBlocks(hb *shb.Result, ev shb.Event) bool {
	switch ev.Kind {
	case shb.Send:
		n, ok := hb.Capacity(ev.Obj)
		return ok && n == 0
	case shb.Recv:
		_, ok := hb.Capacity(ev.Obj) // made here: its senders are in view
		return ok
	case shb.WGWait, shb.CondWait:
		return true
	}
	return false
}

// condLocks returns the locations of the Locker that the Cond of a
// CondWait event uses, or nil when unknown. sync.NewCond is opaque to the
// pointer analysis, so the Locker is found where the code made the Cond:
// a Cond made in the same function, or a Cond field that the package
// sets to sync.NewCond(&x.f), for the mutex field f that Wait's caller
// holds.
func (c *checker) condLocks(t *shb.Trace, ev shb.Event) []pointer.Location {
	call, ok := ev.Instr.(ssa.CallInstruction)
	if !ok {
		return nil
	}
	op, cond := syncapi.Cond(call.Common())
	if op != syncapi.CondWait {
		return nil // a function of another package that waits inside
	}
	if made, ok := newCondArg(cond); ok {
		return c.ptr.PointsToIn(t.Origin, made)
	}
	load, ok := cond.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	mu, ok := c.condMutexes()[fieldOf(load.X)]
	if !ok || mu == nil {
		return nil
	}
	for _, h := range c.ls.Before(ev.Instr) {
		if h.Value != nil && h.Path.IsEmpty() && fieldOf(h.Value) == mu {
			return c.ptr.PointsToIn(t.Origin, h.Value)
		}
	}
	return nil
}

// newCondArg returns x when v is sync.NewCond(x).
func newCondArg(v ssa.Value) (ssa.Value, bool) {
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil, false
	}
	x, ok := syncapi.NewCond(&call.Call)
	if !ok {
		return nil, false
	}
	if mi, ok := x.(*ssa.MakeInterface); ok {
		x = mi.X
	}
	return x, true
}

// fieldOf returns the struct field that v is the address of, or nil.
func fieldOf(v ssa.Value) *types.Var {
	fa, ok := v.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	st, ok := facts.Pointee(fa.X.Type()).Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return nil
	}
	return st.Field(fa.Field)
}

// condMutexes maps the Cond fields of the package's structs to the mutex
// fields their Cond is made with: x.cond = sync.NewCond(&x.mu). A field
// set with two different mutexes maps to nil.
func (c *checker) condMutexes() map[*types.Var]*types.Var {
	if c.conds != nil {
		return c.conds
	}
	c.conds = make(map[*types.Var]*types.Var)
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				arg, ok := newCondArg(st.Val)
				if !ok {
					continue
				}
				cf, mf := fieldOf(st.Addr), fieldOf(arg)
				if cf == nil || mf == nil {
					continue
				}
				if old, seen := c.conds[cf]; seen && old != mf {
					mf = nil
				}
				c.conds[cf] = mf
			}
		}
	}
	return c.conds
}

// unblockers returns the events of other goroutines that would unblock
// event ev of t, when there are some and each holds lock (for writing,
// if ev holds it only for reading); nil otherwise, with the rule by
// which they do not all wait for the lock ("" when there are none).
//
// A goroutine that locks the mutex after the operation, in a loop
// around it (lockedInLoop), locks it first from the loop's second run
// on: it counts when repeats says the blocked operation may happen more
// than once, so that one of its runs meets the second.
func (c *checker) unblockers(hb *shb.Result, t *shb.Trace, ev shb.Event, byObj map[int32][]other, lock int32, read, repeats bool) ([]other, rules.ID, string) {
	var out []other
	otherProgram := false
	name := c.lockLabel(hb, lock)
	for _, o := range byObj[ev.Obj] {
		oe := o.t.Events[o.ev]
		if !unblocks(ev.Kind, oe.Kind) {
			continue
		}
		if o.t == t {
			// It may well be the one (a loop handing to itself is no
			// deadlock we can tell).
			return nil, rules.OneGoroutine, fmt.Sprintf("the goroutine itself may complete it, at %s", c.pos(oe.Instr.Pos()))
		}
		if !o.t.Origin.SameProgram(t.Origin) {
			otherProgram = true
			continue // it runs in another program: it never unblocks ev
		}
		held, heldRead := hb.Locks.Holds(oe.Locks, lock)
		if held && !(read && heldRead) {
			out = append(out, o)
			continue
		}
		how := lockFirst
		z := lockedBefore(o.t, o.ev, lock, read)
		if z >= 0 && c.order.HappensBefore(o.t, z, t, ev.ID, false) {
			// It locked before this goroutine could hold the mutex at
			// ev (before starting it): it does not wait there.
			return nil, rules.HappensBefore, fmt.Sprintf("%s locks %s at %s before this goroutine can hold it; %s", o.t.Origin.Describe(c.pass.Fset), name, c.pos(o.t.Events[z].Instr.Pos()), c.order.Explain(c.pass.Fset, rules.HappensBefore, o.t, z, t, ev.ID))
		}
		if z < 0 {
			z, how = c.lockedInOtherCase(hb, o.t, o.ev, lock, read), lockInCase
		}
		if z < 0 && repeats {
			z, how = lockedInLoop(o.t, o.ev, lock, read), lockAgain
		}
		if z < 0 {
			z, how = lockedInLoopBefore(o.t, o.ev, lock, read), lockInLoop
		}
		if z < 0 {
			if w, via, ok := c.lockedThroughWait(hb, t, ev, o, byObj, lock, read); ok {
				out = append(out, other{o.t, o.ev, w, lockViaWait, via})
				continue
			}
			if held {
				return nil, rules.ReadLocks, fmt.Sprintf("%s holds %s for reading only at %s, as this goroutine does", o.t.Origin.Describe(c.pass.Fset), name, c.pos(oe.Instr.Pos()))
			}
			return nil, rules.FreePartner, fmt.Sprintf("%s at %s (%s) need not lock %s first", kindWord(oe.Kind), c.pos(oe.Instr.Pos()), o.t.Origin.Describe(c.pass.Fset), name)
		}
		out = append(out, other{o.t, o.ev, z, how, nil}) // it must lock first, and waits
	}
	if len(out) == 0 && otherProgram {
		return nil, rules.OtherProgram, "every operation that would complete it runs in another program"
	}
	return out, "", ""
}

// kindWord names an operation that completes a blocked one, with its
// article.
func kindWord(k shb.Kind) string {
	switch k {
	case shb.Send:
		return "the send"
	case shb.Recv:
		return "the receive"
	case shb.Close:
		return "the close"
	case shb.WGDone:
		return "the Done"
	case shb.CondSignal:
		return "the Signal"
	}
	return "the operation"
}

// lockedThroughWait returns, for the event o of another goroutine that
// would unblock ev of t, a receive w of o's goroutine that comes before
// o on every path and that only goroutines other than these two complete
// (its channel's every send and close), each of which must lock the
// mutex first (see lockedBefore), not before t could hold it: o's
// goroutine waits at w while they wait for the mutex (a close(done)
// deferred after <-ready, and ready is closed after mu.Lock()). via are
// those others' operations, with where they lock.
func (c *checker) lockedThroughWait(hb *shb.Result, t *shb.Trace, ev shb.Event, o other, byObj map[int32][]other, lock int32, read bool) (int32, []other, bool) {
	fo, ok := o.t.Frames(o.ev)
	if !ok {
		return -1, nil, false
	}
	for w := o.ev - 1; w >= 0; w-- {
		we := o.t.Events[w]
		if we.Kind != shb.Recv || we.Obj < 0 || we.Select && !oneCase(we.Instr) || !c.surelyBlocks(hb, we) {
			continue
		}
		fw, ok := o.t.Frames(w)
		if !ok || !dominatesAlong(fw, we.Instr, fo, o.t.Events[o.ev].Instr) && !beforeDeferred(fw, we.Instr, fo, o.t.Events[o.ev].Instr) {
			continue
		}
		var via []other
		for _, x := range byObj[we.Obj] {
			if !unblocks(shb.Recv, x.t.Events[x.ev].Kind) {
				continue
			}
			if x.t == t || x.t == o.t {
				return -1, nil, false
			}
			if !x.t.Origin.SameProgram(t.Origin) {
				continue // another program's: it completes nothing here
			}
			z := lockedBefore(x.t, x.ev, lock, read)
			if z < 0 || c.order.HappensBefore(x.t, z, t, ev.ID, false) {
				return -1, nil, false
			}
			via = append(via, other{x.t, x.ev, z, lockFirst, nil})
		}
		if len(via) > 0 {
			return w, via, true
		}
		return -1, nil, false // the nearest such receive decides
	}
	return -1, nil, false
}

// beforeDeferred reports whether instruction x, made on the chain of
// calls fx, runs before the deferred call y, made on fy, on every path:
// both in one function, y a defer statement, and x on every path to
// each point where the deferred calls run.
func beforeDeferred(fx []pointer.Frame, x ssa.Instruction, fy []pointer.Frame, y ssa.Instruction) bool {
	if _, ok := y.(*ssa.Defer); !ok || x.Parent() != y.Parent() || !slices.Equal(fx, fy) {
		return false
	}
	runs := 0
	for _, b := range y.Parent().Blocks {
		for _, instr := range b.Instrs {
			if rd, ok := instr.(*ssa.RunDefers); ok {
				if !pointer.Dominates(x, rd) {
					return false
				}
				runs++
			}
		}
	}
	return runs > 0
}

// oneCase reports whether instr is a select with one case and no
// default: a plain send or receive.
func oneCase(instr ssa.Instruction) bool {
	sel, ok := instr.(*ssa.Select)
	return ok && sel.Blocking && len(sel.States) == 1
}

// lockedInOtherCase returns an Acquire of the mutex at location lock
// that trace t makes, when event ev is a case of a select in a loop, on
// every path of another way out of the select (its default, or a case
// on another channel) before the loop comes back to the select: the
// goroutine may be waiting for the mutex instead of at the select when
// the other side holds the mutex and waits for the case (for { select {
// case <-stop: return; default: mu.Lock(); ...; mu.Unlock() } }). -1
// when there is none.
func (c *checker) lockedInOtherCase(hb *shb.Result, t *shb.Trace, ev int32, lock int32, read bool) int32 {
	e := t.Events[ev]
	sel, ok := e.Instr.(*ssa.Select)
	fe, ok2 := t.Frames(ev)
	if !ok || !ok2 || !blocks.OnCycle(sel.Block()) {
		return -1
	}
	own := hb.Objects(e.Obj)
	cases, dflt := blocks.SelectBodies(sel)
	var others []*ssa.BasicBlock
	if dflt != nil {
		others = append(others, dflt)
	}
	for i, b := range cases {
		if b != nil && !slices.ContainsFunc(c.ptr.PointsToIn(t.Origin, sel.States[i].Chan), func(l pointer.Location) bool { return slices.Contains(own, l.Obj) }) {
			others = append(others, b)
		}
	}
	for z := range int32(len(t.Events)) {
		a := t.Events[z]
		if a.Kind != shb.Acquire || a.Obj != lock || read && a.Read {
			continue
		}
		fz, ok := t.Frames(z)
		if !ok || len(fz) < len(fe) || !slices.Equal(fz[:len(fe)], fe) {
			continue
		}
		at := a.Instr
		if len(fz) > len(fe) {
			at = fz[len(fe)].Site
		}
		if at == nil || at.Parent() != sel.Parent() || !deeperAlwaysReach(fz, len(fe), a.Instr) {
			continue
		}
		for _, b := range others {
			if onEveryPathFromBlock(b, at, sel.Block()) {
				return z
			}
		}
	}
	return -1
}

// lockedInLoop returns an Acquire of the mutex at location lock that
// trace t makes after event ev on every path from ev to its next run,
// in a loop around it: from the loop's second run on, the goroutine
// locks the mutex before it gets to ev (for { <-ch; s.mu.Lock(); ...;
// s.mu.Unlock() }). -1 when there is none.
func lockedInLoop(t *shb.Trace, ev int32, lock int32, read bool) int32 {
	l := t.Events[ev].Loop
	fe, ok := t.Frames(ev)
	if l < 0 || !ok {
		return -1
	}
	for z := ev + 1; z <= t.Loops[l].End && int(z) < len(t.Events); z++ {
		a := t.Events[z]
		if a.Kind != shb.Acquire || a.Obj != lock || read && a.Read {
			continue
		}
		if fz, ok := t.Frames(z); ok && followsAlong(fe, t.Events[ev].Instr, fz, a.Instr) {
			return z
		}
	}
	return -1
}

// lockedInLoopBefore returns an Acquire of the mutex at location lock
// that trace t makes in the body of a loop that it leaves before event
// ev, in the function of ev, which the loop does not hold: the goroutine
// may be in the loop, waiting for the mutex, when the other side holds
// it and waits for ev (for v := range ch { mu.Lock(); ...; mu.Unlock()
// }; close(done)). -1 when there is none.
func lockedInLoopBefore(t *shb.Trace, ev int32, lock int32, read bool) int32 {
	fe, ok := t.Frames(ev)
	if !ok {
		return -1
	}
	x := t.Events[ev].Instr
	for z := ev - 1; z >= 0; z-- {
		a := t.Events[z]
		if a.Kind != shb.Acquire || a.Obj != lock || read && a.Read || a.Loop < 0 || a.Loop == t.Events[ev].Loop || t.Loops[a.Loop].End >= ev {
			continue
		}
		fz, ok := t.Frames(z)
		if !ok {
			continue
		}
		// In ev's function, the call leading to the Acquire is in a
		// loop body that ev does not belong to, and comes before it.
		k, az, ax, ok := inCommonFrame(fz, a.Instr, fe, x)
		if !ok || az.Parent() != ax.Parent() || !blocks.OnCycle(az.Block()) {
			continue
		}
		// A deferred call runs at the return, after any loop.
		if _, deferred := ax.(*ssa.Defer); !deferred && (blocks.Reaches(ax.Block(), az.Block()) || !blocks.Reaches(az.Block(), ax.Block())) {
			continue
		}
		if deeperAlwaysReach(fz, k, a.Instr) {
			return z
		}
	}
	return -1
}

// followsAlong reports whether instruction y, made on the chain of
// calls fy, runs after instruction x, made on the chain fx, on every
// path from x that returns from their innermost common frame or comes
// back to x: in that frame, y (or the call of fy leading to it) lies on
// every such path from x (or the call of fx leading to it), and in each
// deeper frame of fy, y's block dominates every return.
func followsAlong(fx []pointer.Frame, x ssa.Instruction, fy []pointer.Frame, y ssa.Instruction) bool {
	k, ax, ay, ok := inCommonFrame(fx, x, fy, y)
	if !ok || ax.Parent() != ay.Parent() || !onEveryPathFrom(ax, ay) {
		return false
	}
	return deeperAlwaysReach(fy, k, y)
}

// inCommonFrame returns the depth k of the innermost frame that the
// chains of calls fx and fy share, and the instructions there that lead
// to x and to y: x and y themselves, or the calls of fx and fy at k;
// false when the chains share no frame, or lead to one call.
func inCommonFrame(fx []pointer.Frame, x ssa.Instruction, fy []pointer.Frame, y ssa.Instruction) (k int, ax, ay ssa.Instruction, ok bool) {
	for k < len(fx) && k < len(fy) && fx[k] == fy[k] {
		k++
	}
	if k == 0 {
		return 0, nil, nil, false
	}
	at := func(f []pointer.Frame, instr ssa.Instruction) ssa.Instruction {
		if k < len(f) {
			return f[k].Site
		}
		return instr
	}
	ax, ay = at(fx, x), at(fy, y)
	return k, ax, ay, ax != nil && ay != nil && ax != ay
}

// deeperAlwaysReach reports whether, in each frame of the chain fy from
// k on, instruction y (or the call leading to it) lies on every path to
// a return: a call at frame k always reaches y.
func deeperAlwaysReach(fy []pointer.Frame, k int, y ssa.Instruction) bool {
	for j := k; j < len(fy); j++ {
		instr := y
		if j+1 < len(fy) {
			instr = fy[j+1].Site
		}
		if instr == nil || !blocks.ReachesEveryReturn(instr) {
			return false
		}
	}
	return true
}

// onEveryPathFromBlock reports whether every path from the start of
// block b that returns, or comes to block back, passes instruction y.
func onEveryPathFromBlock(b *ssa.BasicBlock, y ssa.Instruction, back *ssa.BasicBlock) bool {
	return blocks.PassesFirst([]*ssa.BasicBlock{b}, y, back)
}

// onEveryPathFrom reports whether every path from instruction x that
// returns, or comes back to x, passes instruction y first.
func onEveryPathFrom(x, y ssa.Instruction) bool {
	xb := x.Block()
	if xb == y.Block() && indexOf(x) < indexOf(y) {
		return true
	}
	return len(xb.Succs) > 0 && blocks.PassesFirst(xb.Succs, y, xb)
}

func indexOf(instr ssa.Instruction) int {
	for i, in := range instr.Block().Instrs {
		if in == instr {
			return i
		}
	}
	return -1
}

// lockedBefore returns an Acquire of the mutex at location lock that
// trace t makes before event ev on every path to it: one whose
// instruction, or the call that leads to it, dominates ev's (or the
// call that leads to ev) in the function of their innermost common
// call, in a callee always acquiring it before it returns. An RLock
// counts against a lock held for writing only. -1 when there is none.
func lockedBefore(t *shb.Trace, ev int32, lock int32, read bool) int32 {
	fe, ok := t.Frames(ev)
	if !ok {
		return -1
	}
	for z := ev - 1; z >= 0; z-- {
		a := t.Events[z]
		if a.Kind != shb.Acquire || a.Obj != lock || read && a.Read {
			continue
		}
		fz, ok := t.Frames(z)
		if !ok {
			continue
		}
		if dominatesAlong(fz, a.Instr, fe, t.Events[ev].Instr) {
			return z
		}
	}
	return -1
}

// dominatesAlong reports whether instruction x, made on the chain of
// calls fx, runs before instruction y, made on the chain fy, on every
// path: in the function of their innermost common frame, x (or the call
// of fx leading to it) dominates y (or the call of fy leading to it),
// and in each deeper frame of fx, x's block dominates every return.
func dominatesAlong(fx []pointer.Frame, x ssa.Instruction, fy []pointer.Frame, y ssa.Instruction) bool {
	k, ax, ay, ok := inCommonFrame(fx, x, fy, y)
	if !ok || !pointer.Dominates(ax, ay) {
		return false
	}
	// x's own function, and each callee between, always reaches x.
	return deeperAlwaysReach(fx, k, x)
}

// unblocks reports whether an operation of kind by completes one of kind k.
func unblocks(k, by shb.Kind) bool {
	switch k {
	case shb.Send:
		return by == shb.Recv
	case shb.Recv:
		return by == shb.Send || by == shb.Close
	case shb.WGWait:
		return by == shb.WGDone
	case shb.CondWait:
		return by == shb.CondSignal
	}
	return false
}

func (c *checker) reportBlocked(hb *shb.Result, b blocked) {
	ev := b.t.Events[b.ev]
	o := b.others[0]
	oev := o.t.Events[o.ev]
	what := map[shb.Kind]string{shb.Send: "sends on", shb.Recv: "receives from", shb.WGWait: "waits for", shb.CondWait: "waits on"}[ev.Kind]
	by := map[shb.Kind]string{shb.Send: "send", shb.Recv: "receive", shb.Close: "close", shb.WGDone: "Done", shb.CondSignal: "Signal"}[oev.Kind]
	name := hb.Locks.Name(b.lock)
	if name == "" {
		name = "a mutex"
	}
	// Where this goroutine took the lock, where the other one needs it:
	// its operation, and the Lock it must pass first, if any.
	var rel []analysis.RelatedInformation
	h, locked := c.heldAs(ev.Instr, name)
	if locked {
		rel = c.heldAt(h, "%s locked here", name)
	}
	rel = append(rel, c.related(oev.Instr.Pos(), "the %s that would unblock it (%s)", by, o.t.Origin.Describe(c.pass.Fset))...)
	partnerLocks := func(format string, args ...any) {
		rel = append(rel, c.otherSide(o.t.Events[o.acquire].Instr.Pos(), format, args...)...)
	}
	// It blocks while the other goroutine waits in its Lock, or has not
	// come to its operation.
	if o.acquire >= 0 {
		c.partner(ev.Instr.Pos(), o.t, o.acquire)
	} else {
		c.partner(ev.Instr.Pos(), o.t, o.ev)
	}
	if o.acquire >= 0 && o.how != lockViaWait {
		c.partner(o.t.Events[o.acquire].Instr.Pos(), b.t, b.ev)
	}
	if o.acquire >= 0 && o.how == lockViaWait {
		v := o.via[0]
		vev := v.t.Events[v.ev]
		vby := map[shb.Kind]string{shb.Send: "send", shb.Close: "close"}[vev.Kind]
		rel = append(rel, c.related(o.t.Events[o.acquire].Instr.Pos(), "it first waits here")...)
		// The third goroutine waits in its Lock.
		rel = append(rel, c.otherSide(v.t.Events[v.acquire].Instr.Pos(), "the %s that would end that wait locks %s here first (%s)", vby, name, v.t.Origin.Describe(c.pass.Fset))...)
		c.partner(v.t.Events[v.acquire].Instr.Pos(), b.t, b.ev)
		c.report(kinds.BlockingWhileHoldingLock, ev.Instr.Pos(), rel, "blocking while holding a lock: %s %s %s at %s while holding %s%s; the %s that would unblock it (at %s, %s) comes after a receive (at %s) whose %s (at %s, %s) must first lock %s (at %s): if this goroutine locks it first, all block forever (deadlock)",
			b.t.Origin.Describe(c.pass.Fset), what, objName(ev), c.pos(ev.Instr.Pos()), name, c.lockedAt(ev.Instr, name),
			by, c.pos(oev.Instr.Pos()), o.t.Origin.Describe(c.pass.Fset), c.pos(o.t.Events[o.acquire].Instr.Pos()),
			vby, c.pos(vev.Instr.Pos()), v.t.Origin.Describe(c.pass.Fset), name, c.pos(v.t.Events[v.acquire].Instr.Pos()))
		return
	}
	if o.acquire >= 0 && o.how == lockInCase {
		partnerLocks("the select's other way out locks %s here", name)
		c.report(kinds.BlockingWhileHoldingLock, ev.Instr.Pos(), rel, "blocking while holding a lock: %s %s %s at %s while holding %s%s; the %s that would unblock it (at %s, %s) is a case of a select in a loop whose other way out locks %s (at %s): if that goroutine is waiting there for %s, both block forever (deadlock)",
			b.t.Origin.Describe(c.pass.Fset), what, objName(ev), c.pos(ev.Instr.Pos()), name, c.lockedAt(ev.Instr, name),
			by, c.pos(oev.Instr.Pos()), o.t.Origin.Describe(c.pass.Fset), name, c.pos(o.t.Events[o.acquire].Instr.Pos()), name)
		return
	}
	if o.acquire >= 0 && o.how == lockInLoop {
		partnerLocks("its loop locks %s here, before the %s", name, by)
		c.report(kinds.BlockingWhileHoldingLock, ev.Instr.Pos(), rel, "blocking while holding a lock: %s %s %s at %s while holding %s%s; the %s that would unblock it (at %s, %s) comes after a loop that locks %s (at %s): if that goroutine is in the loop waiting for %s, both block forever (deadlock)",
			b.t.Origin.Describe(c.pass.Fset), what, objName(ev), c.pos(ev.Instr.Pos()), name, c.lockedAt(ev.Instr, name),
			by, c.pos(oev.Instr.Pos()), o.t.Origin.Describe(c.pass.Fset), name, c.pos(o.t.Events[o.acquire].Instr.Pos()), name)
		return
	}
	if o.acquire >= 0 && o.how == lockAgain {
		partnerLocks("its loop locks %s here, after the %s", name, by)
		c.report(kinds.BlockingWhileHoldingLock, ev.Instr.Pos(), rel, "blocking while holding a lock: %s %s %s at %s while holding %s%s; the %s that would unblock it (at %s, %s) runs in a loop that locks %s after it (at %s): from the loop's second run on it must lock %s first, so if this goroutine locks it first, both block forever (deadlock)",
			b.t.Origin.Describe(c.pass.Fset), what, objName(ev), c.pos(ev.Instr.Pos()), name, c.lockedAt(ev.Instr, name),
			by, c.pos(oev.Instr.Pos()), o.t.Origin.Describe(c.pass.Fset), name, c.pos(o.t.Events[o.acquire].Instr.Pos()), name)
		return
	}
	if o.acquire >= 0 {
		partnerLocks("the other goroutine locks %s here, before the %s", name, by)
		c.report(kinds.BlockingWhileHoldingLock, ev.Instr.Pos(), rel, "blocking while holding a lock: %s %s %s at %s while holding %s%s; the %s that would unblock it (at %s, %s) must first lock %s (at %s): if this goroutine locks it first, both block forever (deadlock)",
			b.t.Origin.Describe(c.pass.Fset), what, objName(ev), c.pos(ev.Instr.Pos()), name, c.lockedAt(ev.Instr, name),
			by, c.pos(oev.Instr.Pos()), o.t.Origin.Describe(c.pass.Fset), name, c.pos(o.t.Events[o.acquire].Instr.Pos()))
		return
	}
	c.report(kinds.BlockingWhileHoldingLock, ev.Instr.Pos(), rel, "blocking while holding a lock: %s %s %s at %s while holding %s%s; the %s that would unblock it (at %s, %s) runs with %s held too, so whichever goroutine locks it first, both block forever (deadlock)",
		b.t.Origin.Describe(c.pass.Fset), what, objName(ev), c.pos(ev.Instr.Pos()), name, c.lockedAt(ev.Instr, name),
		by, c.pos(oev.Instr.Pos()), o.t.Origin.Describe(c.pass.Fset), name)
}

// objName names the channel or WaitGroup of a synchronization event.
func objName(ev shb.Event) string {
	var v ssa.Value
	switch instr := ev.Instr.(type) {
	case *ssa.Send:
		v = instr.Chan
	case *ssa.UnOp:
		v = instr.X
	case ssa.CallInstruction:
		if args := instr.Common().Args; len(args) > 0 {
			v = args[0]
		}
	}
	if v != nil {
		if name := shb.ExprName(v); name != "" {
			return name
		}
	}
	return "a channel"
}

// lockedAt says where the function of instr locked the mutex it knows as
// name, when it did.
func (c *checker) lockedAt(instr ssa.Instruction, name string) string {
	if h, ok := c.heldAs(instr, name); ok {
		return " (locked at " + c.where(h) + ")"
	}
	return ""
}

// heldAs returns the lock that the function of instr holds there and
// knows as name.
func (c *checker) heldAs(instr ssa.Instruction, name string) (lockset.Held, bool) {
	for _, h := range c.ls.Before(instr) {
		if lockName(h) == name && !h.Unsure {
			return h, true
		}
	}
	return lockset.Held{}, false
}
