package deadlock

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"
)

// acquireRef is a Lock or RLock event of a trace.
type acquireRef struct {
	t  *shb.Trace
	ev int32
}

// endsHolding reports a Lock that blocks forever because a goroutine
// the package starts returns still holding the mutex: it locked it
// itself (an RLock on a path that returns early, a lock helper called
// through an interface), its function leaves it held on every return,
// and no goroutine can lock it again after that. The report is at each
// other goroutine's conflicting Lock (a write lock, or a read lock when
// the goroutine holds it for writing) that the goroutine's own Lock does
// not follow.
func (c *checker) endsHolding(hb *shb.Result) {
	byLock := make(map[int32][]acquireRef)
	for _, t := range hb.Traces {
		for _, ev := range t.Events {
			if ev.Kind == shb.Acquire && ev.Obj >= 0 {
				byLock[ev.Obj] = append(byLock[ev.Obj], acquireRef{t, ev.ID})
			}
		}
	}
	reported := make(map[ssa.Instruction]bool)
	pairs := make(map[[2]*shb.Trace]bool) // one report per blocked goroutine and holder
	for _, t := range hb.Traces {
		if t.EndLocks == 0 || t.Origin.Parent == nil || t.Truncated {
			continue
		}
		locs, reads := hb.Locks.Members(t.EndLocks)
		for i, l := range locs {
			if len(l) != 1 {
				continue
			}
			var own *acquireRef // the goroutine's own Lock of it
			for _, a := range byLock[l[0]] {
				if a.t == t {
					own = &a
					break
				}
			}
			if own == nil || unlockedByOther(hb, t, l[0]) {
				continue
			}
			for _, a := range byLock[l[0]] {
				ev := a.t.Events[a.ev]
				if a.t == t || reads[i] && ev.Read || reported[ev.Instr] || pairs[[2]*shb.Trace{t, a.t}] {
					continue
				}
				if c.order.HappensBefore(a.t, a.ev, t, own.ev, false) {
					continue // locked and, as t could lock it, unlocked before
				}
				reported[ev.Instr], pairs[[2]*shb.Trace{t, a.t}] = true, true
				c.reportEndsHolding(hb, t, *own, a, l[0], reads[i])
			}
		}
	}
}

// unlockedByOther reports whether a goroutine other than t may unlock
// the mutex at lock without holding it: t hands it over.
func unlockedByOther(hb *shb.Result, t *shb.Trace, lock int32) bool {
	for _, u := range hb.Traces {
		if u != t && u.UnlocksUnheld(lock) {
			return true
		}
	}
	return false
}

func (c *checker) reportEndsHolding(hb *shb.Result, holder *shb.Trace, own, a acquireRef, lock int32, read bool) {
	name := c.receiverText(a.t.Events[a.ev].Instr.Pos()) // as the blocked Lock names it
	if name == "" {
		name = hb.Locks.Name(lock)
	}
	if name == "" {
		name = "a mutex"
	}
	how, verb := "locked", "Lock"
	if read {
		how = "read-locked"
	}
	if a.t.Events[a.ev].Read {
		verb = "RLock"
	}
	ownAt := holder.Events[own.ev].Instr.Pos()
	rel := append(c.related(ownAt, "%s %s here", name, how),
		c.related(holder.Origin.Site, "the goroutine is started here")...)
	c.report(a.t.Events[a.ev].Instr.Pos(), rel, "lock kept by a returned goroutine: this %s of %s blocks forever once the goroutine started at %s has returned; it returns with %s still %s (at %s) on every path, and nothing unlocks it after",
		verb, name, c.pos(holder.Origin.Site), name, how, c.pos(ownAt))
}

// receiverText returns the source of the receiver of the method call
// whose parenthesis is at pos ("c.mu" of c.mu.Lock()), or "".
func (c *checker) receiverText(pos token.Pos) string {
	for _, f := range c.pass.Files {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(f, pos, pos)
		for _, n := range path {
			if call, ok := n.(*ast.CallExpr); ok && call.Lparen == pos {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
					return types.ExprString(sel.X)
				}
			}
		}
	}
	return ""
}
