package shb

import (
	"go/token"
	"go/types"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/dataflow"
	"github.com/origo-dev/origo/passes/effects"
	"github.com/origo-dev/origo/passes/guard"
	"github.com/origo-dev/origo/passes/internal/loops"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Analyzer builds the static happens-before graph. It reports nothing;
// see the package documentation.
var Analyzer = &analysis.Analyzer{
	Name:             "shb",
	Doc:              "build the static happens-before graph of the package's goroutines",
	URL:              "https://pkg.go.dev/github.com/origo-dev/origo/passes/shb",
	Run:              run,
	Requires:         []*analysis.Analyzer{pointer.Analyzer, lockset.Analyzer, effects.Analyzer},
	ResultType:       reflect.TypeFor[*Result](),
	RunDespiteErrors: true,
}

// Kind is the kind of an event.
type Kind uint8

// The kinds of events.
const (
	Access      Kind = iota // a memory access of the pointer analysis
	Spawn                   // starts goroutines (Trace.Spawned)
	Send                    // channel send
	Recv                    // channel receive
	Close                   // close of a channel
	WGAdd                   // WaitGroup.Add
	WGDone                  // WaitGroup.Done
	WGWait                  // WaitGroup.Wait, errgroup.Group.Wait
	OnceEnd                 // the end of a Once.Do callback
	OnceAfter               // the return of Once.Do
	AtomicWrite             // a sync/atomic operation that writes
	SpinWait                // an atomic read that decides when a loop ends
	Acquire                 // Lock or RLock (for the deadlock analysis); Locks is what is held before
	CondWait                // sync.Cond.Wait
	CondSignal              // sync.Cond.Signal or Broadcast
	TimerNew                // makes and arms a time.Timer or Ticker (Event.Long)
	TimerReset              // Timer.Reset, Ticker.Reset
	TimerStop               // Timer.Stop, Ticker.Stop
	TimerFire               // a receive from a timer's channel C
	TestReport              // t.Log, t.Errorf, t.Fatal... in a goroutine a test started
	numKinds
)

// Event is an access or synchronization operation at one place of a
// trace. Its ID is its index in the trace: in one goroutine, an event
// happens before those with larger IDs, loops aside (see Loop).
type Event struct {
	ID    int32
	Kind  Kind
	Instr ssa.Instruction
	// Loop is the index in Trace.Loops of the outermost loop around the
	// event, across the calls that inlined it, or -1.
	Loop  int32
	Locks LocksetID
	// Obj identifies the channel, WaitGroup or Once of a synchronization
	// event; -1 when it is not one known object.
	Obj int32
	// Chain numbers the chain of calls the walk made the event in (see
	// Trace.Frames); -1 when it is not known.
	Chain int32
	// Several marks an event that stands for several chains: Chain's,
	// and those Trace.AllFrames finds.
	Several bool
	// Select marks a send or receive that is a case of a select
	// statement: it may not happen, so no edge leads into it.
	Select bool
	// Read marks an Acquire by RLock.
	Read bool
	// Long marks a TimerNew armed for a constant duration of at least
	// longTimer.
	Long bool
	// Imported numbers, from 1, the access of a function of another package
	// that Instr calls (see pointer.Imported); 0 for others.
	Imported int32
}

// LateAdd is an Add in the goroutine of Trace (event Add) on a WaitGroup
// that Waiter waits for at event Wait.
type LateAdd struct {
	Trace  *Trace
	Add    int32
	Waiter *Trace
	Wait   int32
}

// Span is the range of event IDs of a loop, both ends included.
type Span struct{ Start, End int32 }

// Trace is the sequence of events of one origin.
type Trace struct {
	Origin *pointer.Origin
	Events []Event
	Loops  []Span
	// Entries holds, for a root that runs several functions one after
	// the other (the tests, the library's methods), the ID of the first
	// event of each run: Entries[i] starts the i-th; nil for others.
	Entries []int32

	// ParallelAt is, for a subtest that calls t.Parallel in its own
	// function (not in a loop), the ID of the first event after that
	// call; -1 otherwise.
	ParallelAt int32
	// parallelCalls are, in the parallel tests' root, the IDs of the
	// first events after each run's t.Parallel, where the test's entry
	// block calls it.
	parallelCalls []int32

	// Truncated is set when the trace reached its size limit, or a call
	// nested too deep: accesses beyond it have no events.
	Truncated bool

	// EndLocks are the locks that a started goroutine still holds when
	// its function returns: those its function leaves held on every
	// return, and those its calls through interfaces left held (see
	// walker.dynamicLocks). 0 for a root.
	EndLocks LocksetID

	// Out lists the happens-before edges that leave the trace, by
	// Edge.Before.
	Out []Edge

	at      map[ssa.Instruction][]int32 // events by instruction
	spawned map[int32][]*pointer.Origin // by Spawn event: the origins it starts
	chains  []chainLink                 // by Event.Chain
	// regions are the walks that calls from other chains skipped as
	// the same (see walker.skipped), by base chain in regionsOf, and
	// alsoAt the other chains of events that merged the same access
	// of several (see walker.add): what AllFrames reads.
	regions   []region
	regionsOf map[int32][]int32
	alsoAt    map[int32][]int32
	onceAfter map[int32][]int32 // OnceAfter events by Once
	callback  map[int32]int32   // by OnceEnd event: the first event of its callback
	wide      map[int32]int32   // by event: the set a chain narrowed its object from (see walker.syncObj)
	// foreignUnlocks are the mutexes the goroutine unlocks where it
	// does not hold them: another goroutine's, handed over.
	foreignUnlocks []int32
	maxFrom        int32                    // the largest Edge.From in Out
	index          int32                    // in Result.Traces
	constDead      map[ssa.Instruction]bool // see ConstDead
	// recvLoops are, by Recv event, the index in locals of the loop
	// of the receive's own function around it (see ExitOf); locals
	// holds the spans of those loops, one per loop of a walked call.
	recvLoops map[int32]int32
	// closedRecvs are the Recv events past which the goroutine goes on
	// only once the channel was closed (see closedOnly).
	closedRecvs map[int32]bool
	// replayedClose holds, by the Close event of a deferred call's run
	// at the first return the walk of a call met, the same close's
	// event at the last return of that call (see LastReplay).
	replayedClose map[int32]int32
	locals        []Span
	// bodySpans are the spans of events that the receives of select
	// case bodies order, by bodyOf's index (see openBody).
	bodySpans  [][]Span
	bodyOf     map[int32]int32 // by Recv event
	bodyOthers [][]caseOp      // by bodySpans' index (see openBody)
	// allocs are, by allocation the trace runs and the call that
	// entered its function, the outermost loop of the trace around
	// every run of it, or -1 (see MadeIn).
	allocs map[allocKey]int32
}

// allocKey is an allocation and the calls it ran in, as a factory's
// context names them (pointer.Context.CallSites): the call of its
// function and the call of that call's function; nil for every call.
type allocKey struct {
	instr ssa.Instruction
	sites [2]ssa.CallInstruction
}

// MadeIn returns the outermost loop of t around every allocation at
// instr that t runs (an Alloc that escapes, or a make), in the calls
// that sites name (a factory's context, which tells its objects apart;
// in any call where the walk skipped those as the same walk of the
// function, or sites are nil); -1 where one runs outside loops or in
// two loops, t runs none, or t was cut. A loop around every making of an
// object of t's origin makes a new one in each run: what a run's callee
// allocated and the run kept (tx := db.begin(), whose Tx and what its
// init made) is that run's own.
func (t *Trace) MadeIn(instr ssa.Instruction, sites [2]ssa.CallInstruction) int32 {
	if t.Truncated {
		return -1 // a cut call may make one elsewhere
	}
	l, ok := t.allocs[allocKey{instr, sites}]
	if !ok { // a call skipped as the same walk of its function: any call
		l, ok = t.allocs[allocKey{instr: instr}]
	}
	if !ok {
		return -1
	}
	return l
}

// ExitOf returns the first event after the loop of its own function
// around receive id, the exit of a receive loop (for { v, ok := <-ch;
// if !ok { break } }, for range ch): the end of the loop around it in its
// caller may come much later, after other runs of the receive's
// function. Where the function has none, the end of its outermost loop
// (see after).
func (t *Trace) ExitOf(id int32) int32 {
	if l, ok := t.recvLoops[id]; ok {
		return t.locals[l].End + 1
	}
	if t.closedRecvs[id] {
		return id + 1 // what follows it has seen the close
	}
	return after(ref{t, id})
}

// ObservesClose reports whether the goroutine goes on past receive id
// only once the channel was closed (see closedOnly).
func (t *Trace) ObservesClose(id int32) bool { return t.closedRecvs[id] }

// LastReplay returns, for close event id, the event of the same close
// at the last return of its call, where a deferred close runs at each
// return the walk of the call met: defer close(done) before an early
// return (if err != nil { f.err = err; return }) and the end runs at
// both in the trace, one after the other, though a run of the call
// takes one return only. What the call did before either return, on
// its path, happens before its close; the events of the call up to
// its last return are those. id itself for any other close.
func (t *Trace) LastReplay(id int32) int32 {
	if last, ok := t.replayedClose[id]; ok {
		return last
	}
	return id
}

// closedOnly reports whether the function of recv, a receive that
// tells whether the channel was closed (v, ok := <-ch, or range ch),
// goes on past it only where it was: the branch where ok is true never
// returns (it panics: for e := range ech { panic(e) }, or if err, ok :=
// <-ch; ok { panic(err) }) and does not run the receive again (no
// loop). The code after it then comes after the close.
func closedOnly(recv *ssa.UnOp) bool {
	if !recv.CommaOk || recv.Referrers() == nil {
		return false
	}
	var iff *ssa.If
	for _, r := range *recv.Referrers() {
		x, ok := r.(*ssa.Extract)
		if !ok || x.Index != 1 || x.Referrers() == nil {
			continue
		}
		for _, rr := range *x.Referrers() {
			if i, ok := rr.(*ssa.If); ok && i.Cond == x && i.Block() == recv.Block() {
				iff = i
			}
		}
	}
	if iff == nil {
		return false
	}
	// Nothing reachable from the ok branch returns or comes back.
	seen := map[*ssa.BasicBlock]bool{iff.Block().Succs[0]: true}
	work := []*ssa.BasicBlock{iff.Block().Succs[0]}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == recv.Block() {
			return false
		}
		if len(b.Instrs) > 0 {
			if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
				return false
			}
		}
		for _, s := range b.Succs {
			if !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return true
}

// Spawned returns the origins of the goroutines that Spawn event id of
// t starts. They are kept apart from Event, which most events are not:
// a package's traces hold millions of events.
func (t *Trace) Spawned(id int32) []*pointer.Origin { return t.spawned[id] }

// UnlocksUnheld reports whether the goroutine may unlock the mutex at
// lock location obj where it does not hold it: a mutex another
// goroutine locked and hands over.
func (t *Trace) UnlocksUnheld(obj int32) bool { return slices.Contains(t.foreignUnlocks, obj) }

// ConstDead reports whether access instr has no event in t because every
// call of its function that t walked passes constants that rule its
// block out (see walker.lits): code that never runs in that goroutine.
func (t *Trace) ConstDead(instr ssa.Instruction) bool {
	return t.constDead[instr] && len(t.at[instr]) == 0
}

// Run returns the index in Entries of the run that event id belongs to,
// or -1 when the trace runs one function.
func (t *Trace) Run(id int32) int {
	if t.Entries == nil {
		return -1
	}
	i, _ := slices.BinarySearch(t.Entries, id+1) // the first run starting after id
	return i - 1
}

// Last returns the last event that event id of t may happen as, in
// program order: the end of the loop around it, unless the location it
// accesses is made anew in each iteration.
func (t *Trace) Last(id int32, perIteration bool) int32 {
	if ev := &t.Events[id]; ev.Loop >= 0 && !perIteration {
		return t.Loops[ev.Loop].End
	}
	return id
}

// Edge is a happens-before edge: the events of its trace with IDs from
// From on and below Before happen before the events of To with IDs from
// At on. From is 0 but for the edge that leaves a Once.Do callback,
// which orders the callback's events and not what came before the Do,
// and for the edge from a WaitGroup's maker, which orders what it did
// from its Add to its Done (see makersGroup).
type Edge struct {
	From   int32
	Before int32
	To     *Trace
	At     int32
	// Body, when above zero, says the edge lands in a select case
	// body's receive, and orders the events of To from At on that are
	// in To.bodySpans[Body-1] only.
	Body int32
}

// Kinds names the kinds of events, for debugging output.
var Kinds = [...]string{"access", "spawn", "send", "recv", "close", "add", "done", "wait", "once-end", "once-after", "atomic-write", "spin-wait", "acquire", "cond-wait", "cond-signal", "timer-new", "timer-reset", "timer-stop", "timer-fire", "test-report"}

// Result is the static happens-before graph of a package. It is
// read-only once the pass's Run returns, and safe for concurrent use;
// happens-before queries go through an Order of the asker's.
type Result struct {
	Traces []*Trace // in the order of the pointer analysis's origins
	runs   runs     // see findRuns
	Locks  *Locksets
	// LateAdds are the WaitGroup.Add calls made inside a goroutine that
	// the group's Wait waits for, with no Add before it started that
	// covers it (see the package documentation): Wait may return before
	// the Add, and nothing orders the goroutine's events before the
	// Wait's return.
	LateAdds []LateAdd
	// CutShort are the traces that the bounds on events cut short (see
	// MaxTraceEvents): their calls past the cut have no events, and
	// their accesses there are not checked.
	CutShort []*Trace
	byOrig   map[*pointer.Origin]*Trace
	imported map[importedKey]LocksetID // see AccessLocks
	observed map[observeKey]*observedWrites
	objs     *objects
}

// Location returns the abstract location that the lock or object number
// id (in a lockset or Event.Obj) stands for.
func (r *Result) Location(id int32) pointer.Location { return r.objs.locs[id] }

// Objects returns the abstract objects that the object number obj (an
// Event.Obj) stands for: its location's, and when it is a set of
// channels or WaitGroups taken as one (le.doneC of several lessors),
// each member's.
func (r *Result) Objects(obj int32) []*pointer.Object {
	objs := []*pointer.Object{r.objs.locs[obj].Obj}
	for _, m := range r.objs.members[obj] {
		objs = append(objs, r.objs.locs[m].Obj)
	}
	return objs
}

// ChanOperands returns the channels a send, receive or close event
// names in the code: the operand of the send, receive or close, or, for
// a select, the channel of each case of the event's direction.
func ChanOperands(ev *Event) []ssa.Value {
	switch x := ev.Instr.(type) {
	case *ssa.Send:
		return []ssa.Value{x.Chan}
	case *ssa.UnOp:
		if x.Op == token.ARROW {
			return []ssa.Value{x.X}
		}
	case *ssa.Call:
		if b, ok := x.Call.Value.(*ssa.Builtin); ok && b.Name() == "close" {
			return x.Call.Args
		}
	case *ssa.Select:
		var vs []ssa.Value
		for _, st := range x.States {
			if (st.Dir == types.SendOnly) == (ev.Kind == Send) {
				vs = append(vs, st.Chan)
			}
		}
		return vs
	}
	return nil
}

// Capacity returns the buffer size that the channel number obj (an
// Event.Obj) was made with, when the package makes it with a constant.
func (r *Result) Capacity(obj int32) (int64, bool) {
	if obj < 0 || int(obj) >= len(r.objs.locs) {
		return 0, false
	}
	return r.objs.capacity(obj)
}

// TraceOf returns the trace of origin o, or nil.
func (r *Result) TraceOf(o *pointer.Origin) *Trace { return r.byOrig[o] }

// EventsAt returns the IDs of the events of instr in t.
func (t *Trace) EventsAt(instr ssa.Instruction) []int32 { return t.at[instr] }

// AccessEvents returns the IDs of the access events of acc in t: those
// of its instruction (a send or a close also has the channel event,
// which comes after the access: an edge that leaves the operation
// orders the access, not the event), and of an access made in another
// package's code, those of that import.
func (t *Trace) AccessEvents(acc pointer.Access) []int32 {
	var out []int32
	for _, id := range t.at[acc.Instr] {
		ev := &t.Events[id]
		if ev.Kind == Access && (acc.Imported == nil || int(ev.Imported) == acc.Imported.Index+1) {
			out = append(out, id)
		}
	}
	return out
}

// Locked reports whether an access event of acc in t (of its first
// MaxPlaces) holds a mutex (see Locksets.HoldsMutex: a write inside a
// Once's Do holds none).
func (r *Result) Locked(t *Trace, acc pointer.Access) bool {
	evs := t.AccessEvents(acc)
	for _, ev := range evs[:min(len(evs), MaxPlaces)] {
		if r.Locks.HoldsMutex(r.AccessLocks(t, ev, acc)) {
			return true
		}
	}
	return false
}

// MaxPlaces bounds the events of one access that a question compares:
// an access in a helper inlined at many calls has many.
const MaxPlaces = 16

func run(pass *analysis.Pass) (any, error) {
	ptr := pass.ResultOf[pointer.Analyzer].(*pointer.Result)
	ls := pass.ResultOf[lockset.Analyzer].(*lockset.Result)
	eff := pass.ResultOf[effects.Analyzer].(*effects.Result)
	res := newResult(ptr)
	if ptr.Incomplete != "" || len(ptr.Origins) == 0 {
		return res, nil
	}
	if msg := guard.Do(pass, "shb", func() { build(res, ptr, ls, eff) }); msg != "" {
		return newResult(ptr), nil
	}
	return res, nil
}

// newResult returns a graph without traces.
func newResult(ptr *pointer.Result) *Result {
	objs := newObjects(ptr)
	ls := newLocksets()
	ls.objs = objs
	return &Result{
		Locks:    ls,
		byOrig:   make(map[*pointer.Origin]*Trace),
		imported: make(map[importedKey]LocksetID),
		objs:     objs,
	}
}

// InLoop reports whether block b lies on a cycle of its function.
func (r *Result) InLoop(b *ssa.BasicBlock) bool {
	comp, ok := r.objs.comps[b.Parent()]
	if !ok {
		comp = loops.Components(b.Parent()) // not walked: not kept, r is read-only
	}
	return comp[b.Index] >= 0
}

func build(res *Result, ptr *pointer.Result, ls *lockset.Result, eff *effects.Result) {
	// The locksets of the functions the walkers inline, asked once each:
	// a function go/ssa made after lockset's Run is solved when asked.
	lsFuncs := make(map[*ssa.Function]lockset.Func)
	lsWhen := make(map[lsWhenKey]lockset.Func)
	dos := make(map[*ssa.Function][]*ssa.Call)          // see walker.onceDos
	lockEffects := make(map[*ssa.Function]lockEffect)   // see walker.lockEffect
	importedOps := make(map[*ssa.Function][]effects.Op) // see walker.importedEffects
	takes := make(map[*ssa.CallCommon]lockset.Set)      // see walker.importedTakes
	// The locks a go statement hands to the goroutine it starts: the
	// pointer analysis lists a goroutine's origin after its starter's.
	handed := make(map[*pointer.Origin]LocksetID)
	accesses := make(map[*pointer.Origin]map[ssa.Instruction]bool)
	plain := make(map[pointer.Location]bool) // the locations accessed other than atomically
	for _, acc := range ptr.Accesses() {
		if !acc.Atomic {
			plain[acc.Loc] = true
		}
	}
	for _, acc := range ptr.Accesses() {
		if acc.Imported != nil {
			continue // placed by walker.imported
		}
		if acc.Atomic && !plain[acc.Loc] {
			continue // races with nothing: no event
		}
		m := accesses[acc.Origin]
		if m == nil {
			m = make(map[ssa.Instruction]bool)
			accesses[acc.Origin] = m
		}
		m[acc.Instr] = true
	}
	objs := res.objs
	total := 0
	twins := twinsOf(ptr.Origins)
	storers := storersOf(ptr, ls.StoredElsewhere())
	kept := &keptSems{drained: make(map[int32]bool)}
	for _, o := range ptr.Origins {
		t := &Trace{Origin: o, at: make(map[ssa.Instruction][]int32), ParallelAt: -1}
		w := &walker{
			ptr: ptr, ls: ls, lsFuncs: lsFuncs, lsWhen: lsWhen, lockEffects: lockEffects, importedOps: importedOps, takes: takes, eff: eff, locks: res.Locks, objs: objs,
			o: o, tr: t, access: accesses[o], handed: handed, recTarget: math.MaxInt,
			empty:        make(map[*ssa.Function]bool),
			walked:       make(map[*ssa.Function]walkState),
			spawnsWalked: make(map[*ssa.Function]bool),
			observed:     make(map[*ssa.BasicBlock]LocksetID),
			dos:          dos,
			made:         make(map[*ssa.Function]LocksetID),
			total:        &total, lastSync: -1, local: -1,
			chain:        -1,
			links:        make(map[chainLink]int32),
			narrowedObjs: make(map[chainValue][2]int32),
			twins:        twins[o],
			kept:         kept,
		}
		if o.Parent != nil {
			w.transferred = handed[o]
		}
		w.trusted = trustedIn(o, storers)
		w.trustKey = w.trusted.String()
		entries := ptr.RootFuncs(o)
		if o.Parent != nil || len(entries) == 0 {
			entries = []*ssa.Function{o.Entry}
		}
		w.runBudget = MaxTraceEvents
		for i, fn := range entries {
			if len(entries) > 1 {
				t.Entries = append(t.Entries, int32(len(t.Events)))
				w.runFrom, w.runBudget = len(t.Events), runBudget(len(t.Events), len(entries)-i)
			}
			w.call(fn, 0, -1)
			w.runCleanups()
		}
		if o.Parent != nil && len(o.Entry.Blocks) > 0 {
			acquires := w.lockEffect(o.Entry).acquires
			t.EndLocks = w.locks.union(w.locks.resolve(o, acquires, objs), w.transferred)
		}
		if c := ptr.ImportedEntry(o); c != nil {
			// A goroutine started in a function of another package: its
			// arguments are values of the spawner's.
			w.imported(c, o.Entry, o.Parent, 0, -1)
		}
		if w.cutShort {
			res.CutShort = append(res.CutShort, t)
		}
		t.index = int32(len(res.Traces))
		res.Traces = append(res.Traces, t)
		res.byOrig[o] = t
	}
	kept.release(res.Locks, objs)
	res.internImported(ptr)
	res.link(objs)
	res.Locks.keyClones()
	res.linkObservations(objs)
	res.findRuns(res.NewOrder())
}

// Limits on a trace: inlining every call of a goroutine is what makes
// order a comparison of integers, and what must not grow without bound.
// The events of a package's traces cost most of its analysis's time and
// memory after the pointer analysis, in the walk and in the race
// analysis's pairs: net's tests reach the package's bound, and take
// 12 s alone on 2 cores with it, 15 s with two million, where go vet,
// running another package beside it, must not pass 30.
const (
	MaxTraceEvents   = 50_000    // events of one trace
	MaxPackageEvents = 1_500_000 // events of all the traces of a package
	maxInlineDepth   = 24        // calls inlined into one another
)

// MaxSequenceEvents bounds the events of a root trace that runs
// functions one after the other (the tests, a library's entry points):
// each run is a program of its own that go test starts in turn, so each
// gets a budget of its own (see runBudget), and no test goes unwalked
// because the ones before it were long.
const MaxSequenceEvents = 300_000

// runBudget is the budget of events of the next run of a root trace of
// runs in sequence, when the runs before it made used events and left
// runs are left, itself among them: a fair share of what is left of
// MaxSequenceEvents, at most MaxTraceEvents, so that short tests leave
// their share to the long ones after them.
func runBudget(used, left int) int {
	return min(MaxTraceEvents, max(minRunEvents, (MaxSequenceEvents-used)/max(left, 1)))
}

// minRunEvents is the least budget of a run: a package of thousands of
// tests still walks each one's first calls.
const minRunEvents = 200

// walker builds the trace of one origin.
type walker struct {
	ptr          *pointer.Result
	ls           *lockset.Result
	lsFuncs      map[*ssa.Function]lockset.Func  // shared by the walkers of one build
	lockEffects  map[*ssa.Function]lockEffect    // the same
	importedOps  map[*ssa.Function][]effects.Op  // the same
	takes        map[*ssa.CallCommon]lockset.Set // the same: ls.Takes by call (see importedTakes)
	eff          *effects.Result
	locks        *Locksets
	objs         *objects
	o            *pointer.Origin
	tr           *Trace
	access       map[ssa.Instruction]bool
	stack        []*ssa.Function
	sites        []ssa.CallInstruction   // the calls that entered them (nil for a root's)
	site         ssa.CallInstruction     // the call that the next call of call walks
	chain        int32                   // the chain of calls being walked (see Trace.Frames)
	narrowed     int                     // dynamic calls narrowed by their chain so far (see callees)
	links        map[chainLink]int32     // the chains of the trace, numbered
	narrowedObjs map[chainValue][2]int32 // see syncObj
	twins        []*pointer.Origin       // the origin's twins, itself among them (see syncObj)
	empty        map[*ssa.Function]bool  // functions that gave no events
	cuts         int                     // calls not inlined (recursion, depth, size)
	deepCuts     int                     // the same, for depth and size
	cutShort     bool                    // a call was cut for size (see Result.CutShort)
	total        *int                    // events of every trace of the package
	runFrom      int                     // the first event of the run being walked (see Trace.Entries)
	cleanups     []ssa.CallInstruction   // the t.Cleanup calls of the test run being walked (see runCleanups)
	runBudget    int                     // the events it may have

	// recTarget is the least index in stack of a function that a call
	// cut as recursive would have entered again, in the walks under way.
	recTarget int

	// SWORD's region merging: an access that repeats with the same locks
	// and no synchronization in between adds nothing, nor does a call
	// of a function without synchronization repeated in one region.
	syncs    int   // synchronization events so far
	lastSync int32 // the ID of the last one
	walked   map[*ssa.Function]walkState

	spawnsWalked map[*ssa.Function]bool // see spawnsOnly

	observed map[*ssa.BasicBlock]LocksetID // see observations
	dos      map[*ssa.Function][]*ssa.Call // see onceDos; shared by the walkers of one build
	made     map[*ssa.Function]LocksetID   // see madeAfterDo
	resolved map[resolvedAt]LocksetID      // see resolveAt

	// lits are what the calls being walked fix of their callees'
	// boolean parameters, by depth (see lockset.Decide): a call that
	// passes lock true to "if lock { mu.Lock(); defer mu.Unlock() }"
	// walks only that branch and holds mu below it.
	lits   []lockset.Lits
	lsWhen map[lsWhenKey]lockset.Func // shared by the walkers of one build
	// trusted are the fields that functions other than their objects'
	// makers store to, none of which the origin runs (see
	// lockset.Trusted), and trustKey their name in lsWhenKey.
	trusted  lockset.Trusted
	trustKey string

	sems     []int32       // semaphore channels acquired (see chanOp)
	semLocks LocksetID     // the same, as a lockset
	acqs     []acquisition // the sends that acquired them, innermost call last
	kept     *keptSems     // the package's, shared by its walkers

	// transferred are the locks the goroutine's starter handed it (see
	// handOver), held until the goroutine releases them; handed is
	// where the starters' walkers note them, shared by one build.
	transferred LocksetID
	handed      map[*pointer.Origin]LocksetID

	// local is the loop of the function being walked around the block
	// being walked, in tr.locals, or -1 (see Trace.ExitOf).
	local int32
}

// acquisition is a send that took a semaphore channel: the events from
// start on hold it, until a receive on it releases it.
type acquisition struct {
	obj      int32
	start    int32
	released bool
}

// keptSems are the semaphores a goroutine took and never gave back,
// and the channels received from by a goroutine that did not fill them.
// A channel with a buffer of one that only its fillers drain (every
// receive from it gives back a send of the same goroutine) is held by
// a goroutine that fills it and never drains it until the goroutine
// ends: no other send completes before a receive takes that value, and
// none will (a Close that locks a connection's mutex for good, c.mu <-
// struct{}{}, and never unlocks it). One that someone else drains was a
// handoff: the receiver takes the value, and the events after the send
// hold nothing (see release).
type keptSems struct {
	list    []keptSem
	drained map[int32]bool
}

type keptSem struct {
	tr         *Trace
	obj        int32
	start, end int32
}

// release ends every kept semaphore that is drained, or whose set of
// channels (see objects.group) has a drained member, or that is a
// member of a drained set.
func (k *keptSems) release(locks *Locksets, objs *objects) {
	gone := maps.Clone(k.drained)
	for set, ms := range objs.members {
		for _, m := range ms {
			if k.drained[m] {
				gone[set] = true
			}
			if k.drained[set] {
				gone[m] = true
			}
		}
	}
	for _, s := range k.list {
		if gone[s.obj] {
			s.tr.withoutSem(locks, s.obj, s.start, s.end)
		}
	}
}

// withoutSem removes the semaphore obj from the locksets of the events
// [start, end).
func (t *Trace) withoutSem(locks *Locksets, obj, start, end int32) {
	for i := start; i < end; i++ {
		ev := &t.Events[i]
		ev.Locks = locks.without(ev.Locks, obj)
	}
}

// storersOf returns, for each field among stored (each with the
// functions that store to it other than where its objects are made),
// the origins that run one of those functions; a nil origin stands for
// every one (the context-insensitive analysis).
func storersOf(ptr *pointer.Result, stored map[*types.Var][]*ssa.Function) map[*types.Var]map[*pointer.Origin]bool {
	out := make(map[*types.Var]map[*pointer.Origin]bool, len(stored))
	for field, fns := range stored {
		runs := make(map[*pointer.Origin]bool)
		for _, fn := range fns {
			for _, o := range ptr.OriginsOf(fn) {
				runs[o] = true
			}
		}
		out[field] = runs
	}
	return out
}

// trustedIn returns the fields that origin o runs none of the functions
// that store to them elsewhere than where their objects are made: there,
// the value an object was made with stays (see lockset.Trusted).
func trustedIn(o *pointer.Origin, storers map[*types.Var]map[*pointer.Origin]bool) lockset.Trusted {
	var t lockset.Trusted
	for field, runs := range storers {
		if runs[o] || runs[nil] {
			continue
		}
		if t == nil {
			t = make(lockset.Trusted)
		}
		t[field] = true
	}
	return t
}

// walkState is how the last call of a function without synchronization
// events was walked.
type walkState struct {
	syncs       int // w.syncs after the walk
	held        LocksetID
	transferred LocksetID
	loop        int32
	// from and to are the events of the walk; chain, the chain it made
	// them in. A call skipped as the same walk has events there too.
	from, to int32
	chain    int32
	// narrowed says the walk called fewer functions than the pointer
	// analysis finds, for its chain (see callees): another chain's walk
	// is another walk.
	narrowed bool
	// depth is the least depth of call the walk is whole at: where it
	// was walked, when calls past maxInlineDepth were cut; else 0.
	depth int32
	// region is the walk's index in Trace.regions once a call from
	// another chain skipped it, or -1.
	region int32
}

// call inlines fn, called with the locks held (the caller's lockset).
// loop is the caller's outermost loop around the call, or -1.
func (w *walker) call(fn *ssa.Function, held LocksetID, loop int32) {
	site := w.site
	w.site = nil
	if len(fn.Blocks) == 0 || w.empty[fn] {
		return
	}
	if id := w.made[fn]; id != 0 {
		held = w.locks.union(held, id) // see madeAfterDo
	}
	// A call that fixes some of fn's boolean parameters walks the
	// blocks they allow (see walker.lits), a walk of its own.
	var lits lockset.Lits
	if _, isGo := site.(*ssa.Go); site != nil && !isGo {
		var known lockset.Lits
		if len(w.lits) > 0 {
			known = w.lits[len(w.lits)-1]
		}
		lits = lockset.DecideTrusting(site.Common(), fn, known, w.trusted)
	}
	// The chain is numbered only if the call is walked: most calls are
	// skipped as the same walk, and a package's tests skip millions.
	l := chainLink{w.chain, site, fn}
	if st, ok := w.walked[fn]; ok && len(lits) == 0 && st.syncs == w.syncs && st.held == held && st.transferred == w.transferred && st.loop == loop && (!st.narrowed || w.isChain(st.chain, l)) && len(w.stack) >= int(st.depth) {
		if !w.isChain(st.chain, l) && st.chain >= 0 {
			st.region = w.skipped(st, l)
			st.chain = -1
			w.walked[fn] = st
		} else if st.region >= 0 {
			w.skippedAgain(st.region, l)
		}
		return // the same accesses, in the same region: nothing new
	}
	if len(w.stack) >= maxInlineDepth || len(w.tr.Events)-w.runFrom >= w.runBudget || *w.total >= MaxPackageEvents {
		w.cutShort = w.cutShort || len(w.stack) < maxInlineDepth
		w.tr.Truncated = true
		w.cuts++
		w.deepCuts++
		outer := w.chain
		w.chain = -1 // not walked as a call: its spawns stand for any chain
		w.spawnsOnly(fn, held, loop)
		w.chain = outer
		return
	}
	for i, f := range w.stack {
		if f == fn {
			w.cuts++
			w.recTarget = min(w.recTarget, i)
			return
		}
	}
	depth := len(w.stack)
	w.stack = append(w.stack, fn)
	w.sites = append(w.sites, site)
	w.lits = append(w.lits, lits)
	var live []bool
	if len(lits) > 0 {
		live = lockset.Live(fn, lits)
	}
	chain := w.link(l)
	outer := w.chain
	w.chain = chain
	defer func() { w.chain = outer }()
	events, cuts, syncs, narrowed, transferred := len(w.tr.Events), w.cuts, w.syncs, w.narrowed, w.transferred
	deepCuts, recTarget := w.deepCuts, w.recTarget
	w.recTarget = math.MaxInt
	// A semaphore is taken and given back in one function (the receive
	// may be in a function it calls, as in defer func() { <-sem }()): a
	// semaphore not given back is no lock (see endSems), one the callee
	// gave back stays given back.
	sems, semLocks, acqs := slices.Clone(w.sems), w.semLocks, len(w.acqs)
	sb := newSemBlocks(fn)
	defer func() { w.endSems(sems, semLocks, acqs, sb.atReturn, sb.returned) }()
	comp := w.objs.components(fn)
	loopOf := make(map[int]int32)
	localOf := make(map[int]int32) // fn's own loops, in w.tr.locals
	outerLocal := w.local
	var defers callDefers
	var bodies []*openBody // the select case bodies walked so far
	for _, b := range w.objs.order(fn) {
		if live != nil && !live[b.Index] {
			w.markDead(b, deadDepth)
			continue // not run in this call
		}
		l := loop
		if l < 0 && comp[b.Index] >= 0 {
			var ok bool
			if l, ok = loopOf[comp[b.Index]]; !ok {
				l = int32(len(w.tr.Loops))
				w.tr.Loops = append(w.tr.Loops, Span{-1, -1})
				loopOf[comp[b.Index]] = l
			}
		}
		w.local = -1
		if c := comp[b.Index]; c >= 0 {
			lc, ok := localOf[c]
			if !ok {
				lc = int32(len(w.tr.locals))
				w.tr.locals = append(w.tr.locals, Span{int32(len(w.tr.Events)), -1})
				localOf[c] = lc
			}
			w.local = lc
		}
		w.enterBlock(b, &sb)
		for _, o := range bodies {
			o.enter(b, int32(len(w.tr.Events)))
		}
		if c, ok := w.objs.selects(fn).bodies[b]; ok {
			id := w.selectCase(c.sel, c.index, false, w.locksAt(c.sel, held), l)
			if c.region != nil && id >= 0 {
				bodies = append(bodies, w.openBody(c.sel, c.index, id, c.region))
			}
		}
		for _, instr := range b.Instrs {
			w.instr(instr, held, l, &defers)
		}
		w.leaveBlock(b, &sb)
		if w.local >= 0 {
			s := &w.tr.locals[w.local]
			s.End = max(s.End, int32(len(w.tr.Events))-1)
		}
	}
	for _, o := range bodies {
		w.tr.closeBody(o, int32(len(w.tr.Events)))
	}
	w.local = outerLocal
	w.stack = w.stack[:len(w.stack)-1]
	w.sites = w.sites[:len(w.sites)-1]
	w.lits = w.lits[:len(w.lits)-1]
	// A walk whose recursive calls were cut only where they entered fn
	// or its callees again is whole wherever fn is called; one cut for
	// depth is whole for calls at least as deep. Those that recurse
	// through their caller are walked anew under each caller.
	own := w.recTarget >= depth
	w.recTarget = min(w.recTarget, recTarget)
	if len(w.tr.Events) == events && (w.cuts == cuts || own && w.deepCuts == deepCuts) && w.narrowed == narrowed && w.transferred == transferred && live == nil {
		w.empty[fn] = true
	}
	if w.syncs == syncs && (w.cuts == cuts || own) && live == nil {
		st := walkState{w.syncs, held, w.transferred, loop, int32(events), int32(len(w.tr.Events)), chain, w.narrowed != narrowed, 0, -1}
		if w.deepCuts != deepCuts {
			st.depth = int32(depth)
		}
		w.walked[fn] = st
	}
}

func (w *walker) instr(instr ssa.Instruction, held LocksetID, loop int32, defers *callDefers) {
	if w.access[instr] {
		w.add(Event{Kind: Access, Instr: instr, Obj: -1}, w.accessLocks(instr, held), loop)
	}
	switch instr := instr.(type) {
	case *ssa.Send:
		w.chanOp(Send, instr, instr.Chan, false, held, loop)
	case *ssa.UnOp:
		if instr.Op == token.ARROW {
			w.chanOp(Recv, instr, instr.X, false, held, loop)
		}
	case *ssa.Select:
		// A case with a body of its own happens where its body starts
		// (see selectCase); the others may or may not happen.
		info := w.objs.selects(instr.Parent())
		bodies := info.cases[instr]
		passing := passingCase(info, instr, bodies)
		for i := range instr.States {
			if bodies == nil || bodies[i] == nil {
				id := w.selectCase(instr, i, i != passing, held, loop)
				if st := instr.States[i]; i != passing && info.onlyWayOn(instr, i) {
					// The code after the select runs only once
					// this send took the semaphore (or this
					// receive took a token, or gave one back).
					obj, _ := w.syncObj(st.Chan)
					w.semOp(caseKind(st), obj, st.Chan, id)
				}
				if st := instr.States[i]; !instr.Blocking && st.Dir == types.RecvOnly {
					// A select with a default takes a case that is
					// ready: a receive from a semaphore this
					// goroutine holds, whose buffer it filled, is
					// (select { case <-m.ch: default: } in Unlock).
					obj, _ := w.syncObj(st.Chan)
					if _, found := slices.BinarySearch(w.sems, obj); found {
						w.semOp(Recv, obj, st.Chan, id)
					}
				}
			}
		}
	case *ssa.Defer:
		defers.list = append(defers.list, instr)
	case *ssa.RunDefers, *ssa.Panic:
		if p, ok := instr.(*ssa.Panic); ok && !w.goexits(p) {
			break
		}
		at := w.callLocks(instr, held)
		for i := len(defers.list) - 1; i >= 0; i-- {
			// Only what a path to here deferred: not the defer after
			// an early return's branch (tx, err := begin(); if err
			// != nil { return }; defer tx.Commit()).
			if d := defers.list[i]; dataflow.MayPrecede(d, instr) {
				from := int32(len(w.tr.Events))
				w.callInstr(d, at, loop)
				w.replayed(defers, d, from)
			}
		}
	case *ssa.Go:
		w.spawn(instr, w.callLocks(instr, held), loop) // with the locks its function holds there (see Order.JoinedUnderLock)
	case *ssa.MakeClosure:
		w.madeAfterDo(instr, held)
	case *ssa.Alloc:
		if instr.Heap {
			w.allocated(instr, loop)
		}
	case *ssa.MakeMap, *ssa.MakeChan, *ssa.MakeSlice:
		w.allocated(instr, loop)
	case *ssa.Call:
		w.callInstr(instr, w.callLocks(instr, held), loop)
	}
}

// callDefers are the deferred calls of one call's walk so far, and the
// Close events each added at the first return the walk met (see
// replayed).
type callDefers struct {
	list   []*ssa.Defer
	closes map[*ssa.Defer][]int32
}

// replayed notes the Close events that deferred call d, run from event
// from on, added at a return of the call whose defers are defers: the
// first run's closes, and, at a later return, which of them each of
// this run's is (Trace.LastReplay).
func (w *walker) replayed(defers *callDefers, d *ssa.Defer, from int32) {
	var closes []int32
	for id := from; id < int32(len(w.tr.Events)); id++ {
		if w.tr.Events[id].Kind == Close {
			closes = append(closes, id)
		}
	}
	if len(closes) == 0 {
		return
	}
	first, ok := defers.closes[d]
	if !ok {
		if defers.closes == nil {
			defers.closes = make(map[*ssa.Defer][]int32)
		}
		defers.closes[d] = closes
		return
	}
	if len(first) != len(closes) {
		return // another path's closes: not the same ones
	}
	if w.tr.replayedClose == nil {
		w.tr.replayedClose = make(map[int32]int32)
	}
	for i, id := range first {
		w.tr.replayedClose[id] = closes[i]
	}
}

// goexits reports whether p ends a goroutine's block after a call that
// ends the goroutine by runtime.Goexit (t.Fatal, t.FailNow, t.SkipNow,
// runtime.Goexit itself: go/ssa ends the block of a call that cannot
// return with a panic), in a goroutine a test or program started:
// Goexit runs the deferred calls first, so a goroutine's deferred
// wg.Done or close comes after its t.Fatal. Not os.Exit or log.Fatal,
// which end the process without running them, nor a panic statement,
// which ends the program unless recovered; and not in a test's or
// subtest's own body, whose deferred calls at each t.Fatal would stand
// in its trace before what later branches do.
func (w *walker) goexits(p *ssa.Panic) bool {
	if w.o.Parent == nil || w.o.Kind == facts.SpawnSubtest {
		return false
	}
	instrs := p.Block().Instrs
	for i := len(instrs) - 2; i >= 0; i-- {
		switch c := instrs[i].(type) {
		case *ssa.MakeInterface, *ssa.DebugRef:
			continue
		case *ssa.Call:
			return syncapi.Goexits(&c.Call)
		}
		return false
	}
	return false
}

// deadDepth bounds the calls markDead follows from a block a constant
// rules out.
const deadDepth = 3

// markDead records the accesses of block b, which the call being walked
// never runs (a constant decided its branch the other way), as dead
// there (see Trace.ConstDead), and those of the functions its calls
// name and of the function literals it makes, depth calls down: an
// access that has no event elsewhere in the trace is explained by the
// constant (if writable { tx.Commit() } in a read-only transaction).
func (w *walker) markDead(b *ssa.BasicBlock, depth int) {
	for _, instr := range b.Instrs {
		if w.access[instr] {
			if w.tr.constDead == nil {
				w.tr.constDead = make(map[ssa.Instruction]bool)
			}
			w.tr.constDead[instr] = true
		}
		if mc, ok := instr.(*ssa.MakeClosure); ok && depth > 0 {
			// A literal made here is never made in this call: its
			// body runs from no other value this walk has.
			if fn, ok := mc.Fn.(*ssa.Function); ok && !slices.Contains(w.stack, fn) {
				for _, cb := range fn.Blocks {
					w.markDead(cb, depth-1)
				}
			}
			continue
		}
		call, ok := instr.(ssa.CallInstruction)
		if !ok || depth == 0 {
			continue
		}
		if _, isGo := call.(*ssa.Go); isGo {
			continue
		}
		if callee := call.Common().StaticCallee(); callee != nil && !slices.Contains(w.stack, callee) {
			for _, cb := range callee.Blocks {
				w.markDead(cb, depth-1)
			}
		}
	}
}

// spawnsOnly walks fn, a call that the trace is too large or nested too
// deep to inline, for the goroutines it starts only. Their start events
// keep the edges that order what came before the cut before them (and
// the join of a sequential subtest), where a goroutine started past the
// cut would otherwise be ordered after nothing, not even package
// initialization; accesses and other synchronization past the cut have
// no events. A function is walked so once per trace: the first start of
// an origin is the one its edge leaves from.
func (w *walker) spawnsOnly(fn *ssa.Function, held LocksetID, loop int32) {
	if len(fn.Blocks) == 0 || w.spawnsWalked[fn] {
		return
	}
	w.spawnsWalked[fn] = true
	for _, b := range w.objs.order(fn) {
		for _, instr := range b.Instrs {
			c, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if _, isGo := c.(*ssa.Go); isGo || len(w.ptr.Spawned(w.o, c)) > 0 {
				w.spawn(c, held, loop)
				continue
			}
			if callee := c.Common().StaticCallee(); callee != nil && len(callee.Blocks) > 0 {
				w.spawnsOnly(callee, held, loop)
				continue
			}
			for _, callee := range w.ptr.Callees(w.o, c) {
				w.spawnsOnly(callee, held, loop)
			}
		}
	}
}

// selectCase adds the send or receive of case i of a select: where the
// case's body starts, or, when maybe is set, at the select, as an
// operation that may not happen.
func (w *walker) selectCase(sel *ssa.Select, i int, maybe bool, held LocksetID, loop int32) int32 {
	st := sel.States[i]
	return w.chanOp(caseKind(st), sel, st.Chan, maybe, held, loop)
}

// caseKind returns whether a select case sends or receives.
func caseKind(st *ssa.SelectState) Kind {
	if st.Dir == types.SendOnly {
		return Send
	}
	return Recv
}

// chanOp adds a send or receive. A channel with a buffer of one used
// as a semaphore (send to acquire, then receive to release, in the same
// function) is a lock: the accesses between the send and the receive
// hold it. A send that the function does not follow with a receive is
// a handoff, and no lock (see endSems).
func (w *walker) chanOp(k Kind, instr ssa.Instruction, ch ssa.Value, maybe bool, held LocksetID, loop int32) int32 {
	obj, wide := w.syncObj(ch)
	// The event holds the function's own locks too, for the deadlock
	// analysis (a send while holding a mutex).
	id := w.addSync(Event{Kind: k, Instr: instr, Obj: obj, Select: maybe}, wide, w.locksAt(instr, held), loop)
	if k == Recv && !maybe {
		w.timerFire(instr, ch, held, loop)
	}
	if !maybe {
		w.semOp(k, obj, ch, id)
	}
	return id
}

// semOp takes or gives back the semaphore channel obj by the send or
// receive event id on ch, when obj has a buffer of one.
func (w *walker) semOp(k Kind, obj int32, ch ssa.Value, id int32) {
	if obj < 0 || !w.objs.capacity1(obj) {
		return
	}
	k, ok := w.semKind(k, obj, ch)
	if !ok {
		return
	}
	i, found := slices.BinarySearch(w.sems, obj)
	switch {
	case k == Send && !found:
		w.sems = slices.Insert(w.sems, i, obj)
		w.acqs = append(w.acqs, acquisition{obj: obj, start: id + 1})
		if _, ok := w.locks.names[obj]; !ok {
			w.locks.names[obj] = w.callerName(ch)
		}
	case k == Recv && found:
		// It gives back what every path here took: the sends of two
		// branches (if d > 0 { select { case sem <- t: ... } } else
		// { ... }) are two acquisitions, one on each path.
		w.sems = slices.Delete(w.sems, i, i+1)
		for j := range w.acqs {
			if a := &w.acqs[j]; a.obj == obj {
				a.released = true
			}
		}
	default:
		return
	}
	w.setSemLocks()
}

// semKind returns what the send or receive k on the semaphore obj does
// to it: a send takes it and a receive gives it back, except on a
// channel that holds a token (objects.token), where a receive takes the
// token and a send puts it back; the send that fills such a channel
// where it is made does neither (false).
func (w *walker) semKind(k Kind, obj int32, ch ssa.Value) (Kind, bool) {
	if !w.objs.token(obj) {
		return k, true
	}
	switch k {
	case Send:
		if _, fill := ch.(*ssa.MakeChan); fill {
			return 0, false
		}
		return Recv, true
	case Recv:
		return Send, true
	}
	return k, true
}

// chanOf returns the channel of a send or a receive, nil for a select.
func chanOf(instr ssa.Instruction) ssa.Value {
	switch instr := instr.(type) {
	case *ssa.Send:
		return instr.Chan
	case *ssa.UnOp:
		return instr.X
	}
	return nil
}

// callerName names ch as the callers that passed it name it: m.ch in
// a channel mutex's Lock, called as c.readMu.lock(ctx), is c.readMu.ch,
// which a report can tell from c.writeMu.ch.
func (w *walker) callerName(ch ssa.Value) string {
	name, root := exprName(ch)
	for d := len(w.stack) - 1; d >= 0 && name != ""; d-- {
		p, ok := root.(*ssa.Parameter)
		site := w.sites[d]
		if !ok || site == nil || site.Common().IsInvoke() || p.Parent() != w.stack[d] {
			break
		}
		i := slices.Index(p.Parent().Params, p)
		args := site.Common().Args
		if i < 0 || i >= len(args) {
			break
		}
		outer, outerRoot := exprName(args[i])
		if outer == "" {
			break
		}
		name, root = outer+strings.TrimPrefix(name, p.Name()), outerRoot
	}
	return name
}

func (w *walker) setSemLocks() {
	var elems []lockElem
	for _, o := range w.sems {
		elems = append(elems, lockElem{locs: []int32{o}})
	}
	w.semLocks = w.locks.intern(elems)
}

// semBlocks is what a call's walk knows of the semaphores held at the
// end of each block of its function it has walked (see enterBlock), and
// those held at every return that does not fail.
type semBlocks struct {
	ends     [][]int32
	walked   []bool
	atReturn []int32
	returned bool // a block that returns, not failing, was walked
	// plain is set where some return of the function succeeds plainly
	// (lockset.Succeeds: return nil, return true): then only those
	// succeed, and a return ctx.Err() after case <-ctx.Done() fails.
	plain bool
}

func newSemBlocks(fn *ssa.Function) semBlocks {
	sb := semBlocks{ends: make([][]int32, len(fn.Blocks)), walked: make([]bool, len(fn.Blocks))}
	for _, b := range fn.Blocks {
		if n := len(b.Instrs); n > 0 {
			if r, ok := b.Instrs[n-1].(*ssa.Return); ok && lockset.Succeeds(r) {
				sb.plain = true
				break
			}
		}
	}
	return sb
}

// enterBlock sets the semaphores held at the start of b: those held at
// the end of every predecessor walked so far (the walk goes in an order
// where only a loop's back edges come from a block not walked yet). A
// semaphore given back on a path that returns (select { case
// <-m.c.closed: m.unlock(); return errClosed; default: }) is still held
// on the path that goes on.
func (w *walker) enterBlock(b *ssa.BasicBlock, sb *semBlocks) {
	var held []int32
	any := false
	for _, p := range b.Preds {
		if !sb.walked[p.Index] {
			continue
		}
		if !any {
			held, any = sb.ends[p.Index], true
			continue
		}
		held = slices.DeleteFunc(slices.Clone(held), func(o int32) bool {
			_, found := slices.BinarySearch(sb.ends[p.Index], o)
			return !found
		})
	}
	if any && !slices.Equal(held, w.sems) {
		w.sems = slices.Clone(held)
		w.setSemLocks()
	}
}

// leaveBlock notes the semaphores held at the end of b, and where b
// returns other than by failing (lockset.Fails), those held at every
// such return: what the caller holds where the call goes on. A Lock
// that gives the channel back where it fails (case <-closed: m.unlock();
// return errClosed) holds it where it succeeds; a write that closes the
// connection, locking its mutex for good, where it fails, does not hold
// that mutex where it succeeds.
func (w *walker) leaveBlock(b *ssa.BasicBlock, sb *semBlocks) {
	sb.walked[b.Index] = true
	sb.ends[b.Index] = slices.Clone(w.sems)
	if len(b.Instrs) == 0 {
		return
	}
	r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
	if !ok || lockset.Fails(r) || sb.plain && !lockset.Succeeds(r) {
		return
	}
	if !sb.returned {
		sb.returned, sb.atReturn = true, slices.Clone(w.sems)
		return
	}
	sb.atReturn = slices.DeleteFunc(sb.atReturn, func(o int32) bool {
		_, found := slices.BinarySearch(w.sems, o)
		return !found
	})
}

// endSems ends a call's semaphores: sems are those held when it began,
// w.acqs[n:] those it acquired, and atReturn those held where it
// returns (see leaveBlock). A semaphore it acquired and holds where it
// returns is its caller's to give back: a lock helper's send (m.ch <-
// struct{}{} in a channel mutex's Lock) is given back by the Unlock its
// caller calls after. One never given back, at the end of the
// goroutine's function or in a call that does not hold it where it
// returns, is held by the events since the send unless someone else
// drains the channel (see keptSems), and by none after the call. One
// the call did give back stays held beyond the call no more than it was
// before, and one of the caller's that it gave back on a path that
// returns (or, where the walk saw no return, anywhere) is given back.
func (w *walker) endSems(sems []int32, semLocks LocksetID, n int, atReturn []int32, returned bool) {
	var carried []acquisition
	for _, a := range w.acqs[n:] {
		if _, held := slices.BinarySearch(atReturn, a.obj); held && len(w.stack) > 0 {
			carried = append(carried, a)
			continue
		}
		if a.released {
			continue
		}
		// Held to here, unless someone else drains it.
		w.kept.list = append(w.kept.list, keptSem{w.tr, a.obj, a.start, int32(len(w.tr.Events))})
	}
	w.acqs = append(w.acqs[:n], carried...)
	w.sems, w.semLocks = sems, semLocks
	held := slices.DeleteFunc(slices.Clone(sems), func(o int32) bool {
		if returned {
			_, found := slices.BinarySearch(atReturn, o)
			return !found
		}
		for j := n - 1; j >= 0; j-- {
			if w.acqs[j].obj == o {
				return w.acqs[j].released
			}
		}
		return false
	})
	for _, a := range carried {
		if i, found := slices.BinarySearch(held, a.obj); !found {
			held = slices.Insert(held, i, a.obj)
		}
	}
	if !slices.Equal(held, sems) {
		w.sems = held
		w.setSemLocks()
	}
}

// locksAt returns the lockset at instr: the caller's locks and those its
// function holds there.
func (w *walker) locksAt(instr ssa.Instruction, held LocksetID) LocksetID {
	return w.locks.union(w.callLocks(instr, held), w.transferred)
}

// callLocks returns the lockset a call at instr passes its callee:
// locksAt's but for the transferred locks, which the walker holds
// itself, so that an Unlock in the callee ends them there too.
func (w *walker) callLocks(instr ssa.Instruction, held LocksetID) LocksetID {
	held = w.locks.union(w.locks.union(held, w.semLocks), w.observations(instr))
	return w.locks.union(held, w.resolveAt(instr))
}

// resolveAt returns the lockset of the locks that instr's function
// holds before instr, resolved in the walker's origin: once for each
// instruction, which the walk of every call that inlines its function
// asks again.
func (w *walker) resolveAt(instr ssa.Instruction) LocksetID {
	k := resolvedAt{instr, w.when(instr.Parent())}
	id, ok := w.resolved[k]
	if !ok {
		id = w.locks.resolve(w.o, w.lsAt(instr.Parent()).Before(instr), w.objs)
		if w.resolved == nil {
			w.resolved = make(map[resolvedAt]LocksetID)
		}
		w.resolved[k] = id
	}
	return id
}

// resolvedAt is an instruction walked in a call that fixes lits of its
// function's parameters (see walker.lits).
type resolvedAt struct {
	instr ssa.Instruction
	lits  string
}

// lsWhenKey is a function's locksets for a call that fixes lits.
type lsWhenKey struct {
	fn    *ssa.Function
	lits  string
	trust string // the walker's trustKey
}

// when returns what the call being walked fixes of fn's parameters, as
// a key, when fn is the function being walked: "" for nothing.
func (w *walker) when(fn *ssa.Function) string {
	if n := len(w.stack); n > 0 && w.stack[n-1] == fn && len(w.lits[n-1]) > 0 {
		return w.lits[n-1].String()
	}
	return ""
}

// lsAt returns the locksets of fn, the function being walked, for what
// its call fixes of its parameters (see lockset.Result.FuncWhen).
func (w *walker) lsAt(fn *ssa.Function) lockset.Func {
	key := w.when(fn)
	if key == "" {
		return w.lsFunc(fn)
	}
	k := lsWhenKey{fn, key, w.trustKey}
	f, ok := w.lsWhen[k]
	if !ok {
		f = w.ls.FuncWhenTrusting(fn, w.lits[len(w.lits)-1], w.trusted)
		w.lsWhen[k] = f
	}
	return f
}

// accessLocks returns the lockset at access instr: locksAt's, with the
// sibling locks of its function's.
func (w *walker) accessLocks(instr ssa.Instruction, held LocksetID) LocksetID {
	return w.locks.union(w.locksAt(instr, held), w.locks.siblingLocks(instr, w.when(instr.Parent()), w.ownAt(instr), held))
}

// ownAt returns the locks that instr's function holds before instr, for
// its sibling locks: lockset's, and the Onces that a Do of the function
// has returned on on every path to instr (see Locksets.OnceSiblings).
func (w *walker) ownAt(instr ssa.Instruction) lockset.Set {
	own := w.lsAt(instr.Parent()).Before(instr)
	for _, do := range w.onceDos(instr.Parent()) {
		if do == instr || !dataflow.Precedes(do, instr) {
			continue
		}
		once, _, _ := syncapi.OnceDo(do.Common())
		if !slices.ContainsFunc(own, func(h lockset.Held) bool { return h.OnceDone && h.Key == lockset.Key(once) }) {
			own = append(slices.Clip(own), lockset.Held{Key: lockset.Key(once), OnceDone: true})
		}
	}
	return own
}

// onceDos returns the calls of sync.Once's Do in fn, looked up once.
func (w *walker) onceDos(fn *ssa.Function) []*ssa.Call {
	dos, ok := w.dos[fn]
	if !ok {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c, ok := instr.(*ssa.Call); ok {
					if _, _, ok := syncapi.OnceDo(c.Common()); ok {
						dos = append(dos, c)
					}
				}
			}
		}
		w.dos[fn] = dos
	}
	return dos
}

// bindCallerLocks returns held, the lockset at call c of fn, with what
// fn's accesses need to name the caller's sibling locks (see
// Locksets.bindCallerLocks). A deferred call binds none: it runs where
// the function returns, which may be after an Unlock.
func (w *walker) bindCallerLocks(c ssa.CallInstruction, fn *ssa.Function, held LocksetID) LocksetID {
	if _, ok := c.(*ssa.Call); !ok {
		return held
	}
	return w.locks.bindCallerLocks(c, w.when(c.Parent()), fn, w.ownAt(c), held)
}

// lsFunc returns the locksets of fn, asked of package lockset once.
func (w *walker) lsFunc(fn *ssa.Function) lockset.Func {
	f, ok := w.lsFuncs[fn]
	if !ok {
		f = w.ls.Func(fn)
		w.lsFuncs[fn] = f
	}
	return f
}

func (w *walker) add(ev Event, locks LocksetID, loop int32) int32 {
	id := int32(len(w.tr.Events))
	var at []int32 // the events at ev.Instr so far: looked up once
	if ev.Instr != nil {
		at = w.tr.at[ev.Instr]
	}
	if ev.Kind == Access {
		if len(at) > 0 {
			last := &w.tr.Events[at[len(at)-1]]
			if last.ID > w.lastSync && last.Locks == locks && last.Loop == loop && last.Imported == ev.Imported {
				if last.Chain != w.chain {
					w.alsoIn(last, w.chain)
				}
				return last.ID
			}
		}
	} else if ev.Kind != Acquire && ev.Kind != TestReport { // locks order nothing: see package lockset
		w.syncs++
		w.lastSync = id
	}
	*w.total++
	ev.ID, ev.Locks, ev.Loop, ev.Chain = id, locks, loop, w.chain
	if (ev.Kind == Recv || ev.Kind == Send) && ev.Obj >= 0 {
		// A semaphore given back by a goroutine that does not hold it
		// (or a token put back by one that did not take it).
		if k, ok := w.semKind(ev.Kind, ev.Obj, chanOf(ev.Instr)); ok && k == Recv {
			if _, held := slices.BinarySearch(w.sems, ev.Obj); !held {
				w.kept.drained[ev.Obj] = true
			}
		}
	}
	if ev.Kind == Recv && w.local >= 0 {
		if w.tr.recvLoops == nil {
			w.tr.recvLoops = make(map[int32]int32)
		}
		w.tr.recvLoops[id] = w.local
	}
	if u, ok := ev.Instr.(*ssa.UnOp); ok && ev.Kind == Recv && !ev.Select && closedOnly(u) {
		if w.tr.closedRecvs == nil {
			w.tr.closedRecvs = make(map[int32]bool)
		}
		w.tr.closedRecvs[id] = true
	}
	w.tr.Events = append(w.tr.Events, ev)
	if ev.Instr != nil {
		w.tr.at[ev.Instr] = append(at, id)
	}
	if ev.Kind == OnceAfter && ev.Obj >= 0 {
		if w.tr.onceAfter == nil {
			w.tr.onceAfter = make(map[int32][]int32)
		}
		w.tr.onceAfter[ev.Obj] = append(w.tr.onceAfter[ev.Obj], id)
	}
	if loop >= 0 {
		s := &w.tr.Loops[loop]
		if s.Start < 0 {
			s.Start = id
		}
		s.End = id
	}
	return id
}

// allocated notes that the walk runs allocation instr in loop (see
// Trace.MadeIn).
func (w *walker) allocated(instr ssa.Instruction, loop int32) {
	if w.tr.allocs == nil {
		w.tr.allocs = make(map[allocKey]int32)
	}
	note := func(k allocKey) {
		l, ok := w.tr.allocs[k]
		if ok && l != loop {
			l = -1
		} else {
			l = loop
		}
		w.tr.allocs[k] = l
	}
	note(allocKey{instr: instr})
	n := len(w.sites)
	if site := w.sites[n-1]; site != nil {
		note(allocKey{instr, [2]ssa.CallInstruction{site, nil}})
		if n > 1 && w.sites[n-2] != nil {
			note(allocKey{instr, [2]ssa.CallInstruction{site, w.sites[n-2]}})
		}
	}
}

// callInstr handles a call, or a deferred call where it runs, with the
// lockset held at the call but for the transferred locks (see
// callLocks).
func (w *walker) callInstr(c ssa.CallInstruction, held LocksetID, loop int32) {
	at := w.locks.union(held, w.transferred) // the call's own events'
	if len(w.ptr.Spawned(w.o, c)) > 0 {
		w.spawn(c, at, loop)
		return
	}
	call := c.Common()
	if _, ok := call.Value.(*ssa.Builtin); ok {
		if ch, ok := syncapi.Close(call); ok {
			obj, wide := w.syncObj(ch)
			w.addSync(Event{Kind: Close, Instr: c, Obj: obj}, wide, at, loop)
		}
		return
	}
	if callee := call.StaticCallee(); callee != nil && syncapi.TParallel(callee) && len(w.stack) == 1 && loop < 0 {
		if w.tr.ParallelAt < 0 {
			// A parallel subtest: what it did before t.Parallel happens
			// before its t.Run returns (see spawnEdges).
			w.tr.ParallelAt = int32(len(w.tr.Events))
		}
		if w.o.Root == parallelTests && c.Block() == c.Parent().Blocks[0] {
			// A parallel test's run goes on from here once the
			// sequential tests are done (see parallelTestEdges).
			w.tr.parallelCalls = append(w.tr.parallelCalls, int32(len(w.tr.Events)))
		}
	}
	if syncapi.TCleanup(call) && w.testRun() {
		if !slices.Contains(w.cleanups, c) {
			w.cleanups = append(w.cleanups, c)
		}
		return
	}
	if w.o.Parent != nil && syncapi.TestReport(call) != "" {
		// Where a goroutine reports to its test: the race analysis
		// checks that the test waits for it (see TestReport).
		w.add(Event{Kind: TestReport, Instr: c, Obj: -1}, at, loop)
		return
	}
	if op, mu := syncapi.MutexOp(call); op == syncapi.Lock || op == syncapi.RLock {
		obj := w.objs.of(w.o, mu)
		if _, ok := w.locks.names[obj]; obj >= 0 && !ok {
			w.locks.names[obj] = ExprName(mu)
		}
		w.add(Event{Kind: Acquire, Instr: c, Obj: obj, Read: op == syncapi.RLock}, at, loop)
		return
	} else if op == syncapi.Unlock || op == syncapi.RUnlock {
		if objs := w.objs.pointsTo(w.o, mu); !w.locks.holdsAny(at, objs) {
			w.tr.foreignUnlocks = append(w.tr.foreignUnlocks, objs...)
		}
		w.release(mu)
	}
	if fn := call.StaticCallee(); fn != nil && len(call.Args) > 0 {
		if k, ok := w.atomicKind(c, fn); ok {
			w.add(Event{Kind: k, Instr: c, Obj: w.objs.of(w.o, call.Args[0])}, at, loop)
			return
		}
		if w.timer(c, at, loop) {
			return
		}
		if k, obj, ok := syncKind(call); ok {
			obj, wide := w.syncObj(obj)
			w.addSync(Event{Kind: k, Instr: c, Obj: obj}, wide, at, loop)
			return
		}
		if _, _, ok := syncapi.OnceDo(call); ok {
			w.onceDo(c, held, loop)
			return
		}
		if len(fn.Blocks) > 0 {
			w.site = c
			w.call(fn, w.bindCallerLocks(c, fn, held), loop)
			return
		}
		w.imported(c, fn, w.o, at, loop)
		w.releaseImported(c)
	}
	callees := w.callees(c)
	var cbs []lockset.Callback
	if fn := call.StaticCallee(); fn != nil && len(fn.Blocks) == 0 {
		cbs = w.ls.Callbacks(call) // fn is another package's
	}
	for _, fn := range callees {
		w.site = c
		w.call(fn, w.callbackLocks(cbs, fn, held), loop)
	}
	if call.StaticCallee() == nil {
		if ext := w.ptr.ExternalCallees(w.o, c); len(ext) > 0 {
			callees = append(slices.Clip(callees), ext...)
		}
		if len(callees) > 0 {
			w.dynamicLocks(c, callees)
		}
	}
}

// callbackLocks returns held with the locks that a function of another
// package holds when it calls fn, a function value its caller passed it
// (cbs, from its summary): p.WithLock(func() error { c.topo = tt; return
// nil }) runs the literal holding p's lock, as a call of the literal in
// WithLock's own package would.
func (w *walker) callbackLocks(cbs []lockset.Callback, fn *ssa.Function, held LocksetID) LocksetID {
	var extra lockset.Set
	for _, cb := range cbs {
		if passes(w.ptr, w.o, cb.Arg, fn) {
			extra = extra.With(cb.Held)
		}
	}
	if len(extra) == 0 {
		return held
	}
	return w.locks.union(held, w.locks.resolve(w.o, extra, w.objs))
}

// passes reports whether the function value v is fn: its literal, fn
// itself, or a value that may only be fn in origin o.
func passes(ptr *pointer.Result, o *pointer.Origin, v ssa.Value, fn *ssa.Function) bool {
	switch v := v.(type) {
	case *ssa.MakeClosure:
		return v.Fn == fn
	case *ssa.Function:
		return v == fn
	}
	locs := ptr.PointsToIn(o, v)
	return len(locs) == 1 && locs[0].Obj.Func() == fn
}

// testRun reports whether the trace runs tests, or a subtest: its
// t.Cleanup functions run when its run ends.
func (w *walker) testRun() bool {
	o := w.o
	return o.Root == sequentialTests || o.Root == parallelTests || o.Kind == facts.SpawnSubtest
}

// runCleanups walks the functions that the run just walked registered
// with t.Cleanup, last registered first, as the testing package calls
// them: on the test's goroutine once the test function has returned
// (and its subtests completed), not where Cleanup was called. A
// cleanup that stops what the test started comes after all it did, and
// one that touches what the test's goroutines use runs while those
// still may. The pointer analysis calls a cleanup at its Cleanup call:
// the callees walked here.
func (w *walker) runCleanups() {
	for len(w.cleanups) > 0 {
		c := w.cleanups[len(w.cleanups)-1]
		w.cleanups = w.cleanups[:len(w.cleanups)-1]
		for _, fn := range w.callees(c) {
			// Called by the testing package, not at c: the frames of
			// its events start at fn.
			w.site = nil
			w.call(fn, 0, -1)
		}
	}
}

// imported adds the accesses and synchronization operations that fn, a
// function of another package, performs when c calls it, from its
// effect summary, in its order. The arguments of c are values of origin
// caller.
func (w *walker) imported(c ssa.CallInstruction, fn *ssa.Function, caller *pointer.Origin, held LocksetID, loop int32) {
	for _, e := range w.importedEffects(fn) {
		if e.Sync == 0 {
			w.add(Event{Kind: Access, Instr: c, Obj: -1, Imported: int32(e.Index + 1)}, held, loop)
			continue
		}
		if k, ok := importedKinds[e.Sync]; ok {
			w.add(Event{Kind: k, Instr: c, Obj: w.keyObject(caller, c.Common(), e.Key)}, held, loop)
		}
	}
	w.importedTakes(c, caller, held, loop)
}

// importedEffects returns the effects of fn, a function of another
// package, asked of package effects once (it looks them up by name).
func (w *walker) importedEffects(fn *ssa.Function) []effects.Op {
	ops, ok := w.importedOps[fn]
	if !ok {
		ops = w.eff.Imported(fn)
		w.importedOps[fn] = ops
	}
	return ops
}

// importedTakes adds an Acquire event at c for each mutex that fn, a
// function of another package, may block to lock (its Locks fact's
// Takes), when the caller's argument names one location: the lock
// order and the waits of the deadlock analysis see locks taken inside
// other packages' functions. They come after the callee's other
// events, whose order against its locks the facts do not keep: a
// partner that must lock before it can unblock someone is then never
// claimed from one call alone.
func (w *walker) importedTakes(c ssa.CallInstruction, caller *pointer.Origin, held LocksetID, loop int32) {
	if w.ls == nil {
		return
	}
	// The same call is walked in many origins and contexts: its locks,
	// which depend on the call alone, are found once per build.
	takes, ok := w.takes[c.Common()]
	if !ok {
		takes = w.ls.Takes(c.Common())
		w.takes[c.Common()] = takes
	}
	for _, h := range takes {
		if h.Value == nil || h.Unsure {
			continue
		}
		var obj int32 = -1
		if h.Path.IsEmpty() {
			obj = w.objs.of(caller, h.Value)
		} else if locs := w.ptr.PointsToPath(caller, h.Value, h.Path); len(locs) == 1 {
			obj = w.objs.id(locs[0])
		}
		if obj < 0 {
			continue
		}
		if _, ok := w.locks.names[obj]; !ok {
			if name := HeldName(h); name != "" {
				w.locks.names[obj] = name
			}
		}
		w.add(Event{Kind: Acquire, Instr: c, Obj: obj, Read: h.Read}, held, loop)
	}
}

var importedKinds = map[facts.SyncKind]Kind{
	facts.SyncSend: Send, facts.SyncRecv: Recv, facts.SyncClose: Close,
	facts.SyncAdd: WGAdd, facts.SyncDone: WGDone, facts.SyncWait: WGWait,
	facts.SyncOnceAfter: OnceAfter, facts.SyncCondWait: CondWait, facts.SyncCondSignal: CondSignal,
}

// keyObject returns the one location that a callee's key (see
// lockset.Held) points to at call, made in origin o, or -1.
func (w *walker) keyObject(o *pointer.Origin, call *ssa.CallCommon, key facts.Key) int32 {
	actual, _ := lockset.Actual(call, nil, key)
	if actual == nil {
		return -1
	}
	if key.Path().IsEmpty() {
		return w.objs.of(o, actual)
	}
	if locs := w.ptr.PointsToPath(o, actual, key.Path()); len(locs) == 1 {
		return w.objs.id(locs[0])
	}
	return -1
}

// syncKind returns the event of a call of a method of sync.WaitGroup,
// errgroup.Group or sync.Cond, and the object it operates on.
func syncKind(call *ssa.CallCommon) (Kind, ssa.Value, bool) {
	if op, wg := syncapi.WaitGroup(call); op != syncapi.NotWaitGroup {
		return waitGroupKinds[op], wg, true
	}
	if g, ok := syncapi.ErrgroupWait(call); ok {
		return WGWait, g, true
	}
	if op, cond := syncapi.Cond(call); op != syncapi.NotCond {
		return condKinds[op], cond, true
	}
	return 0, nil, false
}

var waitGroupKinds = map[syncapi.WaitGroupOp]Kind{syncapi.WaitGroupAdd: WGAdd, syncapi.WaitGroupDone: WGDone, syncapi.WaitGroupWait: WGWait}

var condKinds = map[syncapi.CondOp]Kind{syncapi.CondWait: CondWait, syncapi.CondSignal: CondSignal, syncapi.CondBroadcast: CondSignal}

// onceDo inlines the callback of once.Do(f) holding the Once as a lock
// (f runs once: two goroutines never both run it), then the events that
// carry Do's happens-before edge: the callback's events, from the first
// to the OnceEnd, happen before the return of every Do on the Once.
//
// The Once held is every Once the argument may be, as a mutex held is
// every mutex its expression may be (Locksets.Exclusive): g.once.Do(
// g.initPeers), where g may be any of the groups a map holds, excludes
// the same call in another goroutine, whose writes to g.peers can only
// meet these on the same g, and so on the same Once. The edge needs
// the one Once (OnceOrdered).
func (w *walker) onceDo(c ssa.CallInstruction, held LocksetID, loop int32) {
	call := c.Common()
	onces := w.objs.pointsTo(w.o, call.Args[0])
	once := int32(-1)
	if len(onces) == 1 {
		once = onces[0]
	}
	inside := held
	if len(onces) > 0 {
		inside = w.locks.union(held, w.locks.intern([]lockElem{{locs: slices.Sorted(slices.Values(onces)), once: true}}))
	}
	inside = w.locks.union(inside, w.locks.intern(onceOfBinding(call)))
	start := int32(len(w.tr.Events))
	for _, fn := range w.ptr.Callees(w.o, c) {
		w.call(fn, inside, loop)
	}
	end := w.add(Event{Kind: OnceEnd, Instr: c, Obj: once}, held, loop)
	if w.tr.callback == nil {
		w.tr.callback = make(map[int32]int32)
	}
	w.tr.callback[end] = start
	w.add(Event{Kind: OnceAfter, Obj: once}, held, loop)
}

// madeAfterDo notes, for the function literal that mc makes, the Onces
// of the objects it captures that a Do has returned on where it is made
// (see ownAt; its callers' too): whoever calls the literal, later, in
// this goroutine or another it was handed to, runs after that Do, so
// its accesses to the captured object's fields hold that Once as done
// (see Locksets.OnceSiblings). The last making walked counts.
func (w *walker) madeAfterDo(mc *ssa.MakeClosure, held LocksetID) {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return
	}
	var done lockset.Set
	for _, h := range append(slices.Clone(w.ownAt(mc)), w.locks.callerLocks(mc.Parent(), held)...) {
		if h.OnceDone {
			done = append(done, h)
		}
	}
	var elems []lockElem
	for _, h := range done {
		for _, k := range freeVarKeys(mc, fn, h.Key) {
			elems = append(elems, lockElem{callee: fn, key: k, onceDone: true})
		}
	}
	if len(elems) > 0 || w.made[fn] != 0 {
		w.made[fn] = w.locks.intern(elems)
	}
}

// onceOfBinding returns, for x.once.Do(f) where f is a function
// literal or a method value that binds x (x.init), the Once as the
// callback's callers hold it, named from the free variable that holds
// x: the callback's accesses to x's fields then hold a sibling Once of
// the object (see Locksets.OnceSiblings).
func onceOfBinding(call *ssa.CallCommon) []lockElem {
	once, f, _ := syncapi.OnceDo(call)
	mc, ok := f.(*ssa.MakeClosure)
	if !ok {
		return nil
	}
	fn, ok := mc.Fn.(*ssa.Function)
	k := lockset.Key(once)
	if !ok || !k.Bound() || !objectPath(k.Path()) {
		return nil
	}
	var elems []lockElem
	for _, fk := range freeVarKeys(mc, fn, k) {
		elems = append(elems, lockElem{callee: fn, key: fk, once: true})
	}
	return elems
}

// freeVarKeys renames k, a key of the function that makes mc, into fn's
// (mc's literal or method value) for each free variable bound to k's
// root: the value itself, or the variable that holds a captured
// parameter for good, one load away.
func freeVarKeys(mc *ssa.MakeClosure, fn *ssa.Function, k facts.Key) []facts.Key {
	var keys []facts.Key
	for i, b := range mc.Bindings {
		if i >= len(fn.FreeVars) {
			break
		}
		root, fv := lockset.Key(b), facts.FreeVarKey(i)
		if p, ok := lockset.Spilled(b); ok {
			root, fv = lockset.Key(p), fv.Then(facts.Step{Op: facts.Load})
		}
		if root.Path().IsEmpty() && sameRoot(root, k) {
			keys = append(keys, k.Rebase(fv))
		}
	}
	return keys
}

// spawn records a site that starts goroutines. For WaitGroup.Go and
// errgroup, Obj is the group whose Wait waits for them.
func (w *walker) spawn(c ssa.CallInstruction, held LocksetID, loop int32) {
	ev := Event{Kind: Spawn, Instr: c, Obj: -1}
	spawned := w.spawned(c)
	wide := int32(-1)
	if g, ok := c.(*ssa.Go); ok {
		w.handOver(g, spawned)
	}
	if fn := c.Common().StaticCallee(); fn != nil && len(c.Common().Args) > 0 {
		if sp, ok := syncapi.Spawn(fn); ok && sp.Group {
			ev.Obj, wide = w.syncObj(c.Common().Args[0])
		}
	}
	id := w.addSync(ev, wide, held, loop)
	if len(spawned) > 0 {
		if w.tr.spawned == nil {
			w.tr.spawned = make(map[int32][]*pointer.Origin)
		}
		w.tr.spawned[id] = spawned
	}
	w.timer(c, held, loop) // time.AfterFunc
}

// atomicKind classifies a call of sync/atomic: a write (Store, Add, Swap,
// CompareAndSwap, And, Or), or a read that a loop spins on, waiting for
// a write (for atomic.LoadInt32(&s) != 1 {}). Other reads order nothing.
func (w *walker) atomicKind(c ssa.CallInstruction, fn *ssa.Function) (Kind, bool) {
	switch syncapi.Atomic(fn) {
	case syncapi.NotAtomic:
		return 0, false
	case syncapi.AtomicCompareAndSwap:
		if w.spins(c) {
			return SpinWait, true
		}
		return AtomicWrite, true
	case syncapi.AtomicLoad:
		if w.spins(c) {
			return SpinWait, true
		}
		return 0, false
	}
	return AtomicWrite, true
}

// spins reports whether the result of call c decides, directly or
// through a comparison or negation, a branch that leaves a loop.
func (w *walker) spins(c ssa.CallInstruction) bool {
	v, ok := c.(*ssa.Call)
	if !ok || c.Block() == nil {
		return false
	}
	comp := w.objs.components(v.Parent())
	loop := comp[c.Block().Index]
	if loop < 0 {
		return false
	}
	var leaves func(v ssa.Value, depth int) bool
	leaves = func(v ssa.Value, depth int) bool {
		if depth > 2 {
			return false
		}
		for _, ref := range *v.Referrers() {
			switch ref := ref.(type) {
			case *ssa.If:
				for _, s := range ref.Block().Succs {
					if comp[s.Index] != loop {
						return true
					}
				}
			case *ssa.BinOp:
				if leaves(ref, depth+1) {
					return true
				}
			case *ssa.UnOp:
				if ref.Op == token.NOT && leaves(ref, depth+1) {
					return true
				}
			}
		}
		return false
	}
	return leaves(v, 0)
}
