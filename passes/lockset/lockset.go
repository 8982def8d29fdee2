package lockset

import (
	"go/token"
	"go/types"
	"maps"
	"reflect"
	"slices"
	"sync"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/dataflow"
	"github.com/origo-dev/origo/passes/internal/loops"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Analyzer computes the mutexes held at each instruction. It reports
// nothing; see the package documentation.
var Analyzer = &analysis.Analyzer{
	Name:             "lockset",
	Doc:              "compute the mutexes held at each instruction",
	URL:              "https://pkg.go.dev/github.com/origo-dev/origo/passes/lockset",
	Run:              run,
	Requires:         []*analysis.Analyzer{buildir.Analyzer},
	ResultType:       reflect.TypeFor[*Result](),
	FactTypes:        []analysis.Fact{new(facts.Locks)},
	RunDespiteErrors: true,
}

// Held is a mutex held at a point of a function.
type Held struct {
	// Key names the mutex by the expression that reaches it, from a
	// parameter, a free variable, a package variable or a local value.
	Key facts.Key
	// Value points to the mutex: the operand of the Lock call, in the
	// function that called Lock (a callee, for a lock helper).
	Value ssa.Value
	// Read is set when the mutex is held by RLock only.
	Read bool
	// Path, when not empty, is the rest of the key from Value: the
	// mutex is reached from Value by these steps. A lock that a function
	// of another package takes is named so, from the caller's argument.
	Path facts.Path
	// Pos is where the lock was taken: the Lock call, in this function
	// or a callee. At is set instead ("file:line:col") for a lock that a
	// function of another package takes.
	Pos token.Pos
	At  string
	// Unsure is set once a call the analysis cannot see into (a method
	// called through an interface, a function value) may have released
	// the lock: still held for protecting accesses, not for reporting a
	// second Lock as a deadlock.
	Unsure bool
	// Once marks, in the locks of an effect's access only, the
	// sync.Once whose Do callback makes the access.
	Once bool
	// OnceDone marks, in the sibling locks package shb names from a
	// function's parameters, a sync.Once that a Do on it has returned
	// before the access: it holds nothing, it says the callback is over.
	OnceDone bool
	// Spin marks a spin flag held (see spinFlag): a lock for ordering
	// accesses, not a mutex for the deadlock analysis.
	Spin bool
	// Alias, when not the zero Key, is another name of the mutex: the
	// function stored what reaches it into a field before it locked it
	// (see storedAlias), so an Unlock through that field releases it.
	Alias facts.Key
}

// Set is a lockset sorted by Key; nil is the empty set. Sets are shared
// between instructions: never modify one.
type Set []Held

// Result gives the locksets of the package's functions. Every function
// of the package is solved in Run, and the Result is read-only after:
// it is safe for concurrent use. A function that go/ssa makes later (a
// wrapper the pointer analysis asks for) is solved when asked, in a
// scratch table of the asker's that is not kept.
type Result struct {
	funcs    map[*ssa.Function]*funcInfo
	when     map[whenKey]*funcInfo    // functions solved for what calls fix of their parameters (see infoWhen)
	imported map[string]importedLocks // what the direct imports' functions do to mutexes, by SSA name
	// byCallee memoizes importedOf's lookup by the callee, whose SSA
	// name is made anew at each call of its String (2% of client_golang's
	// units under go vet): *ssa.Function to importedLocks, the zero one
	// when the callee has no entry. A sync.Map: the Result is read by
	// passes that run at once.
	byCallee sync.Map
	pkg      *ssa.Package // the package analysed, nil when it has none
	// spins are the package's spin flags (see spinFlag).
	spins map[types.Object]spinFlag
}

// solver computes the locksets of functions, into its table: the
// Result's during Run, a scratch one after (see Result.scratch).
type solver struct {
	r     *Result
	funcs map[*ssa.Function]*funcInfo
	when  map[whenKey]*funcInfo
	// known is what the call of the function being solved fixes of its
	// boolean parameters (see infoWhen).
	known Lits
	// trusted are fields the goroutine asking does not store to but
	// where it makes their objects (see Trusted), and trustKey their
	// name in whenKey.
	trusted  Trusted
	trustKey string
}

// whenKey names a function solved for what a call fixes of its boolean
// parameters (Lits.String).
type whenKey struct {
	fn   *ssa.Function
	lits string
}

// scratch returns a solver that reads r's solutions and keeps what it
// solves to itself.
func (r *Result) scratch() *solver {
	return &solver{r: r, funcs: make(map[*ssa.Function]*funcInfo), when: make(map[whenKey]*funcInfo)}
}

// solveAll solves the functions of the package: those in its source,
// its initializer, and the instantiations and wrappers they refer to.
func (r *Result) solveAll(pkg *ssa.Package, srcFuncs []*ssa.Function) {
	sv := &solver{r: r, funcs: r.funcs, when: r.when}
	work := slices.Clone(srcFuncs)
	if init := pkg.Func("init"); init != nil {
		work = append(work, init)
	}
	var all []*ssa.Function
	seen := make(map[*ssa.Function]bool)
	var ops []*ssa.Value
	for len(work) > 0 {
		fn := work[0]
		work = work[1:]
		if seen[fn] {
			continue
		}
		seen[fn] = true
		all = append(all, fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				for _, op := range instr.Operands(ops[:0]) {
					if f, ok := (*op).(*ssa.Function); ok && len(f.Blocks) > 0 && !seen[f] {
						work = append(work, f)
					}
				}
			}
		}
	}
	r.spins = findSpins(all)
	for _, fn := range all {
		sv.info(fn)
	}
	if len(r.spins) == 0 {
		return
	}
	bad := sv.unheldSpins(all)
	if len(bad) == 0 {
		return
	}
	// Solved again without the flags that are no locks.
	maps.DeleteFunc(r.spins, func(obj types.Object, _ spinFlag) bool { return bad[obj] })
	clear(r.funcs)
	clear(r.when)
	for _, fn := range all {
		sv.info(fn)
	}
}

type funcInfo struct {
	before   map[ssa.Instruction]Set
	acquires Set         // held on every return, named from the parameters or variables
	releases []condKey   // keys the function may unlock, named the same way, each under its condition
	takes    []condHeld  // locks the function or its callees may block to acquire (see mayTake), each under its condition
	unlocks  []facts.Key // keys the function releases on every path
	// callerUnlocks are the keys the function may unlock without
	// having locked them, those it locks again before it returns
	// included (see mayRelease): its caller's.
	callerUnlocks []facts.Key
	okRets        []okRet              // the locks held at each return of a nil error (see nilErrorEdge)
	blocked       map[*ssa.Return]bool // returns the deferred calls never let happen (see deferBlocks)
	busy          bool                 // being analyzed: a recursive call sees no effect
}

// okRet is what a function holds, named from its parameters, where it
// returns a nil error, under the condition on its boolean parameters
// that reaches that return.
type okRet struct {
	held Set
	when cond
}

// Before returns the locks that must be held, relative to the entry of
// its function, just before instr executes.
func (r *Result) Before(instr ssa.Instruction) Set {
	return r.Func(instr.Parent()).Before(instr)
}

// Func is the locksets of one function's instructions.
type Func struct {
	before  map[ssa.Instruction]Set
	blocked map[*ssa.Return]bool
}

// Blocked reports whether the function never returns by ret: the
// calls it deferred block forever there (see deferBlocks).
func (f Func) Blocked(ret *ssa.Return) bool { return f.blocked[ret] }

// Before returns the locks that must be held, relative to the entry of
// its function, just before instr executes.
func (f Func) Before(instr ssa.Instruction) Set { return f.before[instr] }

// Func returns the locksets of fn's instructions. A function that go/ssa
// made after Run is solved now, in a scratch table: an asker that walks
// many of its instructions keeps the Func rather than solving it again
// at each (see Before).
func (r *Result) Func(fn *ssa.Function) Func {
	fi, ok := r.funcs[fn]
	if !ok {
		fi = r.scratch().info(fn)
	}
	return Func{fi.before, fi.blocked}
}

func (sv *solver) info(fn *ssa.Function) *funcInfo {
	if fi, ok := sv.r.funcs[fn]; ok {
		return fi
	}
	if fi, ok := sv.funcs[fn]; ok {
		return fi
	}
	// before gets every instruction: sized for them, it never grows.
	n := 0
	for _, b := range fn.Blocks {
		n += len(b.Instrs)
	}
	fi := &funcInfo{before: make(map[ssa.Instruction]Set, n), busy: true}
	sv.funcs[fn] = fi
	if len(fn.Blocks) > 0 {
		sv.solve(fn, fi)
	}
	fi.busy = false
	return fi
}

// solve runs the must-held dataflow over fn's blocks to a fixed point:
// locksets only shrink at merges, so it terminates.
func (sv *solver) solve(fn *ssa.Function, fi *funcInfo) {
	returns, rets := sv.solveBefore(fn, fi, nil, nil)
	for i, s := range returns {
		if i == 0 {
			fi.acquires = s.Rooted()
		} else {
			fi.acquires = meet(fi.acquires, s)
		}
	}
	g := guardsOf(fn)
	fi.releases = sv.mayRelease(fn, fi, g)
	fi.takes = sv.mayTake(fn, fi, g)
	fi.okRets = sv.okReturns(fn, returns, rets, g)
}

// solveBefore fills fi.before, taking only the edges live allows (all
// when nil), and returns the lockset at each return it reaches. known
// is what fn's call fixes of its boolean parameters: a call of fn's
// that passes them on has the effect of its callee for those values.
func (sv *solver) solveBefore(fn *ssa.Function, fi *funcInfo, live func(*ssa.BasicBlock, int) bool, known Lits) ([]Set, []*ssa.Return) {
	outer := sv.known
	sv.known = known
	defer func() { sv.known = outer }()
	defers := defersOf(fn)
	deferred := sv.deferredReleases(defers)
	var returns []Set
	var rets []*ssa.Return
	p := dataflow.Forward[Set]{
		Order: loops.ReversePostorder(fn),
		Round: func() { returns, rets = returns[:0], rets[:0] },
		Transfer: func(b *ssa.BasicBlock, s Set) Set {
			blocked := false // the deferred calls never return (see deferBlocks)
			for _, instr := range b.Instrs {
				fi.before[instr] = s
				switch instr := instr.(type) {
				case *ssa.RunDefers:
					blocked = sv.deferBlocks(instr, defers, s)
					s = s.Without(deferred)
				case *ssa.Return:
					if blocked {
						if fi.blocked == nil {
							fi.blocked = make(map[*ssa.Return]bool)
						}
						fi.blocked[instr] = true
						break
					}
					returns = append(returns, s)
					rets = append(rets, instr)
				case *ssa.Call:
					s = sv.afterCall(instr.Common(), s)
					s = storedAlias(instr, s)
				case *ssa.Go:
					s = s.Without(keysOf(sv.transfersAt(instr.Common(), nil)))
				}
			}
			return s
		},
		Edge: func(b *ssa.BasicBlock, i int, out Set) Set {
			if h, ok := sv.r.tryLockEdge(b, i); ok {
				out = out.With(h)
			}
			for _, h := range sv.nilErrorEdge(b, i) {
				out = out.With(h)
			}
			return out
		},
		Live:  live,
		Meet:  meet,
		Equal: Set.equal,
	}
	p.Solve(fn)
	return returns, rets
}

// mayTake returns the locks, named from fn's parameters and variables,
// that fn or its callees may block to acquire while holding what the
// caller held: an acquisition after fn released the mutex on every path
// (a ...AndUnlock function that locks it again later) does not count.
// Each is taken under the condition on fn's boolean parameters that
// guards its block (g), and the callee's own, renamed. It also sets
// fi.unlocks, the locks fn releases on every path.
func (sv *solver) mayTake(fn *ssa.Function, fi *funcInfo, g guards) []condHeld {
	// The state of a block is the keys unlocked on every path from the
	// entry to it.
	var takes []condHeld
	var returns [][]facts.Key
	p := dataflow.Forward[[]facts.Key]{
		Order: loops.ReversePostorder(fn),
		Round: func() { takes, returns = nil, returns[:0] },
		Transfer: func(b *ssa.BasicBlock, rel []facts.Key) []facts.Key {
			here, live := g.at(b)
			for _, instr := range b.Instrs {
				if _, ok := instr.(*ssa.Return); ok {
					returns = append(returns, rel)
				}
				c, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if _, isGo := c.(*ssa.Go); isGo {
					rel = union(rel, keysOf(sv.transfersAt(c.Common(), nil)))
					continue
				}
				if live {
					for _, t := range sv.takesAt(c.Common(), here) {
						if t.Key.Rooted() && !slices.Contains(rel, t.Key) {
							takes = addTake(takes, t)
						}
					}
				}
				if _, isDefer := c.(*ssa.Defer); !isDefer {
					rel = union(rel, sv.unlockedBy(c.Common()))
				}
			}
			return rel
		},
		Meet:  intersect,
		Equal: func(x, y []facts.Key) bool { return len(x) == len(y) }, // meets only shrink
	}
	p.Solve(fn)
	for i, rel := range returns {
		if i == 0 {
			fi.unlocks = rel
		} else {
			fi.unlocks = intersect(fi.unlocks, rel)
		}
	}
	return takes
}

// unlockedBy returns the keys of the locks that a call releases on every
// path, in the caller's names.
func (sv *solver) unlockedBy(call *ssa.CallCommon) []facts.Key {
	if op, mu, _ := sv.r.lockOp(call); op == syncapi.Unlock || op == syncapi.RUnlock {
		return []facts.Key{Key(mu)}
	}
	if eff, bind, ok := sv.r.importedOf(call); ok {
		return eff.unlocks(bind) // an exported Unlock wrapper
	}
	fi, bind := sv.calleeInfo(call)
	if fi == nil {
		return nil
	}
	return bindAll(fi.unlocks, bind)
}

func union(a, b []facts.Key) []facts.Key {
	if len(b) == 0 {
		return a
	}
	out := slices.Clone(a)
	for _, k := range b {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, facts.Key.Compare)
	return out
}

func intersect(a, b []facts.Key) []facts.Key {
	var out []facts.Key
	for _, k := range a {
		if slices.Contains(b, k) {
			out = append(out, k)
		}
	}
	return out
}

// Takes returns the locks that call may block to acquire, in the
// caller's names, with where each is taken.
func (r *Result) Takes(call *ssa.CallCommon) Set {
	return r.scratch().takenBy(call)
}

func (sv *solver) takenBy(call *ssa.CallCommon) Set {
	var s Set
	for _, t := range sv.takesAt(call, nil) {
		s = s.With(t.Held)
	}
	return s
}

// takesAt returns the locks that call may block to acquire, in the
// caller's names, each under its condition on the caller's parameters:
// here, the condition of the call's block, and the callee's, renamed
// (see bindCond). A lock the callee takes only under a condition that
// the call's constant arguments falsify is not taken.
func (sv *solver) takesAt(call *ssa.CallCommon, here cond) []condHeld {
	switch op, mu := syncapi.MutexOp(call); op {
	case syncapi.Lock, syncapi.RLock:
		return []condHeld{{Held{Key: Key(mu), Value: mu, Read: op == syncapi.RLock, Pos: call.Pos()}, here}}
	case syncapi.NoLockOp:
	default:
		return nil
	}
	var takes []condHeld
	if eff, bind, ok := sv.r.importedOf(call); ok {
		takes = eff.takes(call, bind)
	} else if fi, bind := sv.calleeInfo(call); fi != nil {
		for _, t := range fi.takes {
			t.Key = bind(t.Key)
			takes = append(takes, t)
		}
	}
	return atCall(call, here, takes, func(t *condHeld) *cond { return &t.when })
}

// afterCall applies a call's effect on the held locks s.
func (sv *solver) afterCall(call *ssa.CallCommon, s Set) Set {
	op, mu, _ := sv.r.lockOp(call)
	switch op {
	case syncapi.Lock, syncapi.RLock:
		return s.With(Held{Key: Key(mu), Value: mu, Read: op == syncapi.RLock, Pos: call.Pos()})
	case syncapi.Unlock, syncapi.RUnlock:
		return s.Without([]facts.Key{Key(mu)})
	case syncapi.TryLock, syncapi.TryRLock:
		return s // held only on the branch that tested true: see tryLockEdge
	}
	if _, builtin := call.Value.(*ssa.Builtin); !builtin && call.StaticCallee() == nil {
		s = s.unsure()
	}
	if eff, _, ok := sv.r.importedOf(call); ok {
		s = s.Without(keysOf(sv.releasesAt(call, nil)))
		for _, h := range eff.acquiresAt(call) {
			s = s.With(h)
		}
		return s
	}
	fi, bind := sv.calleeInfo(call)
	if fi == nil {
		return s
	}
	s = s.Without(keysOf(sv.releasesAt(call, nil)))
	for _, h := range fi.acquires {
		h.Key = bind(h.Key)
		if h.Alias != (facts.Key{}) {
			if h.Alias = bind(h.Alias); !h.Alias.Bound() {
				h.Alias = facts.Key{}
			}
		}
		s = s.With(h)
	}
	return s
}

// deferBlocks reports whether the deferred calls run at rd (defers are
// its function's) block forever, so that the function never returns by
// rd: a call deferred before rd on every path to it locks, in the entry
// block of its function, a mutex held there (s) for writing, or for
// reading by a Lock, which no other deferred call may unlock first.
// sync.Mutex is not reentrant: the return that leaves the mutex held
// never happens (a double lock, which the deadlock analysis reports at
// the defer), and the function's callers are not left holding it.
func (sv *solver) deferBlocks(rd *ssa.RunDefers, defers []*ssa.Defer, s Set) bool {
	if len(s) == 0 {
		return false
	}
	for _, d := range defers {
		if !dataflow.Precedes(d, rd) {
			continue
		}
		for _, k := range sv.entryLocks(&d.Call, s) {
			released := false
			for _, other := range defers {
				if other != d && slices.Contains(sv.releasedBy(&other.Call), k) {
					released = true
				}
			}
			if !released {
				return true
			}
		}
	}
	return false
}

// entryLocks returns the keys, named as in the caller, of the mutexes of
// s that a call's function locks in its entry block, where it runs on
// every call, and that it has not unlocked before there: a Lock of one
// held at all, or an RLock of one held for writing.
func (sv *solver) entryLocks(call *ssa.CallCommon, s Set) []facts.Key {
	callee, bind := Callee(call)
	if callee == nil || len(callee.Blocks) == 0 {
		return nil
	}
	var keys, unlocked []facts.Key
	for _, instr := range callee.Blocks[0].Instrs {
		c, ok := instr.(*ssa.Call)
		if !ok {
			continue
		}
		op, mu := syncapi.MutexOp(c.Common())
		if mu == nil {
			continue
		}
		k := bind(Key(mu))
		switch op {
		case syncapi.Unlock, syncapi.RUnlock:
			unlocked = append(unlocked, k)
		case syncapi.Lock, syncapi.RLock:
			i := slices.IndexFunc(s, func(h Held) bool { return h.Key == k })
			if i < 0 || s[i].Unsure || slices.Contains(unlocked, k) || op == syncapi.RLock && s[i].Read {
				continue
			}
			keys = append(keys, k)
		}
	}
	return keys
}

// defersOf returns fn's defer statements.
func defersOf(fn *ssa.Function) []*ssa.Defer {
	var defers []*ssa.Defer
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok {
				defers = append(defers, d)
			}
		}
	}
	return defers
}

// deferredReleases returns the keys that a function's deferred calls
// (defers) may unlock when it returns.
func (sv *solver) deferredReleases(defers []*ssa.Defer) []facts.Key {
	var keys []facts.Key
	for _, d := range defers {
		keys = append(keys, sv.releasedBy(&d.Call)...)
	}
	return keys
}

// mayRelease returns the keys, named from fn's parameters and
// variables, of the locks that fn or its callees may unlock, each under
// its condition on fn's boolean parameters (see mayTake), but those fn
// locked itself first.
//
// A caller's lock that fn unlocks and locks again before every return
// that path reaches (s.mu.Unlock(); <-s.ready; s.mu.Lock(), in a wait
// loop with returns inside it) is given back to the caller as it was:
// it is not released (see leftReleased). One a deferred call or a
// goroutine releases is.
func (sv *solver) mayRelease(fn *ssa.Function, fi *funcInfo, g guards) []condKey {
	var rels []condKey
	left := sv.leftReleased(fn, fi)
	for _, b := range fn.Blocks {
		here, live := g.at(b)
		if !live {
			continue
		}
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			rs := sv.releasesAt
			if _, isGo := c.(*ssa.Go); isGo {
				rs = sv.transfersAt
			}
			for _, r := range rs(c.Common(), here) {
				// A lock fn holds there is one it took itself (its sets
				// start empty): unlocking it leaves the caller's as it
				// was (peek() { mu.Lock(); mu.Unlock() }).
				if _, own := fi.before[c].Find(r.key); r.key.Rooted() && !own {
					fi.callerUnlocks = union(fi.callerUnlocks, []facts.Key{r.key})
					if _, isCall := c.(*ssa.Call); isCall && !slices.Contains(left, r.key) {
						continue // locked again before every return
					}
					rels = addRelease(rels, r)
				}
			}
		}
	}
	return rels
}

// leftReleased returns the keys of the caller's locks that fn's calls
// (not its deferred calls nor its go statements) unlock and that some
// path then reaches a return without locking again. The state of a
// block is, for the paths from the entry to it, the caller's locks
// released on some path and not taken since, and those taken again
// after a release, which an Unlock releases again.
func (sv *solver) leftReleased(fn *ssa.Function, fi *funcInfo) []facts.Key {
	type state struct{ rel, again []facts.Key }
	var left []facts.Key
	p := dataflow.Forward[state]{
		Order: loops.ReversePostorder(fn),
		Round: func() { left = nil },
		Transfer: func(b *ssa.BasicBlock, st state) state {
			for i, instr := range b.Instrs {
				if _, ok := instr.(*ssa.Return); ok {
					left = union(left, st.rel)
				}
				c, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				before := fi.before[c]
				for _, r := range sv.releasesAt(c.Common(), nil) {
					_, own := before.Find(r.key)
					if r.key.Rooted() && (!own || slices.Contains(st.again, r.key)) {
						st.rel = union(st.rel, []facts.Key{r.key})
						st.again = without(st.again, r.key)
					}
				}
				if len(st.rel) > 0 && i+1 < len(b.Instrs) {
					// Taken again: held after the call and not before.
					after := fi.before[b.Instrs[i+1]]
					for _, k := range st.rel {
						_, was := before.Find(k)
						if _, is := after.Find(k); is && !was {
							st.rel = without(st.rel, k)
							st.again = union(st.again, []facts.Key{k})
						}
					}
				}
			}
			return st
		},
		Meet: func(x, y state) state { return state{union(x.rel, y.rel), union(x.again, y.again)} },
		// Meets only grow, but for a key a path takes again that
		// another left released, which is in both.
		Equal: func(x, y state) bool { return len(x.rel) == len(y.rel) && len(x.again) == len(y.again) },
	}
	p.Solve(fn)
	return left
}

// without returns keys without k, a copy if it was there.
func without(keys []facts.Key, k facts.Key) []facts.Key {
	if !slices.Contains(keys, k) {
		return keys
	}
	return slices.DeleteFunc(slices.Clone(keys), func(x facts.Key) bool { return x == k })
}

// Releases returns the keys of the locks a call may unlock, in the
// caller's names.
func (r *Result) Releases(call *ssa.CallCommon) []facts.Key {
	return r.scratch().releasedBy(call)
}

// releasedBy returns the keys of the locks a call may unlock, in the
// caller's names.
func (sv *solver) releasedBy(call *ssa.CallCommon) []facts.Key {
	return keysOf(sv.releasesAt(call, nil))
}

// releasesAt returns the locks a call may unlock, in the caller's
// names, each under its condition on the caller's parameters (see
// takesAt).
func (sv *solver) releasesAt(call *ssa.CallCommon, here cond) []condKey {
	if op, mu, _ := sv.r.lockOp(call); op == syncapi.Unlock || op == syncapi.RUnlock {
		return []condKey{{Key(mu), here}}
	}
	if _, f, ok := syncapi.OnceDo(call); ok {
		// once.Do(mu.Unlock): the first call unlocks, the others find
		// it done.
		if mu, ok := BoundUnlock(f); ok {
			return []condKey{{Key(mu), here}}
		}
	}
	var rels []condKey
	if eff, bind, ok := sv.r.importedOf(call); ok {
		rels = eff.releases(bind)
	} else if fi, bind := sv.calleeInfo(call); fi != nil {
		for _, r := range fi.releases {
			rels = append(rels, condKey{bind(r.key), r.when})
		}
	}
	return atCall(call, here, rels, func(r *condKey) *cond { return &r.when })
}

// transfersAt returns the locks that a go statement's call hands to the
// goroutine it starts, in the caller's names, each under its condition
// (see releasesAt): those the goroutine may release without taking them
// first, so that it releases the starter's ("go func() { flush();
// mu.Unlock() }()"). A goroutine that locks the mutex itself before it
// unlocks it waits for the starter's Unlock instead, and takes nothing.
func (sv *solver) transfersAt(call *ssa.CallCommon, here cond) []condKey {
	var taken []facts.Key
	for _, t := range sv.takesAt(call, nil) {
		taken = append(taken, t.Key)
	}
	return slices.DeleteFunc(sv.releasesAt(call, here), func(r condKey) bool {
		return slices.Contains(taken, r.key)
	})
}

// Transferred returns the locks held just before the go statement g
// that it hands to the goroutine it starts (see transfersAt), named in
// g's function: the starter no longer holds them after g, and the
// goroutine holds them from its start until it releases them.
func (r *Result) Transferred(g *ssa.Go) Set {
	keys := keysOf(r.scratch().transfersAt(g.Common(), nil))
	var s Set
	for _, h := range r.Before(g) {
		if slices.Contains(keys, h.Key) {
			s = append(s, h)
		}
	}
	return s
}

// calleeInfo returns the effect of the function a call statically calls,
// with the renaming of its keys into the caller's; nil when the callee
// is unknown, has no body here, or is being analyzed (recursion).
func (sv *solver) calleeInfo(call *ssa.CallCommon) (*funcInfo, func(facts.Key) facts.Key) {
	callee, bind := Callee(call)
	if callee == nil || len(callee.Blocks) == 0 {
		return nil, nil
	}
	fi := sv.info(callee)
	if fi.busy {
		return nil, nil
	}
	if len(fi.takes) == 0 && len(fi.releases) == 0 {
		return fi, bind // it locks nothing its caller can name, whatever the values
	}
	if lits := DecideTrusting(call, callee, sv.known, sv.trusted); len(lits) > 0 {
		// The call fixes some of the callee's boolean parameters:
		// its effect is the callee's for those values.
		if fi = sv.infoWhen(callee, lits); fi == nil {
			return nil, nil
		}
	}
	return fi, bind
}

// infoWhen returns the effect of fn in a call that fixes lits of its
// boolean parameters (see Decide): an if on one of them takes only the
// branch its value selects, and fn's own calls that pass them on have
// their callees' effects for those values. "func (tx *Tx) lock() { if
// tx.writable { mu.Lock() } else { mu.RLock() } }" leaves mu held for
// writing in a call on a Tx made writable, where its summary, which
// meets both branches, holds it only for reading. The locks fn may
// take and release are its summary's. nil while fn is being solved
// for the same values (recursion).
func (sv *solver) infoWhen(fn *ssa.Function, lits Lits) *funcInfo {
	base := sv.info(fn)
	if base.busy {
		return nil
	}
	if !sv.narrows(fn, lits) {
		return base
	}
	k := whenKey{fn, lits.String() + "|" + sv.trustKey}
	fi, ok := sv.when[k]
	if !ok {
		fi, ok = sv.r.when[k]
	}
	if ok {
		if fi.busy {
			return nil
		}
		return fi
	}
	n := 0
	for _, b := range fn.Blocks {
		n += len(b.Instrs)
	}
	fi = &funcInfo{before: make(map[ssa.Instruction]Set, n), busy: true}
	sv.when[k] = fi
	returns, rets := sv.solveBefore(fn, fi, lits.live(), lits)
	for i, s := range returns {
		if i == 0 {
			fi.acquires = s.Rooted()
		} else {
			fi.acquires = meet(fi.acquires, s)
		}
	}
	fi.releases, fi.takes, fi.unlocks, fi.callerUnlocks = base.releases, base.takes, base.unlocks, base.callerUnlocks
	fi.okRets = sv.okReturns(fn, returns, rets, guardsOf(fn))
	fi.busy = false
	return fi
}

// narrows reports whether lits change what fn does: an if of fn tests
// one of them, or a call of fn passes one on (the callee then gets a
// value it would not get from the call's constants alone).
func (sv *solver) narrows(fn *ssa.Function, lits Lits) bool {
	decide := lits.decide()
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.If:
				if _, ok := decide(instr.Cond); ok {
					return true
				}
			case *ssa.Call, *ssa.Defer:
				call := instr.(ssa.CallInstruction).Common()
				callee, _ := Callee(call)
				if callee != nil && len(callee.Blocks) > 0 && len(DecideTrusting(call, callee, lits, sv.trusted)) > len(DecideTrusting(call, callee, nil, sv.trusted)) {
					return true
				}
			}
		}
	}
	return false
}

// bindAll renames keys with bind.
func bindAll(keys []facts.Key, bind func(facts.Key) facts.Key) []facts.Key {
	var out []facts.Key
	for _, k := range keys {
		out = append(out, bind(k))
	}
	return out
}

// Callee returns the function a call statically calls and a function
// that renames the callee's keys into the caller's: parameters become the
// arguments, a closure's free variables its bindings.
func Callee(call *ssa.CallCommon) (*ssa.Function, func(facts.Key) facts.Key) {
	var callee *ssa.Function
	var bindings []ssa.Value
	switch v := call.Value.(type) {
	case *ssa.Function:
		callee = v
	case *ssa.MakeClosure:
		callee, _ = v.Fn.(*ssa.Function)
		bindings = v.Bindings
	case *ssa.Call:
		if !call.IsInvoke() {
			return returnedClosure(call, v)
		}
	}
	if callee == nil || call.IsInvoke() {
		return nil, nil
	}
	return callee, binder(call, bindings)
}

// returnedClosure returns the function literal that every return of the
// function maker calls statically returns (unlock := unlockOnce(&mu),
// unlockOnce returning func() { once.Do(l.Unlock) }), with the renaming
// of its keys into the names of the caller of call, the call of that
// literal: into the maker's names by the literal's bindings, then into
// the caller's by the maker's arguments (a captured parameter of the
// maker is the caller's argument; what the maker made itself, its Once,
// has no name there).
func returnedClosure(call *ssa.CallCommon, maker *ssa.Call) (*ssa.Function, func(facts.Key) facts.Key) {
	f := maker.Call.StaticCallee()
	if f == nil || len(f.Blocks) == 0 || f.Signature.Results().Len() != 1 {
		return nil, nil
	}
	var mc *ssa.MakeClosure
	for _, b := range f.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		m, ok := ret.Results[0].(*ssa.MakeClosure)
		if !ok || mc != nil && m != mc {
			return nil, nil
		}
		mc = m
	}
	if mc == nil {
		return nil, nil
	}
	g, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return nil, nil
	}
	inMaker, inCaller := binder(call, mc.Bindings), binder(&maker.Call, nil)
	return g, func(k facts.Key) facts.Key { return inCaller(inMaker(k)) }
}

// BoundUnlock returns the mutex whose Unlock or RUnlock the function
// value f is, as a method value (mu.Unlock, l.Unlock of a sync.Locker).
func BoundUnlock(f ssa.Value) (ssa.Value, bool) {
	mc, ok := f.(*ssa.MakeClosure)
	if !ok || len(mc.Bindings) != 1 {
		return nil, false
	}
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok || fn.Synthetic == "" {
		return nil, false
	}
	m, ok := fn.Object().(*types.Func)
	if !ok || m.Pkg() == nil || m.Pkg().Path() != "sync" || m.Name() != "Unlock" && m.Name() != "RUnlock" {
		return nil, false
	}
	return mc.Bindings[0], true
}

// Binder returns the renaming of the keys of the function that call
// statically calls, a function of another package, into the caller's.
func Binder(call *ssa.CallCommon) func(facts.Key) facts.Key { return binder(call, nil) }

// binder returns the renaming of a callee's keys into the caller's at
// call: roots become the actual values (see Actual), a package variable
// keeps its name, and a root without an actual is marked unbound.
func binder(call *ssa.CallCommon, bindings []ssa.Value) func(facts.Key) facts.Key {
	return func(k facts.Key) facts.Key {
		actual, global := Actual(call, bindings, k)
		switch {
		case global:
			return k // a package variable has one name everywhere
		case actual == nil:
			return k.Unbind()
		}
		if p, ok := Spilled(actual); ok {
			if rest, ok := k.Path().CutLoad(); ok {
				return Key(p).Extend(rest) // a load of the captured parameter
			}
		}
		return forward(actual, k.Path()) // tx.lock() on tx := &Tx{db: db} locks db.mu
	}
}

// Actual returns the value of the caller's that the root of a callee's
// key k stands for at call (a closure's free variables are bindings);
// k's path leads on from it. global is set when k is rooted at a package
// variable, which needs no renaming.
func Actual(call *ssa.CallCommon, bindings []ssa.Value, k facts.Key) (actual ssa.Value, global bool) {
	if !k.Bound() {
		return nil, false
	}
	switch root, i, _ := k.Root(); root {
	case facts.Param:
		if i < len(call.Args) {
			actual = call.Args[i]
		}
	case facts.FreeVar:
		if i < len(bindings) {
			actual = bindings[i]
		}
	case facts.Global:
		return nil, true
	}
	return actual, false
}

// tryLockEdge reports the lock that the i'th successor of b holds because
// b ended by testing the result of TryLock or TryRLock.
func (r *Result) tryLockEdge(b *ssa.BasicBlock, i int) (Held, bool) {
	if i != 0 || len(b.Instrs) == 0 {
		return Held{}, false // If's true branch is Succs[0]
	}
	cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return Held{}, false
	}
	call, ok := cond.Cond.(*ssa.Call)
	if !ok {
		return Held{}, false
	}
	op, mu, spin := r.lockOp(call.Common())
	if op != syncapi.TryLock && op != syncapi.TryRLock {
		return Held{}, false
	}
	return Held{Key: Key(mu), Value: mu, Read: op == syncapi.TryRLock, Pos: call.Pos(), Spin: spin}, true
}

// Key names the mutex that v points to by the expression that reaches
// it; see Held.Key. A load of a variable stored once, or of a field set
// once where its object was made, names what was stored (see forward).
func Key(v ssa.Value) facts.Key { return keyAt(v, 0) }

// keyAt is Key, having followed depth stores already: past maxForward
// it names loads as loads (a variable stored from itself).
func keyAt(v ssa.Value, depth int) facts.Key {
	switch v := v.(type) {
	case *ssa.FieldAddr:
		return keyAt(v.X, depth).Then(facts.Step{Op: facts.FieldAddr, Index: v.Field})
	case *ssa.Field:
		return keyAt(v.X, depth).Then(facts.Step{Op: facts.Field, Index: v.Field})
	case *ssa.IndexAddr:
		return keyAt(v.X, depth).Then(facts.Step{Op: facts.IndexAddr})
	case *ssa.UnOp:
		if p, ok := Spilled(v.X); ok {
			return keyAt(p, depth) // the parameter itself
		}
		if depth < maxForward {
			if w := storedOnce(v.X); w != nil {
				return keyAt(w, depth+1) // a variable stored once: what was stored
			}
			if fa, ok := v.X.(*ssa.FieldAddr); ok {
				if w, ok := fieldSource(fa.X, fa.Field, nil); ok {
					if _, isConst := w.(*ssa.Const); !isConst {
						return keyAt(w, depth+1) // tx.db of tx := &Tx{db: db}: db
					}
				}
			}
		}
		return keyAt(v.X, depth).Then(facts.Step{Op: facts.Load})
	case *ssa.ChangeType:
		return keyAt(v.X, depth)
	case *ssa.MakeInterface:
		return keyAt(v.X, depth)
	case *ssa.Parameter:
		return facts.ParamKey(slices.Index(v.Parent().Params, v))
	case *ssa.FreeVar:
		return facts.FreeVarKey(slices.Index(v.Parent().FreeVars, v))
	case *ssa.Global:
		return facts.GlobalKey(v.RelString(nil))
	}
	return facts.LocalKey(v.Name())
}

// Spilled returns the parameter or free variable that v, a variable
// the function's closures capture, holds for good: go/ssa gives a
// captured parameter a heap variable that is stored once at entry, and
// a load of it is the parameter. Not when anything else stores to it,
// here or through the closures.
func Spilled(v ssa.Value) (ssa.Value, bool) {
	alloc, ok := v.(*ssa.Alloc)
	if !ok || !alloc.Heap {
		return nil, false
	}
	var param ssa.Value
	for _, ref := range *alloc.Referrers() {
		switch ref := ref.(type) {
		case *ssa.Store:
			if ref.Addr != alloc || param != nil {
				return nil, false
			}
			switch ref.Val.(type) {
			case *ssa.Parameter, *ssa.FreeVar:
				param = ref.Val
			default:
				return nil, false
			}
		case *ssa.UnOp:
			if ref.Op != token.MUL {
				return nil, false
			}
		case *ssa.MakeClosure:
			if !ReadOnlyCapture(ref, alloc) {
				return nil, false
			}
		case *ssa.DebugRef:
		default:
			return nil, false
		}
	}
	return param, param != nil
}

// ReadOnlyCapture reports whether the closure mc only loads the
// variable v that it captures.
func ReadOnlyCapture(mc *ssa.MakeClosure, v ssa.Value) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return false
	}
	for i, b := range mc.Bindings {
		if b != v {
			continue
		}
		if i >= len(fn.FreeVars) || !OnlyLoaded(fn.FreeVars[i]) {
			return false
		}
	}
	return true
}

// OnlyLoaded reports whether the function of free variable fv only
// loads the variable fv points to.
func OnlyLoaded(fv *ssa.FreeVar) bool {
	for _, r := range *fv.Referrers() {
		switch r := r.(type) {
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// Rooted returns the members of s that a caller can name.
func (s Set) Rooted() Set {
	var out Set
	for _, h := range s {
		if h.Key.Rooted() {
			out = append(out, h)
		}
	}
	return out
}

// With returns s with h added; a write hold replaces a read hold.
func (s Set) With(h Held) Set {
	i, found := slices.BinarySearchFunc(s, h.Key, func(x Held, k facts.Key) int { return x.Key.Compare(k) })
	if found {
		if s[i].Read && !h.Read || s[i].Unsure && !h.Unsure {
			out := slices.Clone(s)
			out[i] = h
			return out
		}
		return s
	}
	return slices.Insert(slices.Clip(s), i, h)
}

// Without returns s without the locks named by keys.
func (s Set) Without(keys []facts.Key) Set {
	if len(keys) == 0 || len(s) == 0 {
		return s
	}
	var out Set
	for _, h := range s {
		if !slices.Contains(keys, h.Key) && (h.Alias == (facts.Key{}) || !slices.Contains(keys, h.Alias)) {
			out = append(out, h)
		}
	}
	if len(out) == len(s) {
		return s
	}
	return out
}

// meet returns the locks held in both s and t; a lock held for writing
// in one and reading in the other is held for reading.
func meet(s, t Set) Set {
	var out Set
	for _, h := range s {
		i := slices.IndexFunc(t, func(x Held) bool { return x.Key == h.Key })
		if i < 0 {
			continue
		}
		h.Read = h.Read || t[i].Read
		h.Unsure = h.Unsure || t[i].Unsure
		if h.Alias != t[i].Alias {
			h.Alias = facts.Key{}
		}
		out = append(out, h)
	}
	return out
}

func (s Set) equal(t Set) bool {
	return slices.EqualFunc(s, t, func(x, y Held) bool {
		return x.Key == y.Key && x.Read == y.Read && x.Unsure == y.Unsure && x.Alias == y.Alias
	})
}

// Find returns the lock of s named key.
func (s Set) Find(key facts.Key) (Held, bool) {
	i, found := slices.BinarySearchFunc(s, key, func(x Held, k facts.Key) int { return x.Key.Compare(k) })
	if !found {
		return Held{}, false
	}
	return s[i], true
}

// unsure returns s with every lock marked Unsure.
func (s Set) unsure() Set {
	if !slices.ContainsFunc(s, func(h Held) bool { return !h.Unsure }) {
		return s
	}
	out := slices.Clone(s)
	for i := range out {
		out[i].Unsure = true
	}
	return out
}
