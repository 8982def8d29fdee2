package deadlock

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/analyzers/internal/posn"
	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"
)

// acquireRef is an event of a trace: a Lock or RLock, or another
// synchronization event.
type acquireRef struct {
	t  *shb.Trace
	ev int32
}

// eventsByObject returns the events of kind on one known object, by the
// object.
func eventsByObject(hb *shb.Result, kind shb.Kind) map[int32][]acquireRef {
	by := make(map[int32][]acquireRef)
	for _, t := range hb.Traces {
		for _, ev := range t.Events {
			if ev.Kind == kind && ev.Obj >= 0 {
				by[ev.Obj] = append(by[ev.Obj], acquireRef{t, ev.ID})
			}
		}
	}
	return by
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
	byLock := eventsByObject(hb, shb.Acquire)
	reported := make(map[ssa.Instruction]bool)
	pairs := make(map[[2]*shb.Trace]bool) // one report per blocked goroutine and holder
	for _, t := range hb.Traces {
		c.noteEnds(hb, t)
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
			if own == nil {
				continue
			}
			if u, ok := unlockedByOther(hb, t, l[0]); ok {
				c.noteKept(hb, t, *own, l[0], rules.LockHandover, fmt.Sprintf("%s unlocks it without locking it", u.Origin.Describe(c.pass.Fset)))
				continue
			}
			if call, ok := own.t.Events[own.ev].Instr.(ssa.CallInstruction); ok && lockHelperCall(call) {
				// Taken inside another package's function, a lock helper
				// (s.Read() returning a read transaction): what releases
				// it, tx.End() through an interface, is beyond the facts.
				c.noteKept(hb, t, *own, l[0], rules.DynamicCall, fmt.Sprintf("%s locks it inside; what unlocks it may be called through an interface", calleeName(call.Common())))
				continue
			}
			for _, a := range byLock[l[0]] {
				ev := a.t.Events[a.ev]
				if a.t == t || reported[ev.Instr] || pairs[[2]*shb.Trace{t, a.t}] {
					continue
				}
				if reads[i] && ev.Read {
					c.noteKeptLock(hb, t, a, l[0], rules.ReadLocks, "the goroutine keeps it read-locked, and this is a read lock")
					continue
				}
				if !a.t.Origin.SameProgram(t.Origin) {
					c.noteKeptLock(hb, t, a, l[0], rules.OtherProgram, shb.ProgramsApart(c.pass.Fset, a.t.Origin, t.Origin))
					continue // another program's
				}
				if c.order.HappensBefore(a.t, a.ev, t, own.ev, false) {
					// Locked and, as t could lock it, unlocked before.
					c.noteKeptLock(hb, t, a, l[0], rules.HappensBefore, c.order.Explain(c.pass.Fset, rules.HappensBefore, a.t, a.ev, t, own.ev))
					continue
				}
				reported[ev.Instr], pairs[[2]*shb.Trace{t, a.t}] = true, true
				c.reportEndsHolding(hb, t, *own, a, l[0], reads[i])
			}
		}
	}
}

// unlockedByOther returns a goroutine other than t that may unlock the
// mutex at lock without holding it: t hands it over.
func unlockedByOther(hb *shb.Result, t *shb.Trace, lock int32) (*shb.Trace, bool) {
	for _, u := range hb.Traces {
		if u != t && u.UnlocksUnheld(lock) {
			return u, true
		}
	}
	return nil, false
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
	c.report(kinds.LockKeptByReturned, a.t.Events[a.ev].Instr.Pos(), rel, "lock kept by a returned goroutine: this %s of %s blocks forever once the goroutine started at %s has returned; it returns with %s still %s (at %s) on every path, and nothing unlocks it after",
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

// leftHeldSequels reports the Locks that a lock left held blocks: after
// a call of a function that returns still holding a mutex (reported as
// "lock left held"), with no Unlock of it in the caller after the call,
// each later Lock of the same mutex, in the caller's goroutine or in one
// started after the call, blocks forever on that path.
func (c *checker) leftHeldSequels(hb *shb.Result) {
	if len(c.leftHeld) == 0 {
		return
	}
	byLock := eventsByObject(hb, shb.Acquire)
	reported := make(map[ssa.Instruction]bool)
	for _, lh := range c.leftHeld {
		for _, t := range hb.Traces {
			for _, ev := range t.Events {
				var sites []ssa.CallInstruction
				if lh.call != nil {
					// The call of another package's function, whose lock
					// is an Acquire at the call: the caller may unlock
					// after it, or choose the path by a constant.
					if ev.Kind != shb.Acquire || ev.Obj < 0 || ev.Instr != lh.call {
						continue
					}
					if rule, detail := c.importedLeaves(hb, t, ev, lh); rule != "" {
						if rule != noCandidate {
							c.noteSequels(byLock, t, ev, lh, lh.call, rule, detail)
						}
						continue
					}
					sites = []ssa.CallInstruction{lh.call}
				} else {
					// The left Lock, where a caller's goroutine calls fn.
					if ev.Kind != shb.Acquire || ev.Obj < 0 || ev.Instr.Pos() != lh.h.Pos || ev.Instr.Parent() != lh.fn {
						continue
					}
					if t.Origin.Parent != nil && t.Origin.Entry == lh.fn {
						// fn is the goroutine's own function: it ends holding
						// the mutex, and nothing of its own comes after.
						c.endsLeftHeld(byLock, t, ev, lh, reported)
						continue
					}
					// The call that left it held: the one of the event's
					// chain, or, when the event stands for several, each.
					sites, _ = c.staticCalls(lh.fn)
					if call, ok := c.callerSite(t, ev.ID, lh.fn); ok {
						sites = []ssa.CallInstruction{call}
					}
					if len(sites) == 0 {
						continue
					}
					if i := slices.IndexFunc(sites, func(call ssa.CallInstruction) bool { return c.callerUnlocks(call, lh.h) }); i >= 0 {
						c.noteSequels(byLock, t, ev, lh, sites[i], rules.NotHeld, fmt.Sprintf("the caller unlocks %s after the call at %s", lockName(lh.h), c.pos(sites[i].Pos())))
						continue
					}
					if i := slices.IndexFunc(sites, func(call ssa.CallInstruction) bool { return decidesBranch(call, lh.fn) }); i >= 0 {
						c.noteSequels(byLock, t, ev, lh, sites[i], rules.LockParam, fmt.Sprintf("the call at %s passes a constant that %s tests, which may pick a path that unlocks", c.pos(sites[i].Pos()), lh.fn.Name()))
						continue
					}
				}
				for _, a := range byLock[ev.Obj] {
					ae := a.t.Events[a.ev]
					after := a.t == t && a.ev > ev.ID || a.t != t && c.order.HappensBefore(t, ev.ID, a.t, a.ev, false)
					if ae.Instr.Parent() == lh.fn || !after || !posn.InFiles(c.pass, ae.Instr.Pos()) {
						continue
					}
					if lh.h.Read && ae.Read {
						c.noteSequel(a, lh, sites[0], rules.ReadLocks, "it is left read-locked, and this is a read lock")
						continue
					}
					c.blockedIn.Add(ae.Instr.Pos(), a.t)
					if reported[ae.Instr] {
						continue
					}
					reported[ae.Instr] = true
					call := sites[0]
					for _, s := range sites {
						if s.Parent() == ae.Instr.Parent() {
							call = s
						}
					}
					name, ret := lh.fn.Name(), c.pos(lh.ret)
					if lh.call != nil {
						name, ret = facts.ShortName(lh.fn.String()), c.where(lh.h)
					}
					rel := append(c.related(lh.ret, "%s returns here holding it", name), c.related(call.Pos(), "called here")...)
					c.report(kinds.LockAfterLeftHeld, ae.Instr.Pos(), rel, "Lock blocks forever (deadlock): %s is left locked by %s (lock left held at %s), called at %s before this Lock, on the paths that return so",
						lockName(lh.h), name, ret, c.pos(call.Pos()))
				}
			}
		}
	}
}

// endsLeftHeld reports, for a goroutine whose own function fn returns
// still holding a mutex on some path (lock left held at lh), each other
// goroutine's Lock of it that does not happen before the goroutine's
// Lock ev: it may come after, and then blocks forever.
func (c *checker) endsLeftHeld(byLock map[int32][]acquireRef, t *shb.Trace, ev shb.Event, lh leftHeld, reported map[ssa.Instruction]bool) {
	for _, a := range byLock[ev.Obj] {
		ae := a.t.Events[a.ev]
		if a.t == t || ae.Instr.Parent() == lh.fn || !posn.InFiles(c.pass, ae.Instr.Pos()) {
			continue
		}
		if lh.h.Read && ae.Read {
			c.noteSequel(a, lh, nil, rules.ReadLocks, "it is left read-locked, and this is a read lock")
			continue
		}
		if !a.t.Origin.SameProgram(t.Origin) {
			c.noteSequel(a, lh, nil, rules.OtherProgram, shb.ProgramsApart(c.pass.Fset, a.t.Origin, t.Origin))
			continue
		}
		if c.order.HappensBefore(a.t, a.ev, t, ev.ID, false) {
			c.noteSequel(a, lh, nil, rules.HappensBefore, c.order.Explain(c.pass.Fset, rules.HappensBefore, a.t, a.ev, t, ev.ID))
			continue
		}
		c.blockedIn.Add(ae.Instr.Pos(), a.t)
		if reported[ae.Instr] {
			continue
		}
		reported[ae.Instr] = true
		c.report(kinds.LockAfterLeftHeld, ae.Instr.Pos(), c.related(lh.ret, "%s returns here holding it", lh.fn.Name()),
			"Lock blocks forever (deadlock): %s may be left locked by %s, which returns at %s still holding it (lock left held), and this Lock may come after",
			lockName(lh.h), t.Origin.Describe(c.pass.Fset), c.pos(lh.ret))
	}
}

// callerSite returns the call of fn through which trace t made event
// ev, in fn's caller.
func (c *checker) callerSite(t *shb.Trace, ev int32, fn *ssa.Function) (ssa.CallInstruction, bool) {
	frames, ok := t.Frames(ev)
	if !ok {
		return nil, false
	}
	for _, f := range frames {
		if f.Fn == fn && f.Site != nil {
			return f.Site, true
		}
	}
	return nil, false
}

// staticCalls returns the package's calls of fn by name, and whether
// those are all its uses: false when fn is also used as a value, whose
// calls are not all seen.
func (c *checker) staticCalls(fn *ssa.Function) (calls []ssa.CallInstruction, byName bool) {
	byName = true
	for _, caller := range c.funcs {
		for _, b := range caller.Blocks {
			for _, instr := range b.Instrs {
				call, isCall := instr.(ssa.CallInstruction)
				if isCall && call.Common().StaticCallee() == fn {
					calls = append(calls, call)
				}
				var ops [8]*ssa.Value
				for j, op := range instr.Operands(ops[:0]) {
					if *op == fn && !(isCall && j == 0) {
						byName = false
					}
				}
			}
		}
	}
	return calls, byName
}

// callerUnlocks reports whether the caller unlocks, after call, the lock
// h that the callee returns holding.
func (c *checker) callerUnlocks(call ssa.CallInstruction, h lockset.Held) bool {
	b := call.Block()
	i := slices.Index(b.Instrs, ssa.Instruction(call))
	for _, t := range c.ls.Takes(call.Common()) {
		if t.Pos == h.Pos && c.unlocksAfter(b, i+1, t.Key) {
			return true
		}
	}
	// What the call returned is handed to a call that unlocks: the
	// lock is the object's until its end (t, err := s.begin(); defer
	// t.end()).
	v, ok := call.(*ssa.Call)
	if !ok {
		return false
	}
	return searchPaths(b, i+1, func(instr ssa.Instruction) (found, stop bool) {
		later, ok := instr.(ssa.CallInstruction)
		if !ok || !slices.ContainsFunc(later.Common().Args, func(a ssa.Value) bool { return resultOf(a, v) }) {
			return false, false
		}
		return len(c.ls.Releases(later.Common())) > 0, false
	})
}

// resultOf reports whether a is one of call's results.
func resultOf(a ssa.Value, call *ssa.Call) bool {
	if a == call {
		return true
	}
	x, ok := a.(*ssa.Extract)
	return ok && x.Tuple == call
}

// decidesBranch reports whether call passes a constant for a parameter
// of fn that a branch of fn tests: which of fn's returns it reaches is
// the caller's choice (reset(true) may be the path that unlocks).
func decidesBranch(call ssa.CallInstruction, fn *ssa.Function) bool {
	args := call.Common().Args
	for i, p := range fn.Params {
		if i >= len(args) {
			break
		}
		if _, ok := args[i].(*ssa.Const); !ok {
			continue
		}
		for _, use := range *p.Referrers() {
			switch use := use.(type) {
			case *ssa.If:
				return true
			case *ssa.BinOp, *ssa.UnOp:
				for _, u := range *use.(ssa.Value).Referrers() {
					if _, ok := u.(*ssa.If); ok {
						return true
					}
				}
			}
		}
	}
	return false
}

// lockHelperCall reports whether call is no Lock or RLock but a call
// of a function that locks inside.
func lockHelperCall(call ssa.CallInstruction) bool {
	op, _ := syncapi.MutexOp(call.Common())
	return op == syncapi.NoLockOp
}

// noCandidate is the rule importedLeaves returns for an Acquire that is
// not of the mutex a call left held: nothing to note.
const noCandidate rules.ID = "-"

// importedLeaves returns "" when Acquire event ev at lh.call, a call of
// another package's function that returns holding lh.h on some paths,
// is of that mutex, and the caller neither unlocks it after the call
// nor passes a constant that may pick the path (the callee's branches
// are not in view); else the rule by which what follows is no deadlock,
// or noCandidate when ev is of another mutex.
func (c *checker) importedLeaves(hb *shb.Result, t *shb.Trace, ev shb.Event, lh leftHeld) (rules.ID, string) {
	locs := c.ptr.PointsToIn(t.Origin, lh.h.Value)
	if !lh.h.Path.IsEmpty() {
		locs = c.ptr.PointsToPath(t.Origin, lh.h.Value, lh.h.Path)
	}
	if !slices.Contains(locs, hb.Location(ev.Obj)) {
		return noCandidate, ""
	}
	call := lh.call
	if c.unlocksAfter(call.Block(), slices.Index(call.Block().Instrs, ssa.Instruction(call))+1, lh.h.Key) {
		return rules.NotHeld, fmt.Sprintf("the caller unlocks %s after the call at %s", lockName(lh.h), c.pos(call.Pos()))
	}
	if slices.ContainsFunc(call.Call.Args, func(a ssa.Value) bool {
		k, ok := a.(*ssa.Const)
		return ok && k.Value != nil && k.Value.Kind() == constant.Bool
	}) {
		return rules.LockParam, fmt.Sprintf("the call at %s passes a constant bool, which may pick a path that unlocks", c.pos(call.Pos()))
	}
	return "", ""
}

// noteSequels notes, for -why, the Locks of the mutex left held at
// event ev of t (see leftHeldSequels) that come after it, with the rule
// by which they do not block: the call site does not leave it held.
func (c *checker) noteSequels(byLock map[int32][]acquireRef, t *shb.Trace, ev shb.Event, lh leftHeld, site ssa.CallInstruction, rule rules.ID, detail string) {
	if c.why == nil {
		return
	}
	for _, a := range byLock[ev.Obj] {
		ae := a.t.Events[a.ev]
		after := a.t == t && a.ev > ev.ID || a.t != t && c.order.HappensBefore(t, ev.ID, a.t, a.ev, false)
		if ae.Instr.Parent() == lh.fn || !after || !posn.InFiles(c.pass, ae.Instr.Pos()) {
			continue
		}
		c.noteSequel(a, lh, site, rule, detail)
	}
}
