package deadlock

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// What -why says of the Locks, returns and Unlocks of a function that
// the checks of a function's own locks (checkFunc, relocks) found no
// deadlock at: the mutex is not held there, or a rule ruled it out. A
// goroutine's own Lock waits for it only where its function holds the
// mutex on every path (double lock) or on some (double lock on some
// paths); these notes cover the places where it holds it on none. They
// are made only with -why, after every function was checked, so that
// the locks left held by calls are known.

// noteFunc notes, for -why, the places of fn where a Lock, a return or
// an Unlock of a mutex is no deadlock because of what fn did to the
// mutex before: each Lock (or call that locks) of a mutex not held on
// any path to it; each return that holds a mutex that fn holds at every
// return (a lock helper) or that a call through an interface may have
// unlocked, or that follows a Lock and holds the mutex no longer; each
// Unlock of a mutex fn unlocks elsewhere too, that a Lock comes before.
func (c *checker) noteFunc(fn *ssa.Function) {
	var returns []*ssa.Return
	for _, b := range fn.Blocks {
		for i, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Call:
				if c.why.wants(instr.Pos()) {
					c.noteLock(fn, b, i, instr)
					c.noteUnlock(fn, b, i, instr)
				}
			case *ssa.Return:
				returns = append(returns, instr)
			}
		}
	}
	c.noteReturns(fn, returns)
}

// noteLock notes each mutex that call, the i'th instruction of b, may
// block to lock while fn holds it on no path there.
func (c *checker) noteLock(fn *ssa.Function, b *ssa.BasicBlock, i int, call *ssa.Call) {
	held := c.ls.Before(call)
	for _, t := range c.ls.Takes(call.Common()) {
		if _, ok := held.Find(t.Key); ok || !t.Key.Bound() {
			continue // checkCall's
		}
		rule, detail, _, ok := c.notHeld(fn, b, i, t.Key)
		if !ok {
			continue
		}
		name := lockName(t)
		if op, _ := syncapi.MutexOp(call.Common()); op == syncapi.NoLockOp {
			c.why.note(call.Pos(), rule, detail, "double lock: %s is locked (at %s) by %s, called at %s", name, c.where(t), calleeName(call.Common()), c.pos(call.Pos()))
		} else {
			c.why.note(call.Pos(), rule, detail, "double lock: %s is locked at %s", name, c.pos(call.Pos()))
		}
	}
}

// calleeName names the function a call calls, for a message.
func calleeName(call *ssa.CallCommon) string {
	if fn := call.StaticCallee(); fn != nil {
		return facts.ShortName(fn.String())
	}
	return "the callee"
}

// A touch is what an instruction of a function does to one mutex, for
// the notes: lock it and keep it (acquire), unlock it (release), or lock
// it and give it back (a call of a function that locks and unlocks).
type touch uint8

const (
	touchNone touch = iota
	touchAcquire
	touchRelease
	touchTakeBack
)

// touchAt is an instruction and a mutex, for the touches memoized.
type touchAt struct {
	instr ssa.Instruction
	key   facts.Key
}

// touchOf returns what instr does to the mutex k.
func (c *checker) touchOf(instr ssa.Instruction, k facts.Key) touch {
	at := touchAt{instr, k}
	if t, ok := c.touches[at]; ok {
		return t
	}
	if c.touches == nil {
		c.touches = make(map[touchAt]touch)
	}
	t := c.touchOfOnce(instr, k)
	c.touches[at] = t
	return t
}

func (c *checker) touchOfOnce(instr ssa.Instruction, k facts.Key) touch {
	switch instr := instr.(type) {
	case *ssa.Go:
		if _, ok := c.ls.Transferred(instr).Find(k); ok {
			return touchRelease
		}
	case *ssa.RunDefers:
		for _, d := range deferredIn(instr.Parent()) {
			if slices.Contains(c.ls.Releases(&d.Call), k) {
				return touchRelease
			}
		}
	case *ssa.Call:
		call := instr.Common()
		switch op, mu := syncapi.MutexOp(call); op {
		case syncapi.Lock, syncapi.RLock, syncapi.TryLock, syncapi.TryRLock:
			if lockset.Key(mu) == k {
				return touchAcquire
			}
			return touchNone
		case syncapi.Unlock, syncapi.RUnlock:
			if lockset.Key(mu) == k {
				return touchRelease
			}
			return touchNone
		}
		if c.leaves(instr, k) {
			return touchAcquire
		}
		if slices.Contains(c.ls.Releases(call), k) {
			return touchRelease
		}
		if _, ok := c.ls.Takes(call).Find(k); ok {
			return touchTakeBack
		}
	}
	return touchNone
}

// leaves reports whether call may return with the mutex k locked that
// was not held before it: it is held on every path after it (a lock
// helper), or the callee leaves it held on some (a lock left held, in
// the package or another).
func (c *checker) leaves(call *ssa.Call, k facts.Key) bool {
	if _, before := c.ls.Before(call).Find(k); before {
		return false
	}
	b := call.Block()
	if i := slices.Index(b.Instrs, ssa.Instruction(call)); i+1 < len(b.Instrs) {
		if _, ok := c.ls.Before(b.Instrs[i+1]).Find(k); ok {
			return true
		}
	}
	for _, h := range c.ls.Leaves(call.Common()) {
		if h.Key == k {
			return true
		}
	}
	fn, bind := lockset.Callee(call.Common())
	if fn == nil {
		return false
	}
	for _, lh := range c.leftHeld {
		if lh.call == nil && lh.fn == fn && bind(lh.h.Key) == k {
			return true
		}
	}
	return false
}

// deferredIn returns the defer statements of fn.
func deferredIn(fn *ssa.Function) []*ssa.Defer {
	var out []*ssa.Defer
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok {
				out = append(out, d)
			}
		}
	}
	return out
}

// notHeld returns, for the mutex k at instruction i of block b of fn,
// where fn does not hold it on every path, the rule by which fn holds it
// on none: not-held, or lock-handover when what released it last is a
// goroutine that took it over; touched says whether fn locked or
// unlocked it on a path to there at all. ok is false when fn may hold
// it there on some path (a Lock the function took and did not release
// on that path: the checks of some paths decide).
func (c *checker) notHeld(fn *ssa.Function, b *ssa.BasicBlock, i int, k facts.Key) (rule rules.ID, detail string, touched, ok bool) {
	x := b.Instrs[i]
	var last []ssa.Instruction // the touches that reach x touchNone
	for _, bb := range fn.Blocks {
		for j, instr := range bb.Instrs {
			t := c.touchOf(instr, k)
			if t == touchNone {
				continue
			}
			stop := func(y ssa.Instruction) bool { return c.touchOf(y, k) != touchNone }
			if t == touchAcquire {
				// Held from here on, until released.
				stop = func(y ssa.Instruction) bool { return c.touchOf(y, k) == touchRelease }
			}
			if !reaches(bb, j+1, x, stop) {
				continue
			}
			if t == touchAcquire {
				return "", "", true, false
			}
			last = append(last, instr)
		}
	}
	name := lockName(lockset.Held{Value: keyValue(fn, k)})
	if len(last) == 0 {
		return rules.NotHeld, fmt.Sprintf("%s does not lock %s before here (a caller that holds it is checked at its call)", fn.Name(), name), false, true
	}
	slices.SortFunc(last, func(a, b ssa.Instruction) int { return facts.ComparePos(c.pass.Fset, a.Pos(), b.Pos()) })
	for _, r := range last {
		if g, ok := c.handsOver(r, k); ok {
			return rules.LockHandover, fmt.Sprintf("the goroutine started at %s unlocks %s", c.pos(g.Pos()), name), true, true
		}
	}
	var says []string
	for _, r := range last {
		says = append(says, c.touchSays(r, k, name))
	}
	return rules.NotHeld, joinOr(says), true, true
}

// keyValue returns a value of fn that the key k names, for its name, or
// nil.
func keyValue(fn *ssa.Function, k facts.Key) ssa.Value {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				if _, mu := syncapi.MutexOp(call.Common()); mu != nil && lockset.Key(mu) == k {
					return mu
				}
			}
		}
	}
	return nil
}

// handsOver returns the go statement by which instruction r, which
// releases the mutex k, hands it to a goroutine: r itself, or one in
// the function r calls.
func (c *checker) handsOver(r ssa.Instruction, k facts.Key) (*ssa.Go, bool) {
	if g, ok := r.(*ssa.Go); ok {
		return g, true
	}
	call, ok := r.(*ssa.Call)
	if !ok {
		return nil, false
	}
	fn := call.Call.StaticCallee()
	if fn == nil {
		return nil, false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if g, ok := instr.(*ssa.Go); ok && len(c.ls.Transferred(g)) > 0 {
				return g, true
			}
		}
	}
	return nil, false
}

// touchSays words what the touch r did to the mutex k, named name.
func (c *checker) touchSays(r ssa.Instruction, k facts.Key, name string) string {
	switch r := r.(type) {
	case *ssa.RunDefers:
		for _, d := range deferredIn(r.Parent()) {
			if slices.Contains(c.ls.Releases(&d.Call), k) {
				return fmt.Sprintf("the call deferred at %s unlocks %s at the return", c.pos(d.Pos()), name)
			}
		}
	case *ssa.Call:
		if op, _ := syncapi.MutexOp(r.Common()); op != syncapi.NoLockOp {
			return fmt.Sprintf("%s is unlocked at %s", name, c.pos(r.Pos()))
		}
		if c.touchOf(r, k) == touchRelease {
			return fmt.Sprintf("%s, called at %s, unlocks %s", calleeName(r.Common()), c.pos(r.Pos()), name)
		}
		return fmt.Sprintf("%s, called at %s, locks %s and unlocks it before it returns", calleeName(r.Common()), c.pos(r.Pos()), name)
	}
	return fmt.Sprintf("%s is unlocked at %s", name, c.pos(r.Pos()))
}

// joinOr joins the ways a mutex came to be unlocked, one per path.
func joinOr(says []string) string {
	says = slices.Compact(says)
	s := says[0]
	for _, x := range says[1:] {
		s += ", or " + x
	}
	return s
}

// reaches reports whether a path from instruction i of block b reaches
// instruction x before an instruction that stop accepts (x itself is
// reached first).
func reaches(b *ssa.BasicBlock, i int, x ssa.Instruction, stop func(ssa.Instruction) bool) bool {
	return searchPaths(b, i, func(instr ssa.Instruction) (found, stopped bool) {
		if instr == x {
			return true, false
		}
		return false, stop(instr)
	})
}

// noteReturns notes, for -why, the returns of fn that do not leave a
// mutex locked that fn locks while other returns unlock it: those
// holding a mutex on every return (a lock helper), or a mutex that a
// call may have unlocked (a call through an interface), and those at
// which a mutex fn locked before is not held.
func (c *checker) noteReturns(fn *ssa.Function, returns []*ssa.Return) {
	var keys []facts.Key
	add := func(k facts.Key) {
		if k.Bound() && !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				if op, mu := syncapi.MutexOp(call.Common()); op == syncapi.Lock || op == syncapi.RLock {
					add(lockset.Key(mu))
				}
			}
		}
	}
	for _, ret := range returns {
		for _, h := range c.ls.Before(ret) {
			add(h.Key)
		}
	}
	for _, ret := range returns {
		at := lockset.ReturnPos(fn, ret)
		if !c.why.wants(at) {
			continue
		}
		b := ret.Block()
		for _, k := range keys {
			h, held := c.ls.Before(ret).Find(k)
			switch {
			case held && h.Unsure:
				c.why.note(at, rules.DynamicCall, "a call through an interface or a function value after the Lock may have unlocked it", "lock left held: %s (locked at %s) may be held when %s returns at %s", lockName(h), c.where(h), fn.Name(), c.pos(at))
			case held && !slices.ContainsFunc(returns, func(r *ssa.Return) bool { _, ok := c.ls.Before(r).Find(k); return !ok }):
				c.why.note(at, rules.LockHelper, fmt.Sprintf("%s holds it at every return", fn.Name()), "lock left held: %s (locked at %s) is held when %s returns at %s", lockName(h), c.where(h), fn.Name(), c.pos(at))
			case !held:
				if rule, detail, touched, ok := c.notHeld(fn, b, len(b.Instrs)-1, k); ok && touched {
					c.why.note(at, rule, detail, "lock left held: %s is locked by %s before it returns at %s", lockName(lockset.Held{Value: keyValue(fn, k)}), fn.Name(), c.pos(at))
				}
			}
		}
	}
}

// noteUnlock notes, for -why, an Unlock at call, the i'th instruction of
// b, of a mutex that fn unlocks elsewhere too (before it, or deferred,
// or on another path), that checkUnlocks did not report: the mutex is
// locked again on every path since the last Unlock (locked-first), or
// fn was entered with it held (entered-held).
func (c *checker) noteUnlock(fn *ssa.Function, b *ssa.BasicBlock, i int, call *ssa.Call) {
	op, mu := syncapi.MutexOp(call.Common())
	if op != syncapi.Unlock && op != syncapi.RUnlock {
		return
	}
	k := lockset.Key(mu)
	if !k.Bound() || c.unlockNoted[call.Pos()] {
		return
	}
	// Another Unlock of k in fn, before this one on some path, or
	// deferred to run after it.
	isUnlock := func(instr ssa.Instruction) bool {
		if u, ok := instr.(ssa.CallInstruction); ok {
			if op, mu := syncapi.MutexOp(u.Common()); (op == syncapi.Unlock || op == syncapi.RUnlock) && lockset.Key(mu) == k {
				return true
			}
		}
		return false
	}
	other := false
	for _, bb := range fn.Blocks {
		for _, instr := range bb.Instrs {
			other = other || instr != ssa.Instruction(call) && isUnlock(instr)
		}
	}
	if !other {
		return
	}
	name := lockName(lockset.Held{Value: mu})
	if reaches(fn.Blocks[0], 0, call, func(y ssa.Instruction) bool { return c.touchOf(y, k) != touchNone }) {
		if !k.Rooted() {
			return // a mutex of fn's own that another goroutine locked: handed over
		}
		c.why.note(call.Pos(), rules.EnteredHeld, fmt.Sprintf("on a path from the entry of %s that neither locks nor unlocks %s before it, it unlocks the caller's lock", fn.Name(), name),
			"unlock of unlocked mutex: %s is unlocked at %s after another Unlock of it", name, c.pos(call.Pos()))
		return
	}
	c.why.note(call.Pos(), rules.LockedFirst, fmt.Sprintf("%s locks %s again on every path since its last Unlock", fn.Name(), name),
		"unlock of unlocked mutex: %s is unlocked at %s, and %s unlocks it elsewhere too", name, c.pos(call.Pos()), fn.Name())
}

// unconditional is an argument that may have either value: a call with
// it in place of a constant takes the locks the callee takes whatever
// the argument (see lockset's conditions on parameters).
var unconditional ssa.Value = new(ssa.Phi)

// maxWrappers bounds the wrappers that noteSkipped looks through for the
// call that passes the constant (removeLocked(seq) { remove(seq, false) }).
const maxWrappers = 3

// noteSkipped notes, for -why, each mutex held at call that the callee
// would lock but for a constant that the call, or a wrapper it calls,
// passes for a boolean parameter that the callee tests (if needLock {
// mu.Lock() }).
func (c *checker) noteSkipped(call *ssa.CallCommon, held lockset.Set, pos token.Pos) {
	if !c.why.wants(pos) {
		return
	}
	for _, sk := range c.skipped(call, maxWrappers) {
		h, ok := held.Find(sk.lock.Key)
		if !ok {
			continue
		}
		name := lockName(h)
		c.why.note(pos, rules.LockParam, fmt.Sprintf("the constant passed at %s skips the Lock at %s", c.pos(sk.by), c.where(sk.lock)),
			"double lock: %s is held (locked at %s) when this goroutine calls %s, which may lock it again", name, c.where(h), calleeName(call))
	}
}

// A skip is a lock that a call would take but for a constant passed by
// the call at by.
type skip struct {
	lock lockset.Held
	by   token.Pos
}

// skipped returns the locks, in the caller's terms, that call would take
// but for a constant bool it passes, or that a call of the callee's
// passes, looking through depth functions.
func (c *checker) skipped(call *ssa.CallCommon, depth int) []skip {
	takes := c.ls.Takes(call)
	var out []skip
	any := *call
	any.Args = slices.Clone(call.Args)
	changed := false
	for i, a := range any.Args {
		if k, ok := a.(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.Bool {
			if b, ok := k.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsBoolean != 0 {
				any.Args[i], changed = unconditional, true
			}
		}
	}
	if changed {
		for _, t := range c.ls.Takes(&any) {
			if _, taken := takes.Find(t.Key); !taken {
				out = append(out, skip{t, call.Pos()})
			}
		}
	}
	fn, bind := lockset.Callee(call)
	if depth == 0 || fn == nil {
		return out
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			inner, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			for _, sk := range c.skipped(inner.Common(), depth-1) {
				k := bind(sk.lock.Key)
				if _, taken := takes.Find(k); k.Bound() && !taken {
					sk.lock.Key = k
					out = append(out, sk)
				}
			}
		}
	}
	return out
}

// noteDeferred notes, for -why, each mutex that the deferred call d
// would lock that a call deferred after it, which runs before it,
// released: the deferred calls run last first.
func (c *checker) noteDeferred(d *ssa.Defer, held lockset.Set, unlockedBy map[facts.Key]*ssa.Defer) {
	if !c.why.wants(d.Pos()) {
		return
	}
	for _, t := range c.ls.Takes(&d.Call) {
		u, ok := unlockedBy[t.Key]
		if _, still := held.Find(t.Key); still || !ok {
			continue
		}
		name := lockName(t)
		c.why.note(d.Pos(), rules.NotHeld, fmt.Sprintf("the call deferred at %s, which runs first, unlocks %s", c.pos(u.Pos()), name),
			"double lock: %s is locked (at %s) by the deferred %s", name, c.where(t), calleeName(&d.Call))
	}
}
