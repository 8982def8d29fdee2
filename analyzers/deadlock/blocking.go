package deadlock

import (
	"slices"

	"github.com/origo-dev/origo/passes/shb"
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
}

// blockingOps reports a goroutine that blocks on a channel operation or
// WaitGroup.Wait while holding a mutex that every goroutine able to
// unblock it holds at the operation that would: whichever locks the
// mutex first, neither proceeds.
//
// Only operations that surely block count: a send on a channel the
// package makes unbuffered, a receive from a channel the package makes,
// a Wait; never a select case, which another case may complete. The
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
			case shb.Send, shb.Recv, shb.Close, shb.WGDone, shb.WGWait:
				if ev.Obj >= 0 {
					byObj[ev.Obj] = append(byObj[ev.Obj], other{t, ev.ID})
				}
			}
		}
	}
	var found []blocked
	seen := make(map[ssa.Instruction]bool)
	pairs := make(map[[2]ssa.Instruction]bool) // one report for two goroutines blocking each other
	for _, t := range hb.Traces {
		for _, ev := range t.Events {
			if ev.Obj < 0 || ev.Select || seen[ev.Instr] || !c.surelyBlocks(hb, ev) {
				continue
			}
			if _, isSelect := ev.Instr.(*ssa.Select); isSelect {
				continue
			}
			locs, reads := hb.Locks.Members(ev.Locks)
			for i, l := range locs {
				if len(l) != 1 || !mutexes[l[0]] {
					continue
				}
				others := unblockers(hb, t, ev, byObj[ev.Obj], l[0], reads[i])
				if len(others) == 0 {
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
	case shb.WGWait:
		return true
	}
	return false
}

// unblockers returns the events of other goroutines that would unblock
// event ev of t, when there are some and each holds lock (for writing,
// if ev holds it only for reading); nil otherwise.
func unblockers(hb *shb.Result, t *shb.Trace, ev shb.Event, candidates []other, lock int32, read bool) []other {
	var out []other
	for _, o := range candidates {
		oe := o.t.Events[o.ev]
		if !unblocks(ev.Kind, oe.Kind) {
			continue
		}
		if o.t == t {
			return nil // it may well be the one (a loop handing to itself is no deadlock we can tell)
		}
		locs, reads := hb.Locks.Members(oe.Locks)
		i := slices.IndexFunc(locs, func(l []int32) bool { return len(l) == 1 && l[0] == lock })
		if i < 0 || read && reads[i] {
			return nil
		}
		out = append(out, o)
	}
	return out
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
	}
	return false
}

func (c *checker) reportBlocked(hb *shb.Result, b blocked) {
	ev := b.t.Events[b.ev]
	o := b.others[0]
	oev := o.t.Events[o.ev]
	what := map[shb.Kind]string{shb.Send: "sends on", shb.Recv: "receives from", shb.WGWait: "waits for"}[ev.Kind]
	by := map[shb.Kind]string{shb.Send: "send", shb.Recv: "receive", shb.Close: "close", shb.WGDone: "Done"}[oev.Kind]
	name := hb.Locks.Name(b.lock)
	if name == "" {
		name = "a mutex"
	}
	c.report(ev.Instr.Pos(), "blocking while holding a lock: %s %s %s at %s while holding %s%s; the %s that would unblock it (at %s, %s) runs with %s held too, so whichever goroutine locks it first, both block forever",
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
	for _, h := range c.ls.Before(instr) {
		if lockName(h) == name && !h.Unsure {
			return " (locked at " + c.where(h) + ")"
		}
	}
	return ""
}
