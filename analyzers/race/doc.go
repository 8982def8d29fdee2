// Package race defines an Analyzer that reports data races: two
// goroutines that may access the same memory at the same time, one of
// them writing, without synchronization that orders them.
//
// # Analyzer race
//
// race: report data races between goroutines
//
// The race analyzer reports two accesses to the same variable, field or
// element, at least one of them a write, made by two goroutines that may
// run at the same time, when no synchronization of the Go memory model
// orders them and no mutex guards both. It is the race that go test
// -race reports when a test happens to run it, found from the source on
// every path: a racy program may read a torn or stale value, and a racy
// map or slice may corrupt the runtime's structures.
//
// # What it reports
//
// WRONG: the goroutines increment n together.
//
//	var n int
//	for range 2 {
//		go func() { n++ }()
//	}
//
// RIGHT: a mutex orders them (or sync/atomic, or a channel).
//
//	var mu sync.Mutex
//	for range 2 {
//		go func() { mu.Lock(); n++; mu.Unlock() }()
//	}
//
// The report names the memory, both accesses, the goroutine of each and
// the locks each holds:
//
//	counter.go:12:2: data race on Counter.n: write at counter.go:12 (goroutine started at main.go:20, in a loop) vs read at counter.go:17 (main goroutine); locks held: {c.mu} vs {}
//
// A goroutine is named by where it starts: "goroutine started at
// main.go:20" (", in a loop" when the statement may run again), "HTTP
// handler registered at main.go:9, one per request", "finalizer set
// at", "cleanup added at", "b.RunParallel body started at"; the roots
// are "main goroutine" and "test goroutine".
//
// It sits on one access, the one that forgot (a write, holding fewer
// locks), and its related information points at the other, and at the
// go statement that started each goroutine with the calls that reached
// it ("goroutine started here: main → (*Server).Start → go
// (*Server).loop"), where the walk knows them, and at where the object
// is made when that is in the package ("the Bank is made here"), and at
// what shows the memory shared ("shared by goroutines: handed to the
// goroutines by their go statements", see "Evidence of sharing" in
// package ownership). An access
// made inside a function of another package is shown where that
// function was called: "write at b.go:12 (in b.(*T).Set, called at
// a.go:30)". There is one report per racy location and pair of
// goroutines.
//
// A pair of accesses is reported when, cheapest test first: the two
// goroutines may run at the same time; the accesses may touch the same
// field, element or variable (origin-sensitive pointer analysis); one
// writes; no happens-before edge of the Go memory model orders them (go
// statement, channel send/receive/close, WaitGroup, Once, Cond); no mutex is
// held at both; they are not both sync/atomic operations. An access is
// what the Go program evaluates: for i := range s.segments, over an
// array with the index alone, does not read the array (the spec leaves
// the range expression unevaluated there), though go/ssa loads it.
//
// Races of kinds common in Go are named first, with the fix last:
// "concurrent map access", "concurrent append", "captured loop variable"
// (a goroutine capturing a loop variable of a file before Go 1.22, which
// all iterations share), "captured err" and "captured named result" (a
// goroutine assigning a variable of the function that started it).
// A captured loop variable's report carries a suggested fix, "copy i in
// the loop body: i := i", that declares the copy as the first statement
// of the body (for each variable of the loop that a function literal
// there uses), unless the body assigns one of them, increments it or
// takes its address, which the copy would cut off from the loop.
//
// A WaitGroup.Add made inside the goroutine that Wait waits for, with no
// Add before the go statement, is reported on its own: Wait may return
// before it. The report's related information points at the Wait. When
// the Add is the first statement of the function literal that the go
// statement starts, with a constant argument and a WaitGroup named from
// outside the literal, the report carries a suggested fix, "call
// wg.Add(1) before the go statement", that moves it there; an Add in a
// function the goroutine calls, or after other statements, gets none.
//
// A goroutine that reports to its test (t.Log, t.Errorf, t.Fatal) but
// that the test, or subtest, that started it does not wait for is
// reported as "test report after the test": the call may run after the
// test returned, where the testing package panics; t.Fatal ends its
// goroutine by runtime.Goexit, which runs the deferred calls first, so
// a deferred wg.Done or close after it still joins. Nothing is said when
// the goroutine signals on a channel origo cannot name after the report
// (the join may be there) or is a time.AfterFunc callback.
//
// # Which goroutines are checked
//
// The analyzer works on the goroutines of a package's programs, as Go
// runs them. A package main is two programs: the binary go build makes,
// which runs init and main, and the test binary go test makes, which
// runs init and the tests, never main; a library's exported API is
// called by its importers' programs, a third. Goroutines of two programs
// never run at once: a goroutine a test starts is never paired with
// main's read after its Wait, though both run the same helper.
//
// In the test binary, each test, benchmark and fuzz target runs in
// turn, each walked with a budget of events of its own, so that a long
// test does not leave the ones after it unchecked; parallel tests and
// subtests run concurrently, and a test function runs once. In a
// library, every exported function, and exported method of an exported
// type, that starts goroutines is an entry point: what one call does
// with the goroutines it starts and joins is checked like a test (Sum
// adding up items in goroutines that all write one total is reported
// with no test or caller in the module). The exported methods of types
// that carry a sync.Mutex, RWMutex or atomics, or a plain field that
// the package hands to sync/atomic (atomic.AddUint32(&rr.counter, 1)),
// or whose documentation says they are safe for concurrent use ("Cache
// is a thread-safe implementation of ..."), may also be called
// concurrently with each other, on one object a caller shares: with
// what its pointer fields reach (Ring's methods that go through
// r.sharding meet on one ringSharding). Each caller passes its own
// arguments: two calls of store.GetLog(i, &log) at once fill two logs.
// Every go statement, and the library calls that start
// goroutines (WaitGroup.Go, errgroup, time.AfterFunc, HTTP handlers,
// t.Run, runtime.SetFinalizer and AddCleanup), starts a goroutine; one
// started in a loop may run concurrently with itself.
//
// Library mode presumes those callers, so a pair between two of them
// (or between one and a test or main) is reported only where the code
// shows the location is meant to be shared: it is a field of a type
// documented as safe for concurrent use, whose methods its callers may
// call at once as the documentation promises (a Close that sets closed
// while another goroutine's Send reads it); one of the two accesses
// holds a lock or is atomic (inconsistent locking: a write holding a
// mutex that the other side does not hold, whether it holds none or
// another, as SetAddrs holding setAddrsMu reads the hooks that OnNewNode
// appends to holding mu; the mutex must be one that may guard the
// location: of the object the location is in, of an object that holds
// that object directly, or a package-level one, not a caller's own lock
// around a call that reaches the object two pointers away, as a stream
// writer's mutex around a write into its database's memtable), or one is a write
// that its function leaves bare while it locks a mutex of the same
// object, or applies an atomic to another of its fields: a function
// that synchronizes on an object is written to run at once with others
// on it (RoundRobin's Balance stores a default ChunkSize beside its
// atomic counter; Record stamps last after Unlock). A type or method
// whose documentation says it is not safe for concurrent use ("PgConn
// is not safe for concurrent usage", "Allocate is not thread-safe") is
// used by its callers one goroutine at a time, as the contract says,
// whatever mutex or atomic it carries for its own goroutines
// (documented-serial). So is a type one of whose methods replaces its
// whole receiver (*it = *it.next.fetch(), *b = Builder{}): that store
// overwrites every field at once, the mutex and the atomic flag too,
// and races with every other method by design, so its callers use it
// one goroutine at a time, as an iterator or a builder is
// (receiver-replaced). An internal package (a path element "internal")
// is imported only by its own module's code, so the callers of its API
// are known: which of them run at once is shown where they are analysed,
// and a race through them is reported there, at the call
// (internal-package): a buffer whose every caller holds the pool's
// mutex is silent in the buffer's package, and two goroutines of the
// pool calling it holding nothing are reported in the pool's. A type
// there documented as safe for concurrent use is still presumed used
// so. A field written by
// Start before the goroutine it starts reads it is the caller's setup,
// not a race, and so is a method that every call in the package and its
// tests makes on an object not shared yet (t := &Transport{};
// t.Start()), whatever the other methods lock; a method that starts a
// goroutine and then writes what it reads races within one call, and is
// reported.
//
// Functions of other packages count through their effect summaries
// (see package effects): a call of an imported function performs, at the
// call, the accesses it makes to what its arguments and exported
// variables reach, holding the locks it holds there, and its channel,
// WaitGroup, Cond and Once operations in its order (a Once callback's
// accesses hold the Once); a goroutine started in an imported
// function (go srv.Serve(l)) runs that summary.
//
// A channel operation accesses the channel itself, as the race detector
// sees it: a close writes it, a send reads it, so a send and a close
// that nothing orders race; len and cap do not. A mutex's Lock and
// Unlock change its state atomically: a plain store over the mutex
// (mu = sync.Mutex{} while another goroutine locks it) races with them. Two closes of one
// channel are not reported: if both run, the second panics whichever
// comes first, and whether both run depends on values (a flag, a branch
// taken once) that the analyzer does not follow.
//
// A pair made entirely inside other packages' code (two calls of a
// library type's methods from two goroutines) is checked, unless that
// code also accesses the object atomically: a type that synchronizes
// itself with a reference count or a lock built on compare-and-swap (an
// os.File's descriptor) orders its accesses by means the analyzer does
// not follow, and whether its methods may run at once is its package's
// contract. A type with no atomics, like bytes.Buffer, stays checked.
//
// # What stays silent
//
// Besides the go statements, channels, locks, WaitGroups, Once and
// atomics that order or guard a pair, the analyzer knows the patterns
// below, and reports none of them.
//
// Loops that run once. A counting loop whose body runs at most once
// (for i := 0; i < n; i++ with n a constant 1, a counter no closure
// captures) is no loop: the goroutine it starts is one goroutine, not
// two copies.
//
// Tests. The tests of a package run one after the other in one
// goroutine, and each makes its own objects: a goroutine that one test
// starts and leaves running works on that test's objects. An access of a
// test to an object the tests make races only with the goroutines its
// own test starts, though the pointer analysis merges every test's
// objects made at one place (an object made by package initialization is
// every test's, and stays checked against them all). What a test
// function makes itself (in its body, or in a function literal it
// declares: a node it puts into a registry, a counter its callback
// increments) is that test's: the code of another test, and the
// goroutines only other tests start, reach it through no object of
// their own, though it sits in a constructor's object that the analysis
// merged for every test; only a package-level variable hands it on
// (test-objects). So is what a helper or a constructor makes for a test
// (s := newSession(); ...), another package's constructor included (a
// call whose summary allocates what it returns makes a new one each
// time; what that package's variables keep, its summary names apart):
// two accesses that happen only in different
// tests' runs (the tests' own goroutine in one run, or goroutines that
// only other runs start) touch different objects, unless a package-level
// variable reaches the object. A subtest's function runs as a test of
// its own (t.Run), and what it makes (in its body or a literal it
// declares: the map its cache's callback counts in) is that run's: a
// sibling subtest, whose function is declared beside it, reaches it
// only through a package-level variable or a variable of the enclosing
// function that the first subtest's function captured, so an access in
// a goroutine that descends from a sibling's run, and not from the
// maker's, touches another object (subtest-objects). A goroutine that a
// test starts and joins (its end happens before the test returns: a
// WaitGroup.Wait, a plain receive of what it sends last) ends before
// the next test starts: two accesses whose goroutines only different
// sequential tests start and join are not a pair (tests-in-sequence). A
// select whose other cases fail the test (t.Error, t.Fatal, a panic on
// a timeout) joins through its one passing case: a failed test's races
// are not the ones that matter. A goroutine the test waits for only on
// some paths (a select that may leave quietly on a timeout) or not at
// all may run on into the next test, and stays checked against it; deadlock and blocking ask the same
// question, so the three agree on it. A loop works the same way: one
// that joins the goroutines each iteration starts before the iteration
// ends (a WaitGroup.Wait or a receive of what they send last, on every
// path from the go statement that goes round the loop again) runs them
// one iteration at a time, so they never run at once with the loop's
// code outside the window between the go statement and the join, in
// whichever iteration, nor with their own runs of other iterations
// (joined-per-iteration: a client's reconnect loop that dials, starts
// its reader and writer, and waits for both), and so do the goroutines
// those start, for what they do before the join (a table's subtest whose
// helper starts a goroutine and waits for it, before t.Run returns and
// the loop writes the next row). Goroutines that a lock holder starts
// and joins before it unlocks (mu.Lock(); go work(); wg.Wait();
// mu.Unlock(), or the go statement and the wait in a function called
// holding the lock) run inside its critical section: ordered with every
// other goroutine's section of that mutex, and with the workers of
// another holder's section, though they hold no lock themselves
// (joined-under-lock); not with each other, nor with their starter
// inside the section, nor where the join comes after the Unlock. A
// parallel test runs beside the
// other parallel tests, but once, and only once the sequential tests are
// done: what a sequential test did (and the goroutines it joined) happens
// before what a parallel test does after its t.Parallel
// (happens-before); its goroutines are not paired with
// copies of themselves (test-runs-once). A helper that several parallel
// tests call may run a table of subtests with t.Run in a loop: within
// one test, t.Run waits for each subtest, and another test's subtests
// work on what that test's call of the helper made, so the loop's
// writes and the subtests' reads of the helper's own variables are no
// pair (test-objects); a package-level variable is every test's. Likewise, an access in a call, inside a
// loop, of the function that makes its object (setUp in a benchmark's
// b.N loop) touches that run's object only, and so does an access in a
// loop whose goroutine makes the object only in that loop, in a callee
// that returned it (tx := db.begin() in each run, and what tx's init
// made): a run that kept an earlier run's object would hold it in a
// variable around the loop, as for an object the loop body allocates.
// A subtest without t.Parallel
// runs while the t.Run that started it waits, and so do its own such
// subtests: a test and those subtests never run at once, wherever the
// subtests are started (a helper that runs two subtests, called by two
// tests). b.RunParallel waits for its bodies the same way: a body never
// runs beside the test or the sub-benchmark it runs in (a table of
// sub-benchmarks setting the case before b.Run), though the copies of
// one body run at once (subtests-wait). A goroutine a subtest starts
// with go is not waited for by t.Run, and stays checked.
//
// Goroutines taken for one. Goroutines that the pointer analysis tells
// apart only by the object or the constructor call they run on (see
// pointer.Origin.Twin) are taken for one goroutine, but not those that a
// helper starts from the different functions its calls give it
// (r.goFunc(r.run), r.goFunc(func() { r.replicate(s) })); code that runs only
// where a Load of an atomic.Bool returned false does not run in a
// goroutine started after a Store of true, when every write of that Bool
// stores true (a flag set once, before the workers start); and the
// goroutines found past the analysis budget, which may have started
// anywhere, are left out: no reader could check a report on them.
//
// The same mutex. Two accesses that reach a field from a value, r.n (no
// pointer loaded or element indexed on the way), both holding a mutex of
// r's (r.mu, or r.muPtr when that pointer field is set before r is
// shared), there or in the caller that passed r, hold the same mutex,
// even where the analysis cannot tell which mutex that is. An access
// through a pointer field, r.p.n, is not guarded so by r's mutex: other
// objects may share p.
//
// A flag used as a lock. A word that the package writes only by an
// atomic CompareAndSwap from one constant (free) to another (held) and
// by a Store of free, made where the flag is held, is a lock (spin-flag):
// the goroutine whose swap succeeded holds it until it stores free, as a
// TryLock that returned true ("if atomic.CompareAndSwapUint32(&s.running,
// 0, 1) { ...; atomic.StoreUint32(&s.running, 0) }", s.busy of type
// atomic.Bool, a loop that retries the swap). Its holder's accesses do
// not race with another holder's, one call down too, and in a goroutine
// it starts holding the flag that stores it free (the flag is handed
// over, as a mutex its goroutine unlocks is). The field must be
// unexported and its address used by those atomic calls and loads alone;
// a flag that another write may set (an Add, a Swap, a plain store) or
// that a goroutine not holding it may clear is no lock. A flag never
// stored free again is rule runs-once's. A flag left set at a return is
// not a lock left held: the next swap fails, it blocks nothing.
//
// Ownership. Memory that one goroutine owns at a time is no race,
// though the pointer analysis merges it with memory that other
// goroutines touch: an object not published yet (not-published), what a
// goroutine took out of a field holding its mutex (taken-under-lock),
// the two halves of a double buffer swapped under both locks
// (double-buffer), the objects a value sent on a channel carries
// (handover), a future's object after the close its joiner waited for
// (future), an item's work before the worker's WaitGroup.Done
// (done-per-item), each goroutine's own element of a slice
// (own-element), a method's writes before the goroutine it starts on
// its receiver (own-spawn), and code behind a branch a constant decides
// the other way (dead-code). Package passes/ownership explains each
// rule, with what it requires and its limits:
// https://pkg.go.dev/github.com/origo-dev/origo/passes/ownership.
//
// Cond. A Cond orders what its one signaller did before Signal or
// Broadcast before what the waiter does after Wait; with two signallers
// it orders nothing.
//
// What an atomic saw. An atomic operation that saw another goroutine's
// write orders what that goroutine did before the write before the
// branch that knows it: a loop spinning until a flag is set, if
// flag.Load() { ... }, a failed CompareAndSwap(&s, 0, 1), if
// atomic.AddInt64(&n, 1) == 2 with two Adds of 1. Code after the branch
// joins the other path is not ordered. One operation alone brings a
// reference count to zero (if atomic.AddInt32(&r.refs, -1) == 0, or a
// branch that knows the new count at most zero: if n := s.ref.Add(-1);
// n > 0 { return }, since a count that reached zero is counted neither
// down nor up again), and
// one alone finds at zero a flag whose every write stores a constant
// other than zero (if !atomic.CompareAndSwapInt32(&c.closed, 0, 1) {
// return }, if c.stopped.Swap(true) { return }, or a method returning
// such a CompareAndSwap): what the winning branch dominates runs once
// for each count or flag, in one goroutine, and what it does to the
// memory of the object holding the count, or made with it, does not
// race with itself (runs-once). A flag that something sets back to zero
// gives no such branch, and memory that many such objects share (the
// pool that each connection's Close updates) is not kept apart.
//
// Stopped timers. A timer made for a second or more, then stopped and
// reset (t.Stop(); v = 2; t.Reset(d)), is taken not to have fired before
// the Stop: what came before the Reset happens before <-t.C and before
// the function time.AfterFunc runs. Without the Stop, or made for less,
// it orders nothing.
//
// # Known limits
//
// A select orders through a case only when that case has a body of its
// own, or is the one live case. An element of a map stands for all
// elements, and so does an element of a slice beyond constant indices
// and the loop-index rule above (a slice allocated by the caller or in a
// loop, an index computed from the counter other than by adding a
// constant).
//
// An imported function's effect lists at most 32 accesses and 16
// operations, from its static calls; calls through interfaces into other
// packages contribute no accesses.
//
// Work is bounded: on one location, the first 256 reads and 256 writes
// of each goroutine and the first 10,000 pairs are checked; in a
// package, once 2.5 million pairs have been checked for order and
// locks, each location left gets 100; the goroutines found past the
// pointer analysis's origin budget are not checked; and a goroutine is
// followed for 50,000 events, each test (or library entry point) for
// its fair share of 300,000 for all of them, at most 50,000, and the
// goroutines of a package for 1.5 million in all (package shb), past
// which their accesses are not checked. Each bound, when it
// stops part of the work, is one line on standard error ("origo: race:
// budget hit on package ...").
//
// # Why a pair was not reported
//
// Every candidate pair is either reported or ruled out by one rule,
// each a fact of the memory model, of how Go runs a program, or of
// ownership, declared once in package passes/rules with the section of
// this manual that explains it. "origo why FILE:LINE [packages]" (under
// go vet, the flag -race.why=FILE:LINE) prints, for every candidate with
// an access at that line, the two accesses, their goroutines and
// programs, and "reported" with the locks each side holds (a reader
// checks there a lock the analysis missed, or a mode: "{db.mu (read)}")
// or the rule that ruled it out, with what it applied to (for
// happens-before, the chain of edges). Pairs whose
// goroutines print alike (the copies of a goroutine started in a loop,
// "test goroutine") are one candidate: reported if one of them is, else
// one line for each rule that ruled one out; two accesses of one
// goroutine are shown as ruled out by one-goroutine only where no other
// pair that prints alike was ruled out otherwise:
//
//	main.go:40:14: why: racy: read at main.go:40 (main goroutine, in main's program) vs write at main.go:14 (goroutine started at main.go:14, in the test binary): ruled out by other-program (...): ...
//
// # Report kinds
//
// Each report carries its kind as its category (the "category" of go vet
// -json and origo -json, the rule of a SARIF result; see package kinds),
// and its message begins with the kind's words:
//
// race/data-race: two goroutines may access the same variable, field or
// element at the same time, at least one of them writing, with no
// synchronization of the Go memory model ordering them and no mutex held
// at both. A reader may see a torn or stale value. Order the two (a
// channel, a WaitGroup, a mutex held at both, sync/atomic), or give each
// goroutine its own copy.
//
// race/concurrent-map-access: the same, on a map: two goroutines may use
// one map at once, one of them writing. The runtime may detect it and
// stop the program ("fatal error: concurrent map writes"), or corrupt the
// map. Guard the map with a mutex, or use sync.Map.
//
// race/concurrent-append: the same, where one side appends to a shared
// slice: append writes the slice header and may write the shared backing
// array, so elements get lost or overwritten. Guard the slice with a
// lock, or collect the results through a channel or into per-goroutine
// slots.
//
// race/captured-loop-variable: a goroutine started in a loop uses a loop
// variable of a file before Go 1.22, which all iterations share, while
// the loop writes it. Pass it to the goroutine as an argument, or copy it
// in the loop body (the suggested fix: i := i).
//
// race/captured-named-result: a goroutine writes a named result of the
// function that started it, which may have returned or be reading it.
// Give the goroutine its own variable and hand the value back through a
// channel.
//
// race/captured-err: a goroutine assigns the err variable of the
// function that started it, which that function or another goroutine
// reads or assigns too. Declare the goroutine's own err with :=.
//
// race/waitgroup-add-in-goroutine: WaitGroup.Add is called inside the
// goroutine that Wait waits for, with no Add before its go statement:
// Wait may return before the Add, and nothing orders the goroutine's
// work before Wait's return. Call Add before the go statement (the
// suggested fix, where it is certain).
//
// race/test-report-after-test: a goroutine reports to its test (t.Log,
// t.Errorf, t.Fatal) but the test, or subtest, that started it does not
// wait for it: the call may run after the test returned, where the
// testing package panics. Wait for the goroutine (a sync.WaitGroup, a
// channel) before the test returns. A goroutine started by a call that
// returns only after it ended (b.RunParallel's bodies), in a helper
// however many tests call, is waited for. A report on a path that never
// gives the test what it waits for is not after the test either: the
// test receives from a channel on every path to its end, every send on
// or close of that channel is in the goroutine's function (started
// once), on paths that do not pass the report (if err != nil {
// t.Errorf(...); return }; got <- v, or a t.Fatal before close(ready)),
// none of them deferred; where the goroutine reports, the test waits
// forever and times out rather than completing. A benchmark's late logs
// (b.Log, b.Logf on a *testing.B) are not checked: the testing package
// marks a test or a fuzz target done when its function returns, never a
// benchmark, so a late b.Log is output, not a panic; a late b.Error or
// b.Fatal is reported, as a failure the testing package no longer
// reports. A report through testing.TB, which may hold a test, is
// checked as a test's.
//
// race/possible-race: a pair of accesses that may race, with -all only:
// nothing in the code shows that the memory is meant to be shared (see
// "Evidence of sharing" in package ownership), so the goroutines may reach it only through
// objects the analysis took for one (two connections, two requests made
// at one place). Check that the two goroutines can hold the same object
// before treating it as a data race. SARIF gives it the level note.
//
// # Silencing a report
//
// Check the report first: find the two accesses (the report's position
// and its related one), the goroutines that make them, and the
// synchronization you expected to order them. When the pair is one you
// accept (a statistic that may be off by a few, a value only a test
// reads), put a line comment
//
//	//origo:ignore race <reason>
//
// on the line of either access, after the code:
//
//	b.processed++ //origo:ignore race a log line's count, off by a few is fine
//
// The comment starts exactly "//origo:ignore " (no space after the
// slashes), the next word names the analyzers it silences (race, or a
// list: race,deadlock), and the reason says why the race is acceptable.
// At the end of a line of code it silences the reports on that line;
// alone on its line, it silences the line under its block of comments,
// so the explanation can sit above the code. A malformed directive (no
// analyzer, no reason, a misspelling) silences nothing and is reported
// by the directive analyzer. Nothing is reported in a file marked
// "// Code generated ... DO NOT EDIT." unless the -generated flag is
// set.
package race
