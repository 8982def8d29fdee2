package deadlock

import (
	"cmp"
	_ "embed"
	"fmt"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"github.com/origo-dev/origo/analyzers/internal/docs"
	"github.com/origo-dev/origo/analyzers/internal/ignore"
	"github.com/origo-dev/origo/analyzers/internal/posn"
	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/guard"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// doc is the source of doc.go, whose package comment is the manual.
//
//go:embed doc.go
var doc string

// Analyzer reports mutex deadlocks; see the package documentation.
var Analyzer = &analysis.Analyzer{
	Name:       "deadlock",
	Doc:        docs.MustExtract(doc, "deadlock"),
	URL:        "https://pkg.go.dev/github.com/origo-dev/origo/analyzers/deadlock",
	Run:        run,
	Requires:   []*analysis.Analyzer{buildir.Analyzer, lockset.Analyzer, pointer.Analyzer, shb.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
}

// Result holds where the package's goroutines may block forever by this
// analyzer's reports, for the blocking analyzer to follow what they
// leave stuck. It is read-only once the pass's Run returns.
type Result struct {
	blocked  map[token.Pos]bool
	partners map[token.Pos][]Place
	// blockedIn holds, for a report that says so of some goroutines only
	// (a Lock that a lock left held blocks where it comes after), those.
	blockedIn Goroutines
	// Silenced holds the directives that silenced a report, for the
	// directive analyzer; nil when not all was checked.
	Silenced *ignore.Silenced
}

// Place is an event of a goroutine's trace.
type Place struct {
	Trace *shb.Trace
	Event int32
}

// Blocks reports whether a report of this analyzer says that a
// goroutine may block forever at pos: a Lock, an operation blocked
// while holding a lock, or a call that leads to one.
func (r *Result) Blocks(pos token.Pos) bool { return r != nil && r.blocked[pos] }

// BlocksIn reports whether a report of this analyzer says that the
// goroutine of trace t may block forever at pos: Blocks, unless the
// report says so of other goroutines only.
func (r *Result) BlocksIn(t *shb.Trace, pos token.Pos) bool {
	if !r.Blocks(pos) {
		return false
	}
	in, ok := r.blockedIn[pos]
	return !ok || in[t]
}

// Partners returns, for a place where a goroutine blocks forever only
// while another goroutine is at a place of its own (the other Lock of an
// inversion, the Lock an unblocking goroutine must pass first), those
// places; none when it blocks whatever the others do.
func (r *Result) Partners(pos token.Pos) []Place {
	if r == nil {
		return nil
	}
	return r.partners[pos]
}

func init() {
	ignore.Flag(&Analyzer.Flags)
	Analyzer.Flags.Var(rules.TargetFlag{Value: &whyTarget}, "why", "explain every candidate deadlock at `FILE:LINE` (or all): a Lock or a call that locks, a return, an Unlock, a lock order inversion or cycle, a blocking operation under a lock; the rule that ruled it out, or reported; as diagnostics of category \"why\"")
}

func run(pass *analysis.Pass) (any, error) {
	ir := pass.ResultOf[buildir.Analyzer].(*buildir.IR)
	if ir.Pkg == nil {
		return &Result{}, nil
	}
	c := &checker{
		pass:    pass,
		ls:      pass.ResultOf[lockset.Analyzer].(*lockset.Result),
		writers: make(map[any]token.Pos),
		ignored: ignore.Find(pass),
		funcs:   ir.SrcFuncs,
		why:     newWhyLog(pass.Fset),
	}
	failed := guard.Do(pass, "deadlock", func() {
		c.findWriters(ir.SrcFuncs)
		for _, fn := range ir.SrcFuncs {
			guard.At(pass, fn.String())
			c.checkFunc(fn)
			c.relocks(fn)
		}
		if c.why != nil {
			for _, fn := range ir.SrcFuncs {
				guard.At(pass, fn.String())
				c.noteFunc(fn)
			}
		}
		guard.At(pass, "")
	})
	ptr := pass.ResultOf[pointer.Analyzer].(*pointer.Result)
	c.ptr = ptr
	hb := pass.ResultOf[shb.Analyzer].(*shb.Result)
	complete := failed == "" && ptr.Incomplete == ""
	if ptr.Incomplete == "" && len(hb.Traces) > 0 {
		c.order = hb.NewOrder()
		complete = guard.Do(pass, "deadlock", func() {
			c.inversions(hb)
			c.blockingOps(hb)
			c.dynamicRelocks(hb)
			c.endsHolding(hb)
			c.leftHeldSequels(hb)
		}) == "" && complete
	}
	c.why.report(pass)
	res := &Result{blocked: c.reportedAt, partners: c.partners, blockedIn: c.blockedIn}
	if complete {
		res.Silenced = c.ignored.Silenced()
	}
	return res, nil
}

type checker struct {
	order *shb.Order // happens-before queries, memoized for this run
	why   *whyLog    // the verdicts -why asks for; nil when off
	pass  *analysis.Pass
	ls    *lockset.Result
	ptr   *pointer.Result
	// funcs are the package's functions; conds maps its Cond fields to
	// their mutex fields, once asked (see condMutexes).
	funcs []*ssa.Function
	conds map[*types.Var]*types.Var
	// writers maps the mutexes the package write-locks, by field or
	// package variable, to one place that does.
	writers map[any]token.Pos
	ignored ignore.Lines // lines with "//origo:ignore deadlock"
	// assigned holds the package variables the package assigns or
	// takes the address of, once asked (see assignedInPackage).
	assigned map[*types.Var]bool
	// leftHeld are the locks reported left held, for what follows them
	// (see leftHeldSequels).
	leftHeld []leftHeld
	// reportedAt holds the positions of the reports: where a goroutine
	// may block forever, or the call that leads it there (see Result).
	reportedAt map[token.Pos]bool
	// partners holds, for a reported place where a goroutine blocks
	// only if another goroutine is at a place of its own at the time,
	// those other places (see Result).
	partners map[token.Pos][]Place
	// blockedIn holds, for a report at a place that blocks in some
	// goroutines only, those (see Result.BlocksIn).
	blockedIn Goroutines
	// For -why only: what instructions do to mutexes, once asked (see
	// touchOf), and the Unlocks checkUnlocks gave a verdict.
	touches     map[touchAt]touch
	unlockNoted map[token.Pos]bool
}

// Goroutines holds, by the position of a report, the goroutines (their
// traces) it is about, for a report about some goroutines only.
type Goroutines map[token.Pos]map[*shb.Trace]bool

// Add records that the report at pos is about the goroutine of t.
func (g *Goroutines) Add(pos token.Pos, t *shb.Trace) {
	if *g == nil {
		*g = make(Goroutines)
	}
	if (*g)[pos] == nil {
		(*g)[pos] = make(map[*shb.Trace]bool)
	}
	(*g)[pos][t] = true
}

// partner records that the goroutine blocked at pos needs the other
// goroutine to be at event ev of t for it to block.
func (c *checker) partner(pos token.Pos, t *shb.Trace, ev int32) {
	if c.partners == nil {
		c.partners = make(map[token.Pos][]Place)
	}
	c.partners[pos] = append(c.partners[pos], Place{t, ev})
}

// leftHeld is a lock that fn returns holding at ret. For a function of
// another package, call is the package's call of it, h is in the
// caller's terms and h.At is the return.
type leftHeld struct {
	fn   *ssa.Function
	ret  token.Pos
	h    lockset.Held
	call *ssa.Call
}

// checkFunc reports the double locks and the locks left held in fn.
func (c *checker) checkFunc(fn *ssa.Function) {
	var defers []*ssa.Defer
	var returns []*ssa.Return
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Defer:
				defers = append(defers, instr)
			case *ssa.Return:
				returns = append(returns, instr)
			}
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Call:
				c.checkCall(instr.Common(), c.ls.Before(instr), instr.Pos(), false)
				for _, h := range c.ls.Leaves(instr.Common()) {
					c.leftHeld = append(c.leftHeld, leftHeld{fn: instr.Call.StaticCallee(), h: h, call: instr})
				}
				c.checkCallbacks(instr)
			case *ssa.RunDefers:
				// The deferred calls run last first, each after the
				// previous ones released what they release.
				held := c.ls.Before(instr)
				var unlockedBy map[facts.Key]*ssa.Defer // for -why: the deferred call that released each
				for i := len(defers) - 1; i >= 0; i-- {
					d := defers[i]
					if !d.Block().Dominates(b) {
						continue
					}
					c.checkCall(&d.Call, held, d.Pos(), true)
					c.noteDeferred(d, held, unlockedBy)
					for _, k := range c.ls.Releases(&d.Call) {
						if _, ok := held.Find(k); ok && c.why != nil {
							if unlockedBy == nil {
								unlockedBy = make(map[facts.Key]*ssa.Defer)
							}
							unlockedBy[k] = d
						}
					}
					held = held.Without(c.ls.Releases(&d.Call))
				}
			}
		}
	}
	c.checkReturns(fn, returns)
	c.checkUnlocks(fn, defers)
}

// checkCall reports a call that blocks on a mutex held.
func (c *checker) checkCall(call *ssa.CallCommon, held lockset.Set, pos token.Pos, deferred bool) {
	if len(held) == 0 {
		return
	}
	op, mu := syncapi.MutexOp(call)
	switch op {
	case syncapi.Lock, syncapi.RLock, syncapi.TryLock, syncapi.TryRLock:
		h, ok := held.Find(lockset.Key(mu))
		if !ok {
			return
		}
		name := lockName(h)
		switch {
		case op == syncapi.TryLock || op == syncapi.TryRLock:
			c.why.note(pos, rules.TryLock, "", "double lock: %s is try-locked at %s while held (locked at %s)", name, c.pos(pos), c.where(h))
		case h.Unsure:
			c.why.note(pos, rules.DynamicCall, "a call through an interface or a function value since it was locked may have unlocked it",
				"double lock: %s is locked at %s while perhaps still held (locked at %s)", name, c.pos(pos), c.where(h))
		case op == syncapi.Lock && h.Read:
			c.report(kinds.RWMutexUpgrade, pos, c.heldAt(h, "%s read-locked here", name),
				"RWMutex upgrade: %s is locked at %s while this goroutine holds its read lock (taken at %s); Lock waits for every reader, itself included, and blocks forever",
				name, c.pos(pos), c.where(h))
		case op == syncapi.RLock && h.Read:
			if w, ok := c.writer(mu); ok {
				c.report(kinds.RecursiveReadLock, pos, slices.Concat(c.heldAt(h, "%s read-locked here", name), c.writerSide(w, name)),
					"recursive read lock: %s is read-locked at %s while already read-locked (at %s); a writer waiting in Lock (as at %s) between the two blocks both forever (deadlock)",
					name, c.pos(pos), c.where(h), c.pos(w))
				return
			}
			c.why.note(pos, rules.NoWriter, fmt.Sprintf("the package has no Lock of %s", name),
				"recursive read lock: %s is read-locked at %s while already read-locked (at %s)", name, c.pos(pos), c.where(h))
		case handsUnlock(h):
			c.why.note(pos, rules.HandedUnlock, "its Unlock is handed away as a function value, which another goroutine may call",
				"double lock: %s is locked at %s while held (locked at %s)", name, c.pos(pos), c.where(h))
		default:
			c.report(kinds.DoubleLock, pos, c.heldAt(h, "%s locked here", name),
				"double lock: %s is locked at %s while already held (locked at %s); sync.Mutex is not reentrant, this blocks forever",
				name, c.pos(pos), c.where(h))
		}
	case syncapi.NoLockOp:
		callee := calleeName(call)
		how := "calls"
		if deferred {
			how = "runs the deferred"
		}
		c.noteSkipped(call, held, pos)
		for _, t := range c.ls.Takes(call) {
			h, ok := held.Find(t.Key)
			if !ok {
				continue
			}
			name := lockName(h)
			if h.Unsure {
				c.why.note(pos, rules.DynamicCall, "a call through an interface or a function value since it was locked may have unlocked it",
					"double lock: %s may be held (locked at %s) when this goroutine %s %s, which locks it again (at %s)", name, c.where(h), how, callee, c.where(t))
				continue
			}
			if h.Read && t.Read {
				id := heldIdentity(t)
				if w, ok := c.writers[id]; ok && id != nil {
					rel := slices.Concat(c.heldAt(h, "%s read-locked here", name), c.heldAt(t, "%s read-locks %s again here", callee, name), c.writerSide(w, name))
					c.report(kinds.RecursiveReadLock, pos, rel, "recursive read lock: %s is read-locked (at %s) when this goroutine %s %s, which read-locks it again (at %s); a writer waiting in Lock (as at %s) between the two blocks both forever (deadlock)",
						name, c.where(h), how, callee, c.where(t), c.pos(w))
					return
				}
				c.why.note(pos, rules.NoWriter, fmt.Sprintf("the package has no Lock of %s", name),
					"recursive read lock: %s is read-locked (at %s) when this goroutine %s %s, which read-locks it again (at %s)", name, c.where(h), how, callee, c.where(t))
				continue
			}
			rel := slices.Concat(c.heldAt(h, "%s locked here", name), c.heldAt(t, "%s locks %s again here", callee, name))
			c.report(kinds.DoubleLock, pos, rel, "double lock: %s is held (locked at %s) when this goroutine %s %s, which locks it again (at %s); sync.Mutex is not reentrant, this blocks forever",
				name, c.where(h), how, callee, c.where(t))
			return
		}
	}
}

// handsUnlock reports whether the function that locked h makes a
// method value of its Unlock (notify = mu.Unlock, a field set to it, an
// argument): a function value that another goroutine may call to
// release the mutex, which belongs to no goroutine.
func handsUnlock(h lockset.Held) bool {
	if h.Value == nil || h.Value.Parent() == nil || !h.Path.IsEmpty() {
		return false
	}
	for _, b := range h.Value.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok {
				if mu, ok := lockset.BoundUnlock(mc); ok && lockset.Key(mu) == h.Key {
					return true
				}
			}
		}
	}
	return false
}

// checkReturns reports the returns of fn that leave a mutex locked that
// other returns unlock.
func (c *checker) checkReturns(fn *ssa.Function, returns []*ssa.Return) {
	reported := make(map[facts.Key]bool)
	var released []facts.Key // the locks fn unlocks without locking them: its caller's
	askedReleased := false
	for _, l := range c.ls.LeftHeld(fn, returns) {
		h, ret := l.Held, l.Ret
		if reported[h.Key] {
			continue
		}
		if h.Spin {
			// A flag set by a swap is no mutex: left set, the next swap
			// fails, it does not block.
			c.noteLeftHeld(fn, ret, h, rules.SpinFlag)
			continue
		}
		if lockset.HandsUnlock(ret, h) || lockset.ReportsSuccess(ret) && !c.noCallerUnlocks(fn, h) {
			// A conditional lock helper: locked means it worked.
			c.noteLeftHeld(fn, ret, h, rules.LockHelper)
			continue
		}
		if !askedReleased {
			released = c.ls.CallerUnlocks(fn)
			askedReleased = true
		}
		if slices.Contains(released, h.Key) {
			// Entered with it held: fn unlocks the caller's lock (and
			// takes it again) on some path, so a return holding it
			// gives back what the caller had.
			c.noteLeftHeld(fn, ret, h, rules.EnteredHeld)
			continue
		}
		reported[h.Key] = true
		if !c.ls.Func(fn).Blocked(ret) {
			// A return whose deferred calls lock the mutex again never
			// happens (the double lock reported at the defer): reported
			// here, where the fix goes, it leaves its callers nothing.
			c.leftHeld = append(c.leftHeld, leftHeld{fn: fn, ret: lockset.ReturnPos(fn, ret), h: h})
		}
		c.reportFix(kinds.LockLeftHeld, lockset.ReturnPos(fn, ret), c.heldAt(h, "%s locked here", lockName(h)), c.unlockFix(fn, ret, h), "lock left held: %s (locked at %s) is still locked when %s returns here, while its other returns unlock it; the next Lock of it blocks forever (deadlock)",
			lockName(h), c.where(h), fn.Name())
	}
}

// noCallerUnlocks reports whether fn, which returns success holding h,
// is no conditional lock helper after all: every caller can be seen (fn
// is unexported, or in a command), there are some, each calls it by
// name, and none unlocks the mutex after the call (before locking it
// again). A helper's callers unlock after a successful call (if
// s.tryLock() == nil { defer s.mu.Unlock() }).
func (c *checker) noCallerUnlocks(fn *ssa.Function, h lockset.Held) bool {
	if obj := fn.Object(); obj == nil || obj.Exported() && fn.Pkg.Pkg.Name() != "main" {
		return false
	}
	calls, byName := c.staticCalls(fn)
	return byName && len(calls) > 0 && !slices.ContainsFunc(calls, func(call ssa.CallInstruction) bool { return c.callerUnlocks(call, h) })
}

// unlocksAfter reports whether an Unlock (or a deferred one) of the
// mutex named k follows instruction i of block b on some path, before
// any Lock of it: directly, or in a call of a function that releases it
// (defer l.releaseSenderLock()).
func (c *checker) unlocksAfter(b *ssa.BasicBlock, i int, k facts.Key) bool {
	return searchPaths(b, i, func(instr ssa.Instruction) (found, stop bool) {
		call, ok := instr.(ssa.CallInstruction)
		if !ok {
			return false, false
		}
		op, mu := syncapi.MutexOp(call.Common())
		if op == syncapi.NoLockOp {
			return slices.Contains(c.ls.Releases(call.Common()), k), false
		}
		if lockset.Key(mu) != k {
			return false, false
		}
		return op == syncapi.Unlock || op == syncapi.RUnlock, true
	})
}

// searchPaths visits, in order, the instructions on the paths from
// instruction i of block b, each block once, until visit says the
// search has found what it looks for (and searchPaths returns true) or
// that the path stops there.
func searchPaths(b *ssa.BasicBlock, i int, visit func(ssa.Instruction) (found, stop bool)) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	type at struct {
		b *ssa.BasicBlock
		i int
	}
	work := []at{{b, i}}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		stopped := false
		for _, instr := range p.b.Instrs[p.i:] {
			found, stop := visit(instr)
			if found {
				return true
			}
			if stopped = stop; stopped {
				break
			}
		}
		if stopped {
			continue
		}
		for _, s := range p.b.Succs {
			if !seen[s] {
				seen[s] = true
				work = append(work, at{s, 0})
			}
		}
	}
	return false
}

// findWriters records the mutexes the package write-locks.
func (c *checker) findWriters(funcs []*ssa.Function) {
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				op, mu := syncapi.MutexOp(call.Common())
				switch op {
				case syncapi.Lock, syncapi.TryLock:
					c.wrote(mutexIdentity(mu), instr.Pos())
				case syncapi.NoLockOp:
					// A function of another package that write-locks a
					// mutex its argument reaches (Reset() { s.rw.Lock() }).
					for _, t := range c.ls.Takes(call.Common()) {
						if !t.Read && t.At != "" {
							c.wrote(heldIdentity(t), instr.Pos())
						}
					}
				}
			}
		}
	}
}

// wrote records a write lock of the mutex identified by id at pos, the
// first one met.
func (c *checker) wrote(id any, pos token.Pos) {
	if id == nil {
		return
	}
	if _, ok := c.writers[id]; !ok {
		c.writers[id] = pos
	}
}

// heldIdentity names the mutex a lock set member reaches, as
// mutexIdentity does: by the last field of its path when it has one.
func heldIdentity(h lockset.Held) any {
	if h.Value == nil {
		return nil
	}
	if h.Path.IsEmpty() {
		return mutexIdentity(h.Value)
	}
	var id any
	t := h.Value.Type()
	for _, s := range h.Path.Steps() {
		id = nil
		if s.Op == facts.FieldAddr {
			if st, ok := facts.Pointee(t).Underlying().(*types.Struct); ok && s.Index < st.NumFields() {
				id = st.Field(s.Index)
			}
		}
		var ok bool
		if t, ok = s.Next(t); !ok {
			return nil
		}
	}
	return id
}

// writer returns where the package write-locks the mutex mu, as
// identified by its field or variable.
func (c *checker) writer(mu ssa.Value) (token.Pos, bool) {
	id := mutexIdentity(mu)
	if id == nil {
		return token.NoPos, false
	}
	pos, ok := c.writers[id]
	return pos, ok
}

// mutexIdentity names a mutex by the struct field or package variable
// it is, or nil.
func mutexIdentity(mu ssa.Value) any {
	switch v := mu.(type) {
	case *ssa.FieldAddr:
		if st, ok := facts.Pointee(v.X.Type()).Underlying().(*types.Struct); ok && v.Field < st.NumFields() {
			return st.Field(v.Field)
		}
	case *ssa.Global:
		return v
	}
	return nil
}

// lockName renders how the code names a held mutex.
func lockName(h lockset.Held) string { return cmp.Or(shb.HeldName(h), "the mutex") }

// where says where a lock was taken.
func (c *checker) where(h lockset.Held) string {
	if h.At != "" {
		return posn.For(c.pass).At(h.At)
	}
	return c.pos(h.Pos)
}

// pos renders p as "file.go:12" (see package posn).
func (c *checker) pos(p token.Pos) string { return posn.For(c.pass).Pos(p) }

// report reports a deadlock of kind k at pos, with the related
// positions rel (see related).
func (c *checker) report(k kinds.Kind, pos token.Pos, rel []analysis.RelatedInformation, format string, args ...any) {
	c.reportFix(k, pos, rel, nil, format, args...)
}

// reportFix reports, with the fixes that are certain (see unlockFix).
// A related position that is the report's own says nothing more and is
// left out. With -why, the report's places are noted as reported, or
// ruled out by the directive that silences it.
//
// A deadlock is one report, however many goroutines it leaves stuck:
// the others are related positions whose message begins with
// kinds.OtherSide (see otherSide). An //origo:ignore directive on the
// report's line or on the line of one of those silences it; those
// places count as reported for the Result all the same, as where a
// goroutine may block forever.
func (c *checker) reportFix(k kinds.Kind, pos token.Pos, rel []analysis.RelatedInformation, fixes []analysis.SuggestedFix, format string, args ...any) {
	rel = slices.DeleteFunc(rel, func(r analysis.RelatedInformation) bool { return r.Pos == pos })
	at := []token.Pos{pos}
	for _, r := range rel {
		if strings.HasPrefix(r.Message, kinds.OtherSide+":") {
			at = append(at, r.Pos)
		}
	}
	ignored := c.ignored.Any(at...)
	if c.why != nil {
		rule := rules.ID("")
		if ignored {
			rule = rules.Ignored
		}
		for _, p := range at {
			c.why.note(p, rule, "", format, args...)
		}
	}
	if ignored {
		return
	}
	if c.reportedAt == nil {
		c.reportedAt = make(map[token.Pos]bool)
	}
	for _, p := range at {
		c.reportedAt[p] = true
	}
	c.pass.Report(analysis.Diagnostic{Pos: pos, Category: k.ID, Message: fmt.Sprintf(format, args...), SuggestedFixes: fixes, Related: rel})
}

// otherSide returns the related position of the Lock at pos where
// another goroutine of a deadlock blocks forever, its message beginning
// with kinds.OtherSide; none when pos is not in the package's files.
func (c *checker) otherSide(pos token.Pos, format string, args ...any) []analysis.RelatedInformation {
	return c.related(pos, kinds.OtherSide+": "+format, args...)
}

// writerSide returns the related position of the writer's Lock at w of
// a recursive read lock: the other side of the deadlock.
func (c *checker) writerSide(w token.Pos, name string) []analysis.RelatedInformation {
	return c.otherSide(w, "a Lock of %s here, between the two read locks, waits for the first, and the second waits for it", name)
}

// related returns a related position of a report, for an editor to go
// to the other places the message names: one entry, or none when pos is
// not in the package's files (a lock that a function of another package
// takes is known by the "file:line:col" of a fact, not by a token.Pos;
// see posn.InFiles).
func (c *checker) related(pos token.Pos, format string, args ...any) []analysis.RelatedInformation {
	if !posn.InFiles(c.pass, pos) {
		return nil
	}
	return []analysis.RelatedInformation{{Pos: pos, Message: fmt.Sprintf(format, args...)}}
}

// heldAt returns the related position of where a held lock was taken.
func (c *checker) heldAt(h lockset.Held, format string, args ...any) []analysis.RelatedInformation {
	if h.At != "" {
		return nil
	}
	return c.related(h.Pos, format, args...)
}
