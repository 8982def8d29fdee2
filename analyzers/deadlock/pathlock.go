package deadlock

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"

	"github.com/origo-dev/origo/analyzers/internal/blocks"
	"github.com/origo-dev/origo/analyzers/kinds"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// A Lock that some path, not every path, leads to with the mutex still
// held: a continue or break that skips the Unlock and goes around the
// loop to the Lock again.
//
//	for i := range 2 {
//		p.mu.Lock()
//		if err != nil {
//			continue // the Unlock below is skipped
//		}
//		p.mu.Unlock()
//	}
//
// The must-held locksets do not see it: at the Lock, the mutex is held
// on one path in only. A path from a Lock of the function back to a Lock
// of the same mutex that neither unlocks it nor returns is the bug.

// relocks reports, in fn, a Lock that a path from another Lock of the
// same mutex (or itself, around a loop) reaches without an Unlock. With
// -why, the Locks reached that are no such double lock are noted with
// the rule that ruled them out.
func (c *checker) relocks(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		for i, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			op, mu := syncapi.MutexOp(call.Common())
			if op != syncapi.Lock {
				continue
			}
			key := lockset.Key(mu)
			var rule rules.ID
			var detail string
			switch name := cmp.Or(shb.ExprName(mu), "the mutex"); {
			case call.Call.IsInvoke():
				// A Locker may be an RLocker the analysis did not see made.
				rule, detail = rules.DynamicCall, fmt.Sprintf("%s is a sync.Locker, locked through the interface", name)
			case !key.Rooted() && !fixedLocal(mu):
				// parent.mu of each parent in turn: another mutex each time around.
				rule, detail = rules.OtherInstance, fmt.Sprintf("%s may be another mutex each time around the loop", name)
			case !unlocksIn(fn, key):
				// Another goroutine unlocks it: the mutex is handed over, not left held.
				rule, detail = rules.LockHandover, fmt.Sprintf("%s never unlocks %s itself", fn.Name(), name)
			}
			if rule != "" && c.why == nil {
				continue
			}
			again := c.lockedAgain(b, i+1, key)
			if again == nil {
				continue
			}
			agains := []*ssa.Call{again}
			if c.why != nil {
				// Each Lock a path reaches first, for its verdict; only
				// the first found is reported.
				agains = append(agains, slices.DeleteFunc(c.lockedAgainAll(b, i+1, key), func(x *ssa.Call) bool { return x == again })...)
			}
			for _, x := range agains {
				if _, held := c.ls.Before(x).Find(key); held {
					continue // held on every path: a double lock reported as such
				}
				rule, detail := rule, detail
				if _, xmu := syncapi.MutexOp(x.Common()); rule == "" && differentElements(mu, xmu) {
					// envs[0].mu, then envs[i].mu with i from 1.
					rule, detail = rules.OtherElements, fmt.Sprintf("%s and %s are the mutexes of elements at indices that never meet", shb.ExprName(mu), shb.ExprName(xmu))
				}
				if rule == "" && flagGuarded(x.Block()) {
					// if !lockHeld { mu.Lock() }: the flag says which path.
					rule, detail = rules.LockFlag, "the Lock is on one branch of an if on a boolean variable"
				}
				name := shb.ExprName(mu)
				if rule != "" {
					c.why.note(x.Pos(), rule, detail, "double lock on some paths: %s is locked at %s on a path from the Lock at %s that skips every Unlock",
						cmp.Or(name, "the mutex"), c.pos(x.Pos()), c.pos(call.Pos()))
					continue
				}
				if x == again {
					c.report(kinds.DoubleLock, again.Pos(), c.related(call.Pos(), "%s locked here first, on a path that skips every Unlock", cmp.Or(name, "the mutex")), "double lock on some paths: %s is locked at %s while still held on a path from the Lock at %s that skips every Unlock (a continue, break or goto around it); sync.Mutex is not reentrant, this blocks forever",
						name, c.pos(again.Pos()), c.pos(call.Pos()))
				}
			}
		}
	}
}

// lockedAgain returns the first Lock of the mutex key that a path from
// instruction i of block b reaches without unlocking it, returning or
// panicking; nil when there is none.
func (c *checker) lockedAgain(b *ssa.BasicBlock, i int, key facts.Key) *ssa.Call {
	var again *ssa.Call
	searchPaths(b, i, func(instr ssa.Instruction) (found, stop bool) {
		call, ok := instr.(*ssa.Call)
		if !ok {
			return false, false
		}
		op, mu := syncapi.MutexOp(call.Common())
		switch {
		case op == syncapi.Lock && lockset.Key(mu) == key:
			again = call
			return true, false
		case op != syncapi.NoLockOp && lockset.Key(mu) == key:
			return false, true // Unlock, or a TryLock or RLock that decides otherwise
		case op == syncapi.NoLockOp && releases(c.ls.Releases(call.Common()), key):
			return false, true
		}
		return false, false
	})
	return again
}

// lockedAgainAll returns each Lock of the mutex key that a path from
// instruction i of block b reaches first, without unlocking it,
// returning or panicking (see lockedAgain).
func (c *checker) lockedAgainAll(b *ssa.BasicBlock, i int, key facts.Key) []*ssa.Call {
	var agains []*ssa.Call
	searchPaths(b, i, func(instr ssa.Instruction) (found, stop bool) {
		call, ok := instr.(*ssa.Call)
		if !ok {
			return false, false
		}
		op, mu := syncapi.MutexOp(call.Common())
		switch {
		case op == syncapi.Lock && lockset.Key(mu) == key:
			if !slices.Contains(agains, call) {
				agains = append(agains, call)
			}
			return false, true
		case op != syncapi.NoLockOp && lockset.Key(mu) == key:
			return false, true
		case op == syncapi.NoLockOp && releases(c.ls.Releases(call.Common()), key):
			return false, true
		}
		return false, false
	})
	return agains
}

// fixedLocal reports whether mutex value mu is reached from a value of
// the function that stays the same around its loops: a variable or an
// allocation made outside any loop, not a phi that a loop steps.
func fixedLocal(mu ssa.Value) bool {
	for {
		switch v := mu.(type) {
		case *ssa.FieldAddr:
			mu = v.X
			continue
		case *ssa.UnOp:
			if v.Op == token.MUL {
				mu = v.X
				continue
			}
		case *ssa.Alloc:
			return !blocks.OnCycle(v.Block())
		}
		return false
	}
}

// unlocksIn reports whether fn unlocks the mutex key itself somewhere.
func unlocksIn(fn *ssa.Function, key facts.Key) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				if op, mu := syncapi.MutexOp(call.Common()); op == syncapi.Unlock && lockset.Key(mu) == key {
					return true
				}
			}
		}
	}
	return false
}

// flagGuarded reports whether block b runs on one branch of an if on
// a boolean variable of the function (lockHeld, !hasLock): a flag that
// records whether the mutex is held, which the paths the search follows
// regardless of it may contradict.
func flagGuarded(b *ssa.BasicBlock) bool {
	d := b.Idom()
	if d == nil || len(d.Instrs) == 0 {
		return false
	}
	cond, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
	return ok && boolFlag(cond.Cond, make(map[ssa.Value]bool))
}

// boolFlag reports whether v is a boolean variable's value: constants
// merged by phis, a load of a local variable, or their negation.
func boolFlag(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op == token.NOT {
			return boolFlag(v.X, seen)
		}
		_, local := v.X.(*ssa.Alloc)
		return v.Op == token.MUL && local
	case *ssa.Phi:
		for _, e := range v.Edges {
			if _, ok := e.(*ssa.Const); !ok && !boolFlag(e, seen) {
				return false
			}
		}
		return true
	}
	return false
}

func releases(keys []facts.Key, key facts.Key) bool {
	for _, k := range keys {
		if k == key {
			return true
		}
	}
	return false
}
