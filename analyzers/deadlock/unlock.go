package deadlock

import (
	"fmt"
	"go/token"
	"slices"

	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/dataflow"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// unlocked is a mutex that is unlocked on every path to a point of a
// function: it was unlocked there (at pos) and not locked since.
type unlocked struct {
	key  facts.Key
	mu   ssa.Value
	pos  token.Pos
	read bool // by RUnlock
}

// unlockedSet is a set of unlocked mutexes, sorted by key.
type unlockedSet []unlocked

func (s unlockedSet) find(key facts.Key) (unlocked, bool) {
	i, ok := slices.BinarySearchFunc(s, key, func(u unlocked, k facts.Key) int { return u.key.Compare(k) })
	if !ok {
		return unlocked{}, false
	}
	return s[i], true
}

func (s unlockedSet) with(u unlocked) unlockedSet {
	i, ok := slices.BinarySearchFunc(s, u.key, func(u unlocked, k facts.Key) int { return u.key.Compare(k) })
	out := slices.Clone(s)
	if ok {
		out[i] = u
		return out
	}
	return slices.Insert(out, i, u)
}

// without returns s less the members keep rejects.
func (s unlockedSet) without(drop func(unlocked) bool) unlockedSet {
	if !slices.ContainsFunc(s, drop) {
		return s
	}
	return slices.DeleteFunc(slices.Clone(s), drop)
}

// meet keeps the mutexes unlocked on both sides, each with the earlier
// place it was unlocked, so that the answer does not depend on the order
// the blocks are visited in.
func meetUnlocked(s, t unlockedSet) unlockedSet {
	var out unlockedSet
	for _, u := range s {
		if v, ok := t.find(u.key); ok {
			if v.pos < u.pos {
				u = v
			}
			out = append(out, u)
		}
	}
	return out
}

// checkUnlocks reports the Unlocks in fn of a mutex that is already
// unlocked on every path to them, directly or by a deferred Unlock that
// runs at a return after the function unlocked the mutex itself: both are
// fatal errors at run time. Only the function's own Lock and Unlock calls
// count: a mutex a function unlocks without locking it is its caller's
// (an ...AndUnlock helper), and a call that may lock it again (a callee
// that takes it, a dynamic call) forgets it.
func (c *checker) checkUnlocks(fn *ssa.Function, defers []*ssa.Defer) {
	if len(fn.Blocks) == 0 || !hasUnlock(fn) {
		return
	}
	// RLock and TryRLock sites by key: recursive read locks unlock twice.
	readLocks := make(map[facts.Key]int)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok {
				if op, mu := syncapi.MutexOp(call.Common()); op == syncapi.RLock || op == syncapi.TryRLock {
					readLocks[lockset.Key(mu)]++
				}
			}
		}
	}
	type finding struct {
		pos  token.Pos
		rel  []analysis.RelatedInformation
		msg  string
		args []any
	}
	var found []finding
	var counted []finding // for -why: repeated RUnlocks that read locks taken elsewhere may balance
	p := dataflow.Forward[unlockedSet]{
		Order: fn.DomPreorder(),
		Round: func() { found, counted = found[:0], counted[:0] },
		Transfer: func(b *ssa.BasicBlock, s unlockedSet) unlockedSet {
			// again returns where the mutex k was already unlocked, if
			// this unlock repeats it. Two RUnlocks balance two read
			// locks: a repeated RUnlock is one too many only when the
			// function read-locks the mutex itself, once; read locks
			// taken elsewhere (by a caller, a helper, another goroutine)
			// are not counted here.
			again := func(k facts.Key, mu ssa.Value, read bool, at token.Pos) (unlocked, bool) {
				prev, ok := s.find(k)
				if ok && differentElements(prev.mu, mu) {
					// envs[i].mu unlocked in the loop, then envs[0].mu.
					c.why.note(at, rules.OtherElements, fmt.Sprintf("%s and %s are the mutexes of elements at indices that never meet", lockName(lockset.Held{Value: prev.mu}), lockName(lockset.Held{Value: mu})),
						"unlock of unlocked mutex: %s is unlocked at %s after the Unlock at %s", lockName(lockset.Held{Value: mu}), c.pos(at), c.pos(prev.pos))
					return prev, false
				}
				if ok && read && prev.read && readLocks[k] != 1 {
					counted = append(counted, finding{pos: at, args: []any{lockName(lockset.Held{Value: prev.mu}), c.pos(prev.pos), readLocks[k]}})
					return prev, false
				}
				return prev, ok
			}
			for _, instr := range b.Instrs {
				held := c.ls.Before(instr)
				s = s.without(func(u unlocked) bool { _, ok := held.Find(u.key); return ok })
				switch instr := instr.(type) {
				case *ssa.Store:
					// A pointer loaded on the way to the mutex may now
					// lead to another one.
					s = s.without(func(u unlocked) bool { return u.key.Path().Loads() })
				case *ssa.Call:
					call := instr.Common()
					op, mu := syncapi.MutexOp(call)
					if op == syncapi.Unlock || op == syncapi.RUnlock {
						k := lockset.Key(mu)
						if !k.Bound() {
							continue
						}
						read := op == syncapi.RUnlock
						if prev, ok := again(k, mu, read, instr.Pos()); ok {
							name := lockName(lockset.Held{Value: mu})
							found = append(found, finding{instr.Pos(), c.related(prev.pos, "%s unlocked here first", name),
								"unlock of unlocked mutex: %s is unlocked at %s, and every path here already unlocked it (at %s) without locking it again; this is a fatal error at run time",
								[]any{name, c.pos(instr.Pos()), c.pos(prev.pos)}})
						}
						s = s.with(unlocked{key: k, mu: mu, pos: instr.Pos(), read: read})
						continue
					}
					s = c.forget(call, op, mu, s)
				case *ssa.RunDefers:
					for i := len(defers) - 1; i >= 0; i-- {
						d := defers[i]
						if !d.Block().Dominates(b) {
							continue
						}
						op, mu := syncapi.MutexOp(&d.Call)
						if op == syncapi.Unlock || op == syncapi.RUnlock {
							k := lockset.Key(mu)
							if prev, ok := again(k, mu, op == syncapi.RUnlock, d.Pos()); ok {
								name := lockName(lockset.Held{Value: mu})
								found = append(found, finding{prev.pos, c.related(d.Pos(), "the Unlock deferred here unlocks %s again when %s returns", name, fn.Name()),
									"unlock of unlocked mutex: %s is unlocked at %s, and the Unlock deferred at %s unlocks it again when %s returns; this is a fatal error at run time",
									[]any{name, c.pos(prev.pos), c.pos(d.Pos()), fn.Name()}})
							}
							continue
						}
						s = c.forget(&d.Call, op, mu, s)
					}
				}
			}
			return s
		},
		Meet:  meetUnlocked,
		Equal: func(x, y unlockedSet) bool { return len(x) == len(y) }, // meets only shrink
	}
	p.Solve(fn)
	reported := make(map[token.Pos]bool)
	for _, f := range found {
		if !reported[f.pos] {
			reported[f.pos] = true
			c.report(kinds.UnlockOfUnlocked, f.pos, f.rel, f.msg, f.args...)
		}
	}
	if c.why == nil {
		return
	}
	if c.unlockNoted == nil {
		c.unlockNoted = make(map[token.Pos]bool)
	}
	for _, f := range found {
		c.unlockNoted[f.pos] = true
	}
	for _, f := range counted {
		if reported[f.pos] {
			continue
		}
		c.unlockNoted[f.pos] = true
		c.why.note(f.pos, rules.ReadersCounted, fmt.Sprintf("%s read-locks it %d times itself, not once", fn.Name(), f.args[2]),
			"unlock of unlocked mutex: %s is read-unlocked at %s after it was read-unlocked at %s", f.args[0], c.pos(f.pos), f.args[1])
	}
}

// forget drops from s the mutexes a call that is not an Unlock may lock.
func (c *checker) forget(call *ssa.CallCommon, op syncapi.LockOp, mu ssa.Value, s unlockedSet) unlockedSet {
	if len(s) == 0 {
		return s
	}
	if op != syncapi.NoLockOp {
		k := lockset.Key(mu)
		return s.without(func(u unlocked) bool { return u.key == k })
	}
	if _, builtin := call.Value.(*ssa.Builtin); builtin {
		return s
	}
	if call.StaticCallee() == nil {
		return nil // it may lock anything
	}
	takes := c.ls.Takes(call)
	return s.without(func(u unlocked) bool {
		_, ok := takes.Find(u.key)
		return ok
	})
}

// hasUnlock reports whether fn calls Unlock or RUnlock itself.
func hasUnlock(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				if op, _ := syncapi.MutexOp(call.Common()); op == syncapi.Unlock || op == syncapi.RUnlock {
					return true
				}
			}
		}
	}
	return false
}
