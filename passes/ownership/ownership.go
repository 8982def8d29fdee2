package ownership

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/dataflow"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/origins"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Analyzer holds the ownership rules. It reports nothing; see the
// package documentation.
var Analyzer = &analysis.Analyzer{
	Name:       "ownership",
	Doc:        "rule out the accesses whose memory one goroutine owns at a time",
	URL:        "https://pkg.go.dev/github.com/origo-dev/origo/passes/ownership",
	Run:        run,
	Requires:   []*analysis.Analyzer{buildir.Analyzer, lockset.Analyzer, origins.Analyzer, pointer.Analyzer, shb.Analyzer},
	ResultType: reflect.TypeFor[*Result](),
}

// Result is what the ownership rules read: the package, its functions,
// the locksets, the pointer analysis and the happens-before graph. It is read-only;
// questions go through a Query (NewQuery), which memoizes what they find.
type Result struct {
	pkg   *types.Package
	files []*ast.File
	info  *types.Info
	locks *lockset.Result
	ptr   *pointer.Result
	hb    *shb.Result
	funcs []*ssa.Function // the package's, in source order
	orig  *origins.Result
}

func run(pass *analysis.Pass) (any, error) {
	return &Result{
		pkg:   pass.Pkg,
		files: pass.Files,
		info:  pass.TypesInfo,
		locks: pass.ResultOf[lockset.Analyzer].(*lockset.Result),
		ptr:   pass.ResultOf[pointer.Analyzer].(*pointer.Result),
		hb:    pass.ResultOf[shb.Analyzer].(*shb.Result),
		funcs: pass.ResultOf[buildir.Analyzer].(*buildir.IR).SrcFuncs,
		orig:  pass.ResultOf[origins.Analyzer].(*origins.Result),
	}, nil
}

// Query answers ownership questions on a Result. What a question finds
// is memoized, per Query: the memo is the asker's, so a Query is not
// safe for concurrent use, and each analyzer makes its own with
// Result.NewQuery, as with shb.Order.
type Query struct {
	pkg      *types.Package
	files    []*ast.File
	info     *types.Info
	locks    *lockset.Result
	ptr      *pointer.Result
	hb       *shb.Result
	funcs    []*ssa.Function // the package's functions, with literals
	order    *shb.Order      // the asker's happens-before queries
	fresh    *freshness      // writes before their object is published
	spawnEvs map[*pointer.Origin][]spawn
	spawns   map[*pointer.Origin]ssa.CallInstruction // by origin, its go statement (ownElements)
	reentry  map[*pointer.Origin]bool                // by origin, whether it runs its entry again

	live           map[*ssa.Function][]bool
	starts         map[*shb.Trace]map[runStart]int32    // see runStarts
	sends          [][]sent                             // by origin ID: see sendsOf
	handed         handOvers                            // handedOver's scratch
	recvs          map[*shb.Trace][]int32               // see firstRecv
	chans          map[sendKey]map[*pointer.Object]bool // see channels
	carrying       carrying                             // see sendsCarrying
	touched        [][][2]touchMemo                     // by origin ID, by event of its trace: see touches
	waited         map[ssa.Instruction]waited           // see readyClosed
	chanOps        map[int32][]chanOp
	inLoop         map[ssa.Instruction]bool              // see receivedInLoop
	dones          map[touchKey][]shb.Edge               // see doneAfter
	joined         map[ssa.CallInstruction]bool          // see joinedEachRun
	made           map[madeKey]bool                      // see madeInLoop
	flags          map[flagKey]bool                      // see flagSkipped
	flagWrites     map[pointer.Location][]flagSet        // see flagSets
	sentObjs       map[*pointer.Object][]ssa.Instruction // see sentIn
	takes          map[touchKey]*ssa.UnOp                // see takenBy
	takeLoads      map[*ssa.UnOp]bool                    // see isTake
	published      map[*shb.Trace][]int32                // see containerStores
	selfSynced     map[*pointer.Object]bool              // see internal
	serial         map[types.Object]bool                 // see documentedSerial
	replaced       map[*types.TypeName]bool              // see receiverReplaced
	uncut          map[structField]bool                  // see neverCut
	buffers        map[bufferKey]buffers                 // see swappedBuffers
	swapLocks      map[swapKey][]shb.LocksetID           // see swapLocksOf
	ev             evidenceMemo                          // see Evidence
	lockedAcc      map[pointer.Access]bool               // see locked
	loopFlags      map[flagLoop]flagVerdict              // see flagKeepsApart
	fnStateStores  map[*ssa.Function][]*ssa.Store        // see stateStoresIn
	allFieldStores map[*types.Var][]*ssa.Store           // see fieldStores
	ensured        map[ensureKey]bool                    // see ensuresLeft
	entered        map[*ssa.Function]lockset.Set         // see enteredHeld
	claims         map[*ssa.Store]claimVerdict           // see claimAt
	claimOfs       map[claimExec]claimFound              // see claimOf
	childRuns      map[childRuns]map[int]bool            // see runsIn
	once           map[*ssa.Function]bool                // see runsOnce
	subtestRuns    map[*ssa.Function]*pointer.Origin     // see subtestRun
	captured       map[*ssa.Function]captured            // see capturedReach
}

// NewQuery returns a Query on r that asks order, the asker's own, what
// happens before what.
func (r *Result) NewQuery(order *shb.Order) *Query {
	q := &Query{pkg: r.pkg, files: r.files, info: r.info, locks: r.locks, ptr: r.ptr, hb: r.hb, funcs: r.funcs, order: order, fresh: newFreshness(r.pkg, r.ptr, r.funcs)}
	q.fresh.spawnsOf = r.orig.Of
	q.spawnEvs = spawnsOf(r.hb)
	q.spawns, q.reentry = spawnSites(q.spawnEvs), make(map[*pointer.Origin]bool)
	return q
}

// Exec is one execution of an access: event X of trace T, holding the
// locks Locks.
type Exec struct {
	Acc   pointer.Access
	T     *shb.Trace
	X     int32
	Locks shb.LocksetID
}

// Alone returns the rule by which acc, an access to obj, races with
// nothing, whatever the other access: it initializes an object not yet
// published (not-published), stores back what it just loaded
// (self-store), or cannot run (dead-code); "" when none applies.
func (q *Query) Alone(acc pointer.Access, obj *pointer.Object) rules.ID {
	switch {
	case q.fresh.initializing(acc, obj):
		return rules.NotPublished
	case selfStore(acc):
		return rules.SelfStore
	case q.unreachable(acc.Instr):
		return rules.DeadCode
	}
	return ""
}

// Apart returns the rule by which two accesses to obj touch no memory
// at once, whatever their goroutines' order: both close a channel
// (closes-both), they touch different elements (other-elements) or each
// goroutine its own (own-element), or a type of another package
// synchronizes itself (self-synchronized); "" when none applies.
func (q *Query) Apart(obj *pointer.Object, a, b pointer.Access) rules.ID {
	switch {
	case closes(a) && closes(b):
		return rules.ClosesBoth
	case disjoint(a, b):
		return rules.OtherElements
	case q.ownElements(a, b):
		return rules.OwnElement
	case q.appendPastLen(a, b) || q.appendPastLen(b, a):
		return rules.AppendPastLen
	case q.internal(obj, a, b):
		return rules.SelfSynchronized
	}
	return ""
}

// Presumed returns the rule by which a pair that is concurrent only
// because library mode presumes it (see presumed) does not race:
// internal-package when the package is an internal one (see
// internalPath), no-evidence when nothing shows that the location is
// meant to be used by goroutines at once (see inconsistent; a field of a
// type documented as safe for concurrent use is, see
// documentedConcurrent),
// setup-method when a or b is a write in a method that its callers run
// only on objects they have not shared yet (see setupMethod); "" when
// neither applies or the pair is not presumed.
func (q *Query) Presumed(a, b pointer.Access) rules.ID {
	switch {
	case !presumed(a, b):
		return ""
	case q.documentedSerial(a) || q.documentedSerial(b):
		return rules.DocumentedSerial
	case q.receiverReplaced(a) || q.receiverReplaced(b):
		return rules.ReceiverReplaced
	case internalPath(q.pkg.Path()) && !q.documentedConcurrent(a.Loc):
		return rules.InternalPackage
	case !q.inconsistent(a, b) && !q.lockedBoth(a, b) && !q.documentedConcurrent(a.Loc):
		return rules.NoEvidence
	case q.settingUp(a) || q.settingUp(b):
		return rules.SetupMethod
	}
	return ""
}

// internalPath reports whether a package path has an element
// "internal": Go lets only the code rooted at the parent of that element
// import the package, so its callers are its own module's code. Which of
// them run at once is shown where they are analysed, at their calls
// (a pool that calls its buffer's Write holding the pool's mutex, or
// from two goroutines with none), not presumed here; a type the package
// documents as safe for concurrent use is still presumed used so.
func internalPath(path string) bool {
	return slices.Contains(strings.Split(path, "/"), "internal")
}

// documentedSerial reports whether acc touches an object of a type of
// the package, or is made by a method of one, whose documentation says
// that it is not safe for concurrent use ("PgConn ... is not safe for
// concurrent usage", "Allocate is not thread-safe"): the contract the
// callers follow, one goroutine at a time, whatever mutex or atomic the
// type carries for its own goroutines. Library mode presumes no two
// callers at once there.
func (q *Query) documentedSerial(acc pointer.Access) bool {
	if q.serial == nil {
		q.serial = make(map[types.Object]bool)
		for _, f := range q.files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && fd.Doc != nil && syncapi.DocConcurrent(fd.Doc.Text()) < 0 {
					q.serial[q.info.Defs[fd.Name]] = true
				}
			}
		}
		for tn := range syncapi.DocumentedTypes(q.files, q.info, -1) {
			q.serial[tn] = true
		}
	}
	if named, ok := types.Unalias(acc.Loc.Obj.Type).(*types.Named); ok && q.serial[named.Origin().Obj()] {
		return true
	}
	fn := acc.Instr.Parent()
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn.Object() != nil && q.serial[fn.Object()]
}

// receiverReplaced reports whether acc touches an object of a type of
// the package one of whose methods stores its whole receiver (*it =
// *it.next.fetch(), *b = Builder{}): such a store overwrites every
// field at once, a mutex or an atomic counter too, and races with
// every other method by design. The type is one goroutine's at a time
// (an iterator, a builder), whatever it synchronizes for its own
// goroutines, and library mode presumes no two callers at once there.
func (q *Query) receiverReplaced(acc pointer.Access) bool {
	named, ok := types.Unalias(acc.Loc.Obj.Type).(*types.Named)
	if !ok || named.Obj().Pkg() != q.pkg {
		return false
	}
	if q.replaced == nil {
		q.replaced = make(map[*types.TypeName]bool)
		for _, fn := range q.funcs {
			recv := fn.Signature.Recv()
			if recv == nil || len(fn.Params) == 0 {
				continue
			}
			ptr, ok := types.Unalias(recv.Type()).(*types.Pointer)
			if !ok {
				continue
			}
			rn, ok := types.Unalias(ptr.Elem()).(*types.Named)
			if !ok {
				continue
			}
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					if st, isStore := instr.(*ssa.Store); isStore && st.Addr == fn.Params[0] {
						q.replaced[rn.Origin().Obj()] = true
					}
				}
			}
		}
	}
	return q.replaced[named.Origin().Obj()]
}

// presumed reports whether a pair is concurrent only because library
// mode presumes that two callers may use the package's types at once:
// one side runs in a caller of the exported methods and the other in
// another caller or in a test or main. A pair inside one caller (a
// method and the goroutines it starts) needs no such presumption.
func presumed(a, b pointer.Access) bool {
	ra, rb := a.Origin.Ancestor(), b.Origin.Ancestor()
	return ra != rb && (ra.Root == pointer.MethodsRoot || rb.Root == pointer.MethodsRoot)
}

// inconsistent reports whether a pair shows that its location is meant
// to be used by goroutines at once: one side is atomic, or one side
// writes holding a lock and the other side holds none (inconsistent
// locking, as RacerD and checklocks infer it). Library mode reports a
// presumed pair only then, or where both sides hold locks (lockedBoth).
// A field that methods touch without synchronization is the caller's to
// guard (bytes.Buffer); one written without the lock and read with it
// is, as a rule, set up before the value is shared (SetID, Start); one
// written with the lock and read without is mutated while shared, and
// the read forgot the lock.
func (q *Query) inconsistent(a, b pointer.Access) bool {
	if a.Atomic || b.Atomic {
		return true
	}
	la, lb := q.locked(a), q.locked(b)
	return a.Write && la && !lb || b.Write && lb && !la ||
		!la && !lb && (bareWrite(a) || bareWrite(b))
}

// lockedBoth reports whether a written side and the other both hold
// locks: whether the other holds the writer's mutex is known only once
// the pair's events are placed, and a read holding another mutex only
// (setAddrsMu, where the append holds mu) forgot the writer's. A common
// mutex rules the pair out (common-lock); Evidence takes the rest as
// inconsistent locking, and nothing else as evidence.
func (q *Query) lockedBoth(a, b pointer.Access) bool {
	return (a.Write || b.Write) && q.locked(a) && q.locked(b)
}

// bareWrite reports whether acc is a write of a field that the function
// making it leaves unsynchronized while it locks a mutex, or applies an
// atomic operation to, in another field of the same object
// (rr.ChunkSize = 1 beside atomic.AddUint32(&rr.counter, 1); c.last = n
// after c.mu.Unlock()). A function that synchronizes on an object is
// written to run at once with others on it, and the write it leaves
// bare is made while the object is shared: evidence of sharing, as an
// inconsistently locked field is. The caller checks that no lock is
// held at the write.
func bareWrite(acc pointer.Access) bool {
	st, ok := acc.Instr.(*ssa.Store)
	if !acc.Write || !ok {
		return false
	}
	field, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	for _, b := range st.Parent().Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || len(call.Call.Args) == 0 {
				continue
			}
			other, ok := call.Call.Args[0].(*ssa.FieldAddr)
			if ok && other.X == field.X && other.Field != field.Field && synchronizes(&call.Call) {
				return true
			}
		}
	}
	return false
}

// synchronizes reports whether call locks a mutex (Lock, RLock or a
// TryLock of sync.Mutex and sync.RWMutex) or is an atomic operation (a
// function of sync/atomic or a method of its types).
func synchronizes(call *ssa.CallCommon) bool {
	if fn := call.StaticCallee(); fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "sync/atomic" {
		return true
	}
	switch op, _ := syncapi.MutexOp(call); op {
	case syncapi.Lock, syncapi.RLock, syncapi.TryLock, syncapi.TryRLock:
		return true
	}
	return false
}

// locked reports whether acc holds a lock where its goroutine's trace
// makes it, found once per access: a location's pairs are many.
func (q *Query) locked(acc pointer.Access) bool {
	if l, ok := q.lockedAcc[acc]; ok {
		return l
	}
	t := q.hb.TraceOf(acc.Origin)
	l := t != nil && q.hb.Locked(t, acc)
	if q.lockedAcc == nil {
		q.lockedAcc = make(map[pointer.Access]bool)
	}
	q.lockedAcc[acc] = l
	return l
}

// Touches reports whether event x of trace t, an execution of acc, may
// touch obj: true unless its chain of calls shows it cannot, or shows
// the object unpublished (see touches).
func (q *Query) Touches(t *shb.Trace, x int32, acc pointer.Access, obj *pointer.Object) bool {
	return q.touches(t, x, acc, obj)
}

// FreshAlong reports whether event x of trace t, an execution of acc,
// touches an object that a caller on its chain of calls made and had
// not published yet (not-published): why Touches drops it.
func (q *Query) FreshAlong(t *shb.Trace, x int32, acc pointer.Access) bool {
	q.touches(t, x, acc, nil) // fills the memo
	if q.touched == nil || q.touched[t.Origin.ID] == nil {
		return false
	}
	return q.touched[t.Origin.ID][x][b2i(acc.Write)].fresh
}

// FlagSkipped reports whether acc runs, in trace t, only where a flag
// set once before the goroutine started reads false (flag-skipped).
func (q *Query) FlagSkipped(acc pointer.Access, t *shb.Trace) bool {
	return q.flagSkipped(acc, t)
}

// PerIteration reports whether obj is made anew in each iteration of a
// loop: an access in one iteration does not touch what the next one
// accesses.
func (q *Query) PerIteration(obj *pointer.Object) bool { return q.allocatedInLoop(obj) }

// sentIn returns the sends (and select sends) of the package's goroutines
// whose value carries obj (it, or an object the value reaches through a
// pointer or two).
func (q *Query) sentIn(obj *pointer.Object) []ssa.Instruction {
	if q.sentObjs == nil {
		q.sentObjs = make(map[*pointer.Object][]ssa.Instruction)
		for _, t := range q.hb.Traces {
			for _, ev := range t.Events {
				if ev.Kind != shb.Send {
					continue
				}
				if v := sentValue(ev.Instr); v != nil {
					for o := range q.ptr.Reachable(t.Origin, v, 2, carriedLimit) {
						if !slices.Contains(q.sentObjs[o], ev.Instr) {
							q.sentObjs[o] = append(q.sentObjs[o], ev.Instr)
						}
					}
				}
			}
		}
	}
	return q.sentObjs[obj]
}

// sentAndKept reports whether acc may be made, after a send of a value
// that carries obj, by the function that sends it: the sender goes on using
// what it handed over (a buffer sent, then written again). A send hands
// its value over; an object that is only sent shows a transfer, not
// sharing. Nor does a request the sender uses again only once it has
// waited for the reply on a channel the request carries (see
// awaitsReply): the reply hands it back.
//
// The send may be in a function the sender calls before acc, two calls
// down at most (a hook stored in the object, s.onEvict(0), whose body
// sends it): the call sends it all the same, unless that function waits
// for the reply before it returns (see repliedBeforeReturn).
func (q *Query) sentAndKept(obj *pointer.Object, acc pointer.Access) bool {
	for _, s := range q.sentIn(obj) {
		if s.Parent() == acc.Instr.Parent() {
			if after(s, acc.Instr) && !awaitsReply(s, sentValue(s), acc.Instr) {
				return true
			}
		} else if !repliedBeforeReturn(s) && q.callsBefore(acc.Origin, acc.Instr, s.Parent(), 2) {
			return true
		}
	}
	return false
}

// repliedBeforeReturn reports whether the function that sends by s
// waits, after the send and before each of its returns, for the reply on
// a channel the value sent carries (see awaitsReply): a helper that
// sends a request and returns its answer (s.reqs <- req; return
// <-req.reply) hands the request over and back.
func repliedBeforeReturn(s ssa.Instruction) bool {
	rets := 0
	for _, b := range s.Parent().Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			rets++
			if !awaitsReply(s, sentValue(s), ret) {
				return false
			}
		}
	}
	return rets > 0
}

// callsBefore reports whether a call that precedes instr on every path
// in its function (not only in an earlier run of a loop around both),
// running in origin o, may run fn, depth calls down at most.
func (q *Query) callsBefore(o *pointer.Origin, instr ssa.Instruction, fn *ssa.Function, depth int) bool {
	return q.callsIn(o, instr.Parent(), fn, depth, func(c ssa.Instruction) bool { return dataflow.Precedes(c, instr) })
}

// callsIn reports whether a call in g (one that keep accepts, when it
// is not nil), run in origin o, may run fn, depth calls down at most.
func (q *Query) callsIn(o *pointer.Origin, g, fn *ssa.Function, depth int, keep func(ssa.Instruction) bool) bool {
	for _, b := range g.Blocks {
		for _, c := range b.Instrs {
			call, ok := c.(*ssa.Call)
			if !ok || keep != nil && !keep(c) {
				continue
			}
			for _, callee := range q.ptr.Callees(o, call) {
				if callee == fn || depth > 1 && len(callee.Blocks) > 0 && q.callsIn(o, callee, fn, depth-1, nil) {
					return true
				}
			}
		}
	}
	return false
}

// awaitsReply reports whether acc, in the function that sends v by s,
// comes only after a wait for a reply on a channel that v carries:
// req := &request{reply: make(chan T)}; ch <- req; <-req.reply, or a
// call that receives from it (a future's Error, which selects on its
// errCh and on a shutdown channel). The request/response idiom hands
// the request over and back; the sender's later uses of it show no
// sharing, whichever case of the wait was taken.
func awaitsReply(s ssa.Instruction, v ssa.Value, acc ssa.Instruction) bool {
	if v == nil {
		return false
	}
	for _, b := range s.Parent().Blocks {
		for _, w := range b.Instrs {
			if dataflow.Precedes(s, w) && dataflow.Precedes(w, acc) && receivesFrom(w, v, 1) {
				return true
			}
		}
	}
	return false
}

// receivesFrom reports whether instr receives from a channel that v
// carries (a field of v, or of what a field of v points to), directly,
// in a case of a select, or in the body of a function it calls with v,
// depth calls down.
func receivesFrom(instr ssa.Instruction, v ssa.Value, depth int) bool {
	switch instr := instr.(type) {
	case *ssa.UnOp:
		return instr.Op == token.ARROW && carriedBy(instr.X, v)
	case *ssa.Select:
		return slices.ContainsFunc(instr.States, func(st *ssa.SelectState) bool {
			return st.Dir == types.RecvOnly && carriedBy(st.Chan, v)
		})
	case *ssa.Call:
		callee := instr.Call.StaticCallee()
		if depth == 0 || callee == nil || len(callee.Params) != len(instr.Call.Args) {
			return false
		}
		for i, arg := range instr.Call.Args {
			if !carriedBy(arg, v) {
				continue
			}
			for _, b := range callee.Blocks {
				for _, in := range b.Instrs {
					if receivesFrom(in, callee.Params[i], depth-1) {
						return true
					}
				}
			}
		}
	}
	return false
}

// carriedBy reports whether x is v, or is loaded from or addresses a
// field of what v carries (v.reply, &v.deferError, (*v.f).g).
func carriedBy(x, v ssa.Value) bool {
	for range 8 {
		if x == v {
			return true
		}
		switch y := x.(type) {
		case *ssa.FieldAddr:
			x = y.X
		case *ssa.Field:
			x = y.X
		case *ssa.UnOp:
			if y.Op != token.MUL {
				return false
			}
			x = y.X
		default:
			return false
		}
	}
	return false
}

// after reports whether instruction y may run after x in their
// function: later in x's block, or in a block a path from x's block
// reaches (around a loop, x's own).
func after(x, y ssa.Instruction) bool {
	bx, by := x.Block(), y.Block()
	if bx == nil || by == nil {
		return false
	}
	if bx == by && slices.Index(bx.Instrs, x) < slices.Index(bx.Instrs, y) {
		return true
	}
	return reaches(bx, by, nil)
}

// MadeInLoop reports whether event x of trace t touches obj in a run,
// inside a loop of the trace, of a call that makes obj: each run of the
// loop makes its own object (see madeInLoop).
func (q *Query) MadeInLoop(t *shb.Trace, x int32, obj *pointer.Object) bool {
	return q.madeInLoop(t, x, obj)
}

// Guarded returns the rule by which two executions, neither holding a
// lock the other holds, still never reach obj's memory at once: one
// took what it touches out of a field holding its mutex
// (taken-under-lock), they are the two sides of a double buffer
// swapped under both locks (double-buffer), or each runs holding a
// claim on one state field (claimed-state); "" when none applies.
func (q *Query) Guarded(a, b Exec) rules.ID {
	if q.takenExcludes(a, b) {
		return rules.TakenUnderLock
	}
	if q.swappedBuffers(a.T, a.X, a.Acc, a.Locks, b.T, b.X, b.Acc, b.Locks) {
		return rules.DoubleBuffer
	}
	if q.claimed(a, b) {
		return rules.ClaimedState
	}
	return ""
}

// Owned returns the rule by which two executions that no
// happens-before chain orders still touch obj one after the other, the
// object passing from one goroutine to the other: each test's own
// objects (test-objects), writes before a method starts its goroutine
// (own-spawn), a channel handing the object over (handover), a future's
// close (future), a WaitGroup.Done after each item (done-per-item), a
// flag that records whether a loop runs (running-flag), a field that
// leaves its first value for good under a mutex (state-left); "" when
// none applies. perIter is PerIteration(obj).
func (q *Query) Owned(obj *pointer.Object, a, b Exec, perIter bool) rules.ID {
	ta, x, tb, y := a.T, a.X, b.T, b.X
	px, py := perIter || q.madeInLoop(ta, x, obj), perIter || q.madeInLoop(tb, y, obj)
	switch {
	case q.beforeRunStarts(obj, ta, x, tb, px) || q.beforeRunStarts(obj, tb, y, ta, py),
		q.otherRunsObject(obj, ta, x) || q.otherRunsObject(obj, tb, y),
		q.otherRunsPair(obj, ta, x, tb, y), q.waitedOtherRuns(obj, ta, x, tb, y):
		return rules.RunObjects
	case q.siblingSubtestObject(obj, ta, x) || q.siblingSubtestObject(obj, tb, y):
		return rules.SubtestObjects
	case q.ownSpawn(ta, x, a.Acc, tb, y, b.Acc) || q.ownSpawn(tb, y, b.Acc, ta, x, a.Acc):
		return rules.OwnSpawn
	case q.handedOver(obj, ta, x, tb, y, px || q.receivedInLoop(a.Acc)) || q.handedOver(obj, tb, y, ta, x, py || q.receivedInLoop(b.Acc)):
		return rules.Handover
	case q.publishedUnder(obj, a, b) || q.publishedUnder(obj, b, a):
		return rules.PublishedUnderLock
	case q.readyClosed(obj, a.Acc, ta, x, b.Acc, tb, y, perIter) || q.readyClosed(obj, b.Acc, tb, y, a.Acc, ta, x, perIter):
		return rules.Future
	case q.doneAfter(ta, x, a.Acc, tb, y) || q.doneAfter(tb, y, b.Acc, ta, x):
		return rules.DonePerItem
	case q.flagApart(a, b) || q.flagApart(b, a):
		return rules.RunningFlag
	case q.stateLeft(a, b) || q.stateLeft(b, a):
		return rules.StateLeft
	}
	return ""
}
