// Package rules declares, once, each rule by which origo finds that two
// events of a program cannot conflict: they never run at once, one
// happens before the other, or what they touch is owned by one
// goroutine at a time. Each rule is a fact of the Go memory model, of
// how Go runs a program, or of ownership, stated as a Go programmer
// would state it; it has an ID, the manual section that explains it
// (in the package documentation of the analyzer, or of the pass that
// decides it, named), and a fixture directory whose silent twins it
// silences.
//
// The passes that answer "may these two run at once" (shb's
// Order.Concurrent) and the analyzers that rule out a candidate (race,
// deadlock, blocking) return a Reason naming one of these rules, and
// "origo why" prints it: a report's absence is explained the way a
// report is.
package rules

import "slices"

// ID names a rule. It is stable: fixtures name it in their
// `// silent "ID"` comments and users read it in origo why's output.
type ID string

// Rule is one rule's declaration.
type Rule struct {
	ID ID
	// Statement is the rule, as the memory model or ownership states
	// it, in one sentence.
	Statement string
	// Section is the heading of the manual section that explains it,
	// in the package documentation of Doc.
	Section string
	// Doc is the package whose documentation has the section, by its
	// directory in the module: an analyzer's manual (analyzers/race),
	// or the pass that decides the rule (passes/ownership).
	Doc string
}

// The packages whose documentation explains the rules.
const (
	raceDoc      = "analyzers/race"
	deadlockDoc  = "analyzers/deadlock"
	blockingDoc  = "analyzers/blocking"
	ownershipDoc = "passes/ownership"
)

// The rules. Concurrency first (what never runs at once, what happens
// before what), then locks, then ownership, then what is not code that
// runs.
const (
	OneGoroutine       ID = "one-goroutine"
	OtherProgram       ID = "other-program"
	HappensBefore      ID = "happens-before"
	TestsInSequence    ID = "tests-in-sequence"
	JoinedPerIteration ID = "joined-per-iteration"
	JoinedUnderLock    ID = "joined-under-lock"
	SubtestsWait       ID = "subtests-wait"
	TestRunsOnce       ID = "test-runs-once"
	CallsApart         ID = "calls-apart"
	RunObjects         ID = "test-objects"
	SubtestObjects     ID = "subtest-objects"
	OwnSpawn           ID = "own-spawn"
	Handover           ID = "handover"
	Future             ID = "future"
	DonePerItem        ID = "done-per-item"
	Once               ID = "once"
	AtomicObserved     ID = "atomic-observed"
	RunsOnce           ID = "runs-once"
	CommonLock         ID = "common-lock"
	SpinFlag           ID = "spin-flag"
	TakenUnderLock     ID = "taken-under-lock"
	PublishedUnderLock ID = "published-under-lock"
	StateLeft          ID = "state-left"
	ClaimedState       ID = "claimed-state"
	DoubleBuffer       ID = "double-buffer"
	BothAtomic         ID = "both-atomic"
	NotPublished       ID = "not-published"
	OwnElement         ID = "own-element"
	AppendPastLen      ID = "append-past-len"
	Twins              ID = "twins"
	SelfSynchronized   ID = "self-synchronized"
	NoEvidence         ID = "no-evidence"
	NoSharingEvidence  ID = "no-sharing-evidence"
	SetupMethod        ID = "setup-method"
	InternalPackage    ID = "internal-package"
	DocumentedSerial   ID = "documented-serial"
	ReceiverReplaced   ID = "receiver-replaced"
	DeadCode           ID = "dead-code"
	FlagSkipped        ID = "flag-skipped"
	SelfStore          ID = "self-store"
	OtherElements      ID = "other-elements"
	NotInPackage       ID = "not-in-package"
	ClosesBoth         ID = "closes-both"
	BothOrders         ID = "both-orders"
	ReadLocks          ID = "read-locks"
	GateLock           ID = "gate-lock"
	EnteredHeld        ID = "entered-held"
	HandedUnlock       ID = "handed-unlock"
	// blocking's rules
	Partner           ID = "partner"
	Buffered          ID = "buffered"
	OutOfView         ID = "out-of-view"
	EveryPath         ID = "every-path"
	AnsweredOtherwise ID = "answered-otherwise"
	OtherCase         ID = "other-case"
	Panics            ID = "panics"
	ClosedSend        ID = "closed-send"
	NeverClosed       ID = "never-closed"
	Counted           ID = "counted"
	WaitUnlocks       ID = "wait-unlocks"
	LibraryCallers    ID = "library-callers"
	NeverRuns         ID = "never-runs"
	FailedTest        ID = "failed-test"
	ServeForever      ID = "serve-forever"
	Values            ID = "values"
	HandedAway        ID = "handed-to-import"
	RunningFlag       ID = "running-flag"
	// deadlock's rules
	NotHeld        ID = "not-held"
	LockedFirst    ID = "locked-first"
	TryLock        ID = "try-lock"
	NoWriter       ID = "no-writer"
	ReadersCounted ID = "readers-counted"
	LockHelper     ID = "lock-helper"
	LockFlag       ID = "lock-flag"
	LockHandover   ID = "lock-handover"
	OtherInstance  ID = "other-instance"
	LockParam      ID = "lock-param"
	DynamicCall    ID = "dynamic-call"
	OneOrder       ID = "one-order"
	SelectCase     ID = "select-case"
	CondWait       ID = "cond-wait"
	FreePartner    ID = "free-partner"
	NotTraced      ID = "not-traced"
	Budget         ID = "budget"
	Ignored        ID = "ignored"
)

// All lists every rule, in the order above.
var All = []Rule{
	{OneGoroutine, "one goroutine does one thing at a time: its events are ordered by the program", "What it reports", raceDoc},
	{OtherProgram, "main and the tests are different programs (a test binary never runs main), and a library's callers are a third: goroutines of two programs never run at once", "Which goroutines are checked", raceDoc},
	{HappensBefore, "a chain of the memory model's synchronizations (go statement, channel send, receive and close, Unlock and Lock, WaitGroup, Once, Cond) orders the two events", "What it reports", raceDoc},
	{TestsInSequence, "go test runs the tests without t.Parallel one after the other: a goroutine a test joins ends before the next test starts", "Tests", raceDoc},
	{JoinedPerIteration, "a loop that joins the goroutines each iteration starts before the iteration ends (a WaitGroup.Wait on every path after the go statement) runs them one iteration at a time: they never run at once with the loop's code outside the window between the go statement and the join, nor with their own runs in other iterations", "What stays silent", raceDoc},
	{JoinedUnderLock, "a goroutine that a lock holder starts and waits for (a WaitGroup.Wait, a receive) before it unlocks runs inside the holder's critical section: another goroutine's section of that mutex comes before the Lock or after the Unlock (not the holder's own accesses, nor its other workers')", "What stays silent", raceDoc},
	{TestRunsOnce, "a test function runs once: its goroutine and those it starts are not doubled by the copies that make parallel tests run beside each other", "Tests", raceDoc},
	{CallsApart, "each call of a library's entry point is checked on its own, with the goroutines it starts: whether two calls overlap is the presumed callers' question, asked only where the code shows sharing", "Which goroutines are checked", raceDoc},
	{SubtestsWait, "t.Run waits for a subtest without t.Parallel (and for one with it until it calls t.Parallel), and b.RunParallel for its bodies: the test, its sequential subtests and their parallel bodies never run at once (the copies of one body do)", "Tests", raceDoc},
	{RunObjects, "each test makes its own objects: a goroutine another test started works on that test's, and what a test function makes is reached by another test's code only through a package-level variable", "Tests", raceDoc},
	{SubtestObjects, "each run of a subtest makes its own objects: a sibling subtest reaches what one makes only through a package-level variable or a variable of the enclosing function that the subtest's function captured", "Tests", raceDoc},
	{OwnSpawn, "a method's writes to its receiver before it starts its goroutine on it happen before the goroutine, on each call's own object", "Writes before a method starts its goroutine", ownershipDoc},
	{Handover, "a value sent on a channel hands over the objects it carries: the sender's writes happen before the receiver's accesses", "Values handed over on a channel", ownershipDoc},
	{Future, "a leader fills an object and closes its channel; a joiner that waited on that object's channel reads it after", "Futures", ownershipDoc},
	{DonePerItem, "a worker's WaitGroup.Done after each item orders the item's work before Wait returns", "WaitGroup.Done per item", ownershipDoc},
	{Once, "a sync.Once callback happens before every return of Do on the same Once", "What it reports", raceDoc},
	{AtomicObserved, "an atomic operation that saw another goroutine's write orders what that goroutine did before it", "What an atomic saw", raceDoc},
	{RunsOnce, "one atomic operation alone brings a count to zero, or finds at zero a flag that is never cleared: what the branch that did so dominates runs once, in one goroutine", "What an atomic saw", raceDoc},
	{CommonLock, "both accesses hold the same mutex", "The same mutex", raceDoc},
	{SpinFlag, "a word whose every write is an atomic CompareAndSwap from one constant (free) to another (held) or a Store of free is a lock: the goroutine whose swap succeeded holds it until it stores free, and no other swap succeeds meanwhile", "A flag used as a lock", raceDoc},
	{PublishedUnderLock, "what a goroutine wrote to an object before it stored the object into a field holding its mutex happens before what another goroutine does with the object once it loaded it from that field holding the mutex", "Publishing into a field under its mutex", ownershipDoc},
	{TakenUnderLock, "what a goroutine took out of a field holding its mutex is its own until put back", "Taking a field under its mutex", ownershipDoc},
	{ClaimedState, "a goroutine that, holding a mutex, finds a state field outside a set of values and stores one of them holds a claim until the store it defers takes the field out of the set: two goroutines never hold claims on one field at once", "A state claimed for a run", ownershipDoc},
	{StateLeft, "a field every store of which holds one mutex and writes a constant other than its first value (or, from nil, a value never nil) leaves that value for good: a critical section that read the first value came before any other that found the field away from it, and what it did happens before what that goroutine does after", "A state left for good", ownershipDoc},
	{DoubleBuffer, "two buffers swapped under both locks never hold one array at one time", "Double buffers", ownershipDoc},
	{BothAtomic, "two sync/atomic operations do not race", "What it reports", raceDoc},
	{NotPublished, "an object no other goroutine can reach yet (not stored, sent or captured) is its maker's", "Objects not published yet", ownershipDoc},
	{OwnElement, "goroutines of one go statement in a loop each writing the element at their own index touch different memory", "One element per goroutine", ownershipDoc},
	{AppendPastLen, "an append under a mutex writes past the length of every header taken from the field under that mutex, whose elements a reader reads", "Appends past the length", ownershipDoc},
	{Twins, "goroutines told apart only by the object or the constructor call they run on are taken for one", "Goroutines taken for one", raceDoc},
	{SelfSynchronized, "a library type that synchronizes itself with atomics orders its own accesses", "What it reports", raceDoc},
	{NoEvidence, "two callers of a library's API are presumed concurrent only where the code shows the memory is shared: a lock or an atomic on one side, or a type documented as safe for concurrent use", "Which goroutines are checked", raceDoc},
	{NoSharingEvidence, "a pair is reported only where the code shows its memory is meant to be shared (an atomic, inconsistent locking between calls of the package's API under a mutex of the object or of one that holds it, one object of the program such as a package-level variable or an object main or a test makes once, a variable a function literal takes to another goroutine, an object a go statement hands over, a map written on both sides, a closed channel, a type documented as safe for concurrent use); the others are possible data races, reported with -all", "Evidence of sharing", ownershipDoc},
	{InternalPackage, "an internal package is imported only by its own module's code, whose goroutines show which of its calls run at once where they are analysed: its API's callers are not presumed concurrent, unless its documentation says a type is safe for concurrent use", "Which goroutines are checked", raceDoc},
	{SetupMethod, "a method every caller runs on an object not shared yet sets it up", "Which goroutines are checked", raceDoc},
	{DocumentedSerial, "callers use a type or method documented as not safe for concurrent use from one goroutine at a time", "Which goroutines are checked", raceDoc},
	{ReceiverReplaced, "a type one of whose methods replaces its whole receiver (*it = *next, *b = Builder{}) is used by one goroutine at a time: that store overwrites every field at once, its mutexes and atomics too", "Which goroutines are checked", raceDoc},
	{DeadCode, "code behind a branch a constant decides the other way never runs", "Dead code", ownershipDoc},
	{FlagSkipped, "code that runs only where a flag set once before the goroutines start reads false does not run in them", "Goroutines taken for one", raceDoc},
	{SelfStore, "storing back the value just loaded changes nothing", "What it reports", raceDoc},
	{OtherElements, "two constant indices or fields that differ are different memory, and so are a constant index and a loop's index that starts past it (rs[0] and rs[i] with i from 1), with their mutexes", "What it reports", raceDoc},
	{NotInPackage, "a pair made entirely inside other packages' code is their package's to report", "What it reports", raceDoc},
	{ClosesBoth, "two closes of one channel panic whichever comes first; not a race", "What it reports", raceDoc},
	{BothOrders, "a goroutine that takes two mutexes in both orders picks one order at run time (by comparing the instances, say): it is not one side of an inversion", "What stays silent", deadlockDoc},
	{ReadLocks, "two read locks of an RWMutex do not exclude each other: a goroutine waiting to read-lock does not wait for another reader", "What stays silent", deadlockDoc},
	{GateLock, "both acquisitions hold a third mutex in common, which keeps the two goroutines apart", "What stays silent", deadlockDoc},
	{EnteredHeld, "a function that unlocks a mutex it did not lock was entered with it held: returning with it held gives the caller back what it had", "What stays silent", deadlockDoc},
	{HandedUnlock, "a mutex belongs to no goroutine: one whose Unlock the function hands away as a function value (notify = mu.Unlock) may be unlocked by the goroutine that calls it, and locking it again waits for that (the mutex as a start signal), not forever", "What stays silent", deadlockDoc},
	// blocking's rules
	{Partner, "an operation that another goroutine's can complete (a receive for a send, a send or close for a receive, a Done for WaitGroup.Wait, a Signal or Broadcast for Cond.Wait), in code that runs, does not block forever: that goroutine is taken to get there", "What stays silent", blockingDoc},
	{Buffered, "a send on a channel with room in its buffer completes without a receiver: only an unbuffered channel, or a buffer that the sends before it fill, leaves a send waiting", "What stays silent", blockingDoc},
	{OutOfView, "code the analysis does not see may complete an operation on what it can reach: a channel, WaitGroup or Cond that a package variable reaches, that is given to another package's code or to a function value it cannot resolve, or that another package made (ctx.Done(), time.After)", "What stays silent", blockingDoc},
	{EveryPath, "an operation made on every path to a return (before each return, or deferred) is made whichever path runs: a receive on every path of the function that waits for a goroutine's result, a send or Done on every path of the goroutine", "What stays silent", blockingDoc},
	{AnsweredOtherwise, "a goroutine that answers another way first (closes or sends on another channel, calls Done or Signal, or code that may) and sends no result after it has told its partner, which may take that answer and move on", "What stays silent", blockingDoc},
	{OtherCase, "a send that is a case of a select with another case (<-ctx.Done(), a stop channel, a timer) leaves by that case when its partner is gone: it need not wait forever", "What stays silent", blockingDoc},
	{Panics, "a goroutine that panics and does not recover ends the program: a path that panics leaves no partner waiting", "What stays silent", blockingDoc},
	{ClosedSend, "a send on a closed channel panics rather than blocks: a receiver that leaves only once the channel is closed, or a sender that may close it, leaves a panic, not a blocked send", "What stays silent", blockingDoc},
	{NeverClosed, "a range over a channel, or v, ok := <-ch, takes its way out for a closed channel only once the channel is closed: where nothing closes the channel (one that stays in the function that makes it and its goroutines, or any of the package's channels in a whole program, with no close anywhere in it), a receiving loop never leaves that way", "What stays silent", blockingDoc},
	{Counted, "WaitGroup.Wait returns once the Dones have matched what Add counted before it: Adds that count only goroutines already started, each calling Done, let it return, and with no Add it returns at once; likewise a loop that receives as many times as the goroutines started before it send, with no other way out, takes every send", "What stays silent", blockingDoc},
	{WaitUnlocks, "Cond.Wait unlocks the Cond's mutex while it waits: a goroutine stuck in Wait does not hold it", "What stays silent", blockingDoc},
	{LibraryCallers, "a library's importers call its API in an order the package does not show, and call what it leaves to them (a Stop, a Rollback, a cancel function): only a program the package holds whole, a main package, is judged on them", "What stays silent", blockingDoc},
	{HandedAway, "a function value given to another package's function runs where that code runs it (a worker pool keeps it for a goroutine of its own): what it waits for is not known to come after its caller's", "What stays silent", blockingDoc},
	{RunningFlag, "a bool field that records whether a receiving loop runs, set true right before the loop starts (go c.run(), or c.run() called) and false right after the send that stops it, holding the mutex the senders hold: a send made where it reads true finds the loop started and not yet stopped", "What stays silent", blockingDoc},
	{NeverRuns, "code that nothing in a whole program (a main package nothing imports) calls never runs: a stop that only such code gives never comes", "What stays silent", blockingDoc},
	{FailedTest, "a path through a test's failure or skip (t.Error, t.Fatal, t.Skip) may leave goroutines behind: the test has already failed", "What stays silent", blockingDoc},
	{ServeForever, "select {} (or <-make(chan T), a receive from a channel nothing else can reach) outside the function a go statement starts is how a program waits until it is killed (func main, or a helper it calls to serve): it blocks on purpose", "What stays silent", blockingDoc},
	{Values, "how many times a loop runs depends on values the analysis does not follow: a loop that receives, or that starts the goroutines that send, is taken to run as many times as its partners need", "Known limits", blockingDoc},
	// deadlock's rules
	{NotHeld, "a goroutine waits for itself only on a mutex it holds: one its function has not locked on any path to a Lock or a return, or has unlocked on every path since (a deferred Unlock, the caller's Unlock after a call), is not held there", "What stays silent", deadlockDoc},
	{LockedFirst, "an Unlock is fatal only on a mutex already unlocked: one that is locked again on every path since the last Unlock is held there", "What stays silent", deadlockDoc},
	{TryLock, "TryLock and TryRLock never block: on a mutex that is held they return false", "What stays silent", deadlockDoc},
	{NoWriter, "a second read lock of an RWMutex waits only behind a writer waiting in Lock between the two: an RWMutex that nothing write-locks has none", "What stays silent", deadlockDoc},
	{ReadersCounted, "an RWMutex counts its read locks and each RUnlock releases one: a second RUnlock is one too many only after a single RLock", "What stays silent", deadlockDoc},
	{LockHelper, "a function that returns holding a mutex on every path, or on exactly the paths that report success (a nil error, true) or that hand back its Unlock as a function value, locks it for its caller, who unlocks it (itself, or through a call on what the helper returned: defer tx.end()); one that hands a function unlocking it to a call, a store or a send leaves the unlocking to whoever gets it", "What stays silent", deadlockDoc},
	{LockFlag, "a Lock behind an if on a boolean variable that records whether the mutex is held (if !locked { mu.Lock() }) runs only on the paths where it is not", "What stays silent", deadlockDoc},
	{LockHandover, "a mutex that another goroutine unlocks is handed over to it: a Lock of it waits for that goroutine's Unlock, not forever", "What stays silent", deadlockDoc},
	{OtherInstance, "objects made at one place (in a loop, or by each call) each have their own mutex: locking one while holding another (a node's, then its parent's) is not locking one mutex twice", "What stays silent", deadlockDoc},
	{LockParam, "where a caller passes a constant for a boolean parameter that a function tests, only that constant's paths run: a Lock under if needLock is skipped when it passes false; so is one under a test of a field the caller set from it in the object it made (tx := &Tx{writable: writable}; tx.lock())", "What stays silent", deadlockDoc},
	{DynamicCall, "what a call through an interface or a function value does to a mutex is decided at run time: it may unlock the mutex its caller holds, or lock it only for reading (a Locker from RLocker)", "What stays silent", deadlockDoc},
	{OneOrder, "goroutines that take mutexes in one order never wait for each other in a circle: a deadlock between them needs the order in which they take the locks to have a cycle", "What stays silent", deadlockDoc},
	{SelectCase, "a select with another case or a default does not block on one case: another may complete it", "What stays silent", deadlockDoc},
	{CondWait, "Cond.Wait unlocks the Cond's own Locker while it waits, and locks it again before it returns", "What stays silent", deadlockDoc},
	{FreePartner, "a goroutine blocked holding a mutex waits only until another goroutine completes its operation: one that can get there without that mutex (before it locks it, or on a path that does not) unblocks it", "What stays silent", deadlockDoc},
	{NotTraced, "the access has no event in its goroutine's walk: on no path the walk followed to the object, or past a bound", "Known limits", raceDoc},
	{Budget, "the pair was past a bound of the analysis, which said so on standard error", "Known limits", raceDoc},
	{Ignored, "an //origo:ignore directive on the line of either access silences the pair", "Silencing a report", raceDoc},
}

// Lookup returns the rule of an ID, and whether there is one.
func Lookup(id ID) (Rule, bool) {
	i := slices.IndexFunc(All, func(r Rule) bool { return r.ID == id })
	if i < 0 {
		return Rule{}, false
	}
	return All[i], true
}

// Reason is why a candidate was ruled out: a rule, and what in the
// program it applied to (the edge chain, the lock, the owner), for a
// person to check.
type Reason struct {
	Rule   ID
	Detail string
}

// None is the Reason of a candidate nothing ruled out.
var None = Reason{}

func (r Reason) String() string {
	if r.Rule == "" {
		return "reported"
	}
	if r.Detail == "" {
		return string(r.Rule)
	}
	return string(r.Rule) + ": " + r.Detail
}
