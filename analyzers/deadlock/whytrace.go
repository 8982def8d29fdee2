package deadlock

import (
	"fmt"

	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// What -why says of the Locks that the goroutines' traces find no
// deadlock at: a Lock reached through a function value or an interface,
// a Lock after a goroutine returned, a Lock after a lock left held.

// noteDynamicRelock notes an Acquire event ev of t, reached through the
// call of a function value or an interface method via, that is no
// double lock: its mutex is not held for writing there (held false), or
// may be another object's.
func (c *checker) noteDynamicRelock(hb *shb.Result, t *shb.Trace, ev shb.Event, via ssa.CallInstruction, readRead, held bool) {
	at := ev.Instr.Pos()
	if !c.why.wants(at) {
		return
	}
	name := c.lockLabel(hb, ev.Obj)
	what, article := "function value", "a"
	if via.Common().IsInvoke() {
		what, article = "interface method", "an"
	}
	rule, detail := rules.NotHeld, fmt.Sprintf("the caller of the %s called at %s does not hold %s", what, c.pos(via.Pos()), name)
	switch {
	case held:
		rule, detail = rules.OtherInstance, fmt.Sprintf("%s is not made once by the goroutine's function, outside loops: it may be another object's", name)
	case readRead:
		rule, detail = rules.ReadLocks, fmt.Sprintf("the caller of the %s called at %s holds %s for reading only", what, c.pos(via.Pos()), name)
	}
	c.why.note(at, rule, detail, "double lock through %s %s: %s is locked at %s (%s)", article, what, name, c.pos(at), t.Origin.Describe(c.pass.Fset))
}

// noteEnds notes, for -why, each Acquire of a goroutine the package
// starts whose mutex it does not hold when it returns: no lock kept by
// a returned goroutine.
func (c *checker) noteEnds(hb *shb.Result, t *shb.Trace) {
	if c.why == nil || t.Origin.Parent == nil || t.Truncated {
		return
	}
	ends, _ := hb.Locks.Members(t.EndLocks)
	kept := make(map[int32]bool)
	for _, l := range ends {
		for _, x := range l {
			kept[x] = true
		}
	}
	for _, ev := range t.Events {
		if ev.Kind != shb.Acquire || ev.Obj < 0 || kept[ev.Obj] || !c.why.wants(ev.Instr.Pos()) {
			continue
		}
		name := c.lockLabel(hb, ev.Obj)
		c.why.note(ev.Instr.Pos(), rules.NotHeld, fmt.Sprintf("it does not hold %s when it returns", name),
			"lock kept by a returned goroutine: %s locks %s at %s", t.Origin.Describe(c.pass.Fset), name, c.pos(ev.Instr.Pos()))
	}
}

// noteKept notes the verdict on a Lock, own, of the mutex at location
// lock that goroutine t returns holding.
func (c *checker) noteKept(hb *shb.Result, t *shb.Trace, own acquireRef, lock int32, rule rules.ID, detail string) {
	at := own.t.Events[own.ev].Instr.Pos()
	if !c.why.wants(at) {
		return
	}
	c.why.note(at, rule, detail, "lock kept by a returned goroutine: %s locks %s at %s and returns holding it",
		t.Origin.Describe(c.pass.Fset), c.lockLabel(hb, lock), c.pos(at))
}

// noteKeptLock notes the verdict on another goroutine's Lock a of the
// mutex at location lock that goroutine t returns holding.
func (c *checker) noteKeptLock(hb *shb.Result, t *shb.Trace, a acquireRef, lock int32, rule rules.ID, detail string) {
	at := a.t.Events[a.ev].Instr.Pos()
	if !c.why.wants(at) {
		return
	}
	c.why.note(at, rule, detail, "lock kept by a returned goroutine: %s locks %s at %s, which %s returns holding",
		a.t.Origin.Describe(c.pass.Fset), c.lockLabel(hb, lock), c.pos(at), t.Origin.Describe(c.pass.Fset))
}

// noteSequel notes the verdict on a Lock a of the mutex that the call
// site of fn, or the goroutine of fn, may leave held (lh).
func (c *checker) noteSequel(a acquireRef, lh leftHeld, site ssa.CallInstruction, rule rules.ID, detail string) {
	at := a.t.Events[a.ev].Instr.Pos()
	if !c.why.wants(at) {
		return
	}
	by := lh.fn.Name()
	if site != nil {
		by += fmt.Sprintf(", called at %s", c.pos(site.Pos()))
	}
	c.why.note(at, rule, detail, "Lock after a lock left held: %s is locked at %s (%s) after %s, which may return holding it (at %s)",
		lockName(lh.h), c.pos(at), a.t.Origin.Describe(c.pass.Fset), by, c.where(lh.h))
}
