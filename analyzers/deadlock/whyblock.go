package deadlock

import (
	"fmt"
	"slices"

	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
)

// What -why says of the channel operations, WaitGroup.Waits and
// Cond.Waits that are no blocking while holding a lock.

// opWords says what a goroutine does at a blocking operation of kind k.
func opWords(k shb.Kind) string {
	switch k {
	case shb.Send:
		return "sends on"
	case shb.Recv:
		return "receives from"
	case shb.WGWait:
		return "waits for"
	case shb.CondWait:
		return "waits on"
	}
	return "uses"
}

// noteBlocked notes the verdict rule on event ev of t, an operation that
// may block while holding the mutex at location lock.
func (c *checker) noteBlocked(hb *shb.Result, t *shb.Trace, ev shb.Event, lock int32, rule rules.ID, detail string) {
	at := ev.Instr.Pos()
	if !c.why.wants(at) {
		return
	}
	c.why.note(at, rule, detail, "blocking while holding a lock: %s %s %s at %s while holding %s%s",
		t.Origin.Describe(c.pass.Fset), opWords(ev.Kind), objName(ev), c.pos(at), c.lockLabel(hb, lock), c.lockedAt(ev.Instr, hb.Locks.Name(lock)))
}

// noteNoWait notes, for an operation ev of t that does not wait for
// another goroutine (by rule), each mutex it holds.
func (c *checker) noteNoWait(hb *shb.Result, t *shb.Trace, ev shb.Event, mutexes map[int32]bool, rule rules.ID, detail string) {
	if !c.why.wants(ev.Instr.Pos()) || opWords(ev.Kind) == "uses" {
		return
	}
	locs, _ := hb.Locks.Members(ev.Locks)
	for _, l := range locs {
		if len(l) == 1 && mutexes[l[0]] {
			c.noteBlocked(hb, t, ev, l[0], rule, detail)
		}
	}
}

// noteUnheld notes, for an operation ev of t that surely blocks, each
// mutex that its function locked before it and does not hold there.
func (c *checker) noteUnheld(hb *shb.Result, t *shb.Trace, ev shb.Event, mutexes map[int32]bool) {
	at := ev.Instr.Pos()
	if !c.why.wants(at) {
		return
	}
	noted := make(map[int32]bool)
	for z := ev.ID - 1; z >= 0; z-- {
		a := t.Events[z]
		if a.Kind != shb.Acquire || a.Obj < 0 || !mutexes[a.Obj] || noted[a.Obj] || a.Instr.Parent() != ev.Instr.Parent() {
			continue
		}
		noted[a.Obj] = true
		if locs, _ := hb.Locks.Members(ev.Locks); slices.ContainsFunc(locs, func(l []int32) bool { return slices.Contains(l, a.Obj) }) {
			continue // held, or perhaps
		}
		name := c.lockLabel(hb, a.Obj)
		c.why.note(at, rules.NotHeld, fmt.Sprintf("%s is locked at %s and unlocked before it", name, c.pos(a.Instr.Pos())),
			"blocking while holding a lock: %s %s %s at %s", t.Origin.Describe(c.pass.Fset), opWords(ev.Kind), objName(ev), c.pos(at))
	}
}
