// Package shb defines an Analyzer that builds the static happens-before
// graph of a package's goroutines, after ECHO, D4 and SWORD, with only
// the edges the Go memory model guarantees (go.dev/ref/mem).
//
// Each origin of the pointer analysis (a goroutine in the abstract) gets
// a trace: its entry function walked in reverse postorder with its calls
// inlined, so that every memory access and synchronization operation has
// an integer ID and order within one goroutine is a comparison of IDs
// (SWORD's optimized SHB). A root origin's trace runs its roots one after
// the other (the sequential tests; a library's entry points), each run
// with a budget of events of its own (MaxSequenceEvents shared fairly,
// at most MaxTraceEvents a run), so that no test goes unwalked because
// the ones before it were long. The presumed callers of a library's
// concurrent methods (pointer.MethodsRoot) are the exception: each of
// them may call the methods in any order, so an edge from another
// goroutine that reaches one of their runs orders the rest of that run
// only (Trace.runsApart). Each event
// carries the canonical ID of the lockset held there, caller's locks
// included.
//
// A test's cleanups are walked where the testing package runs them: a
// function given to t.Cleanup (by the test or a helper it calls, on a
// T, B, F or testing.TB) runs on the test's goroutine once the test
// function has returned and its subtests have completed, last
// registered first. Its events follow the run's (or the subtest's), not
// the Cleanup call: a cleanup that stops what the test started comes
// after all the test did, and one that resets what a goroutine the test
// left running uses runs while that goroutine may (walker.runCleanups).
//
// Whether two events may run at once is asked one way, by race, deadlock
// and blocking alike: Order.Concurrent, which answers with the rule
// (package rules) that keeps them apart: one goroutine; two programs
// (main's binary, the test binary and a library's callers never share a
// process: pointer.Origin.SameProgram); one run of a parallel test,
// which runs once though its root has two copies; runs in sequence (a
// goroutine a test starts and joins, its last event happening before the
// test's return, ends before the next test: Result.SeparateRuns); or a
// chain of happens-before edges, which Order.Explain spells out.
//
// Inlining is bounded (events per trace and per package, nesting of
// calls): past a bound the trace is cut (Trace.Truncated), and the calls
// cut are walked only for the goroutines they start, whose start events
// keep their edges; the accesses past the cut have no events. The
// traces cut for their events, not their nesting, are listed in
// Result.CutShort, for the race analysis to say so.
//
// Edges between traces, each requiring the same abstract object on both
// sides (a single points-to target; unsure means no edge). A channel or
// WaitGroup expression that may name a few objects (l.doneC where
// several lessors were made) names their set, taken as one object: the
// close and the receive through it link as one channel's would, as an
// abstract object already stands for every channel made at its place;
// an operation on one member alone links with none of the set's, and a
// set's capacity is unknown (no dead select case, no semaphore). An
// operation whose expression names a set in its origin names, in the
// chain of calls being walked, what the callers pass along it (Stop's
// le.doneC, called by the test that made le, is that lessor's); it also
// links as the set it named before, or, in an origin with twins, as the
// set the twins name together (Result.link's second pass, linkWide), so
// that telling objects apart adds edges and loses none.
//
//   - the end of package initialization → the start of main, of the
//     tests and of every goroutine init does not start itself, one
//     whose starter the walk did not tie to it too (a context.AfterFunc
//     callback of a library call that a test reaches);
//   - go statement (and WaitGroup.Go, errgroup, t.Run, ...) → start of
//     the goroutine (in the chain being walked, the origins of that
//     chain's factory call and of the objects the statement's pointer
//     may point to there: pointer.Origin.Sites and Recv); a subtest
//     without t.Parallel → return of t.Run; the end of every goroutine
//     of a synctest bubble, the function synctest.Test runs and those
//     it starts, directly or not → return of synctest.Test;
//   - the end of the last sequential test (the tests' root, before its
//     benchmarks) → what each top-level parallel test does after the
//     t.Parallel its entry block calls: go test releases the parallel
//     tests once its loop over the tests is done (parallelTestEdges);
//     what a parallel test does before t.Parallel runs among the
//     sequential tests and is not ordered so;
//   - send → the receive that completes it, when the receives on the
//     channel up to this one outnumber the sends that may precede it; a
//     receive in a loop is taken to drain every send (range over a
//     channel, a loop that collects one result per goroutine);
//   - the k-th receive → completion of the (k+C)-th send on a channel of
//     capacity C (for an unbuffered channel, the receive → the send);
//     so a loop that fills a semaphore channel, for i := 0; i <
//     cap(ch); i++ { ch <- v } (or for range cap(ch); ch a field or a
//     local variable, one the workers' literal captures too), ends after every
//     release of a token taken before it, whatever C is, where every
//     receive on the channel is a release (its value dropped, in a
//     function that sends on the channel, or in a literal inside one):
//     the holders' releases → the end of the loop (linker.drainEdges);
//   - close → a receive that observes it: the exit of a receive loop,
//     the loop of the receive's own function (v, ok := <-ch until !ok,
//     for range ch), not the end of a loop around its call, which may
//     run it again (Trace.ExitOf); or what follows a receive that goes
//     on only once the channel was closed, its ok branch never
//     returning (for e := range ech { panic(e) }, if err, ok := <-ch; ok
//     { panic(err) }), though no loop is left (Trace.ObservesClose);
//     a deferred close that the walk of a call meets at each of its
//     returns (defer close(done) before if err != nil { j.err = err;
//     return }) closes once, at the return the run takes, after what
//     it did on the way: the edge leaves from the close at the last
//     return the walk met, so that the writes before the early return
//     are ordered too (Trace.LastReplay);
//   - a receive case of a select with a body of its own happens where
//     the body starts, and orders the events of the body, and of what
//     follows the select only where every path to it passes through the
//     body (or another case's body that fails the test): code after the
//     select that a timeout case goes on to as well, and the caller's
//     events after the call when the function may return without the
//     body, may run without the receive (caseRegion; an edge into it
//     orders a few spans of the trace, Edge.Body); a select whose other
//     cases are dead performs it for sure (deadCases); a receive case
//     on a channel that is never ready (made in the function or one
//     around it, kept in a variable nothing else is stored into, and
//     reached by receives only: no send, close, call or store can get
//     it) is never chosen, already as the walk goes, so that a
//     semaphore taken in "select { case mtx <- token: case <-aux: }"
//     is held (neverReady); and so is a receive from ctx.Done() where
//     ctx holds, in the goroutine's origin, only contexts that are never
//     canceled: context.Background() and context.TODO(), whose Done is
//     nil, and context.WithoutCancel's (never-canceled: "select { case
//     err = <-wait: case <-ctx.Done(): }" waits for wait; neverDone);
//   - a receive case of a select whose other cases all fail the test
//     (t.Error, t.Fatal, a panic: "case <-done: case <-time.After(d):
//     t.Fatal(...)") is the one case a passing test takes, and orders as
//     a plain receive (passingCase);
//   - a send or close on a channel that each run of a loop makes and
//     hands to the one goroutine the run starts → right after the
//     run's receive from it, not the end of the loop (perRunEdges);
//   - WaitGroup.Done → return of Wait, when Adds made before the
//     goroutine that calls Done was started cover it: counted in program
//     order, a constant Add(n) covers the next n go statements whose
//     goroutines call Done (Add(1); go a(); go b() covers a, not b); an
//     Add, Done or go statement in a loop, or an Add of a value that is
//     not a constant, is taken to cover; the end of a WaitGroup.Go or
//     errgroup goroutine → return of Wait; a goroutine that the Wait's
//     own trace starts after it is not waited for there;
//   - a goroutine's WaitGroup.Done → return of another goroutine's Wait,
//     when the first goroutine's function made the object the WaitGroup
//     is a field of, added to it before anything could reach the object
//     (no store, send, call, closure or return hands the object on
//     before the Add), and calls that Done itself (singleflight's call:
//     c := new(call); c.wg.Add(1); g.m[key] = c; ... c.wg.Done()): the
//     Wait found the object where its maker put it, after the Add. The
//     edge orders the maker's events from its Add (Edge.From) to its
//     Done. What an origin allocates is its own, so the Wait may be on
//     any maker's object; the edge from each maker then also orders
//     what it did between Add and Done for a Wait on another's (a known
//     imprecision);
//   - a sync.Once.Do callback → return of every Do on the same Once:
//     the edge orders the callback's events only (Edge.From is its first
//     event), not what its goroutine did before the Do, which may not be
//     the one that ran the callback (and the callback holds the Once as
//     a lock: it runs once);
//   - the first Signal or Broadcast of a Cond → return of its Wait, when
//     one goroutine (not started in a loop) signals it: Cond via its lock.
//
// An atomic operation that observes another's write is synchronized
// after it. A branch on an atomic result that tells a write was seen
// holds an observation, a lockset element that excludes nothing: the
// blocks it dominates come after what the writer did before its write
// (Order.Observed). A Load, Swap or failed CompareAndSwap(&s, 0, n) that
// read a value other than zero saw the first write of the one other
// goroutine (not started in a loop) that writes s; an Add whose new
// value is the sum of the constant positive deltas of every Add on s
// saw every Add. Both need every write of s to be an atomic call of the
// package, so that s starts at zero. An Add of a negative delta (or of
// ^uint32(0), which subtracts one) whose new value is zero (if
// atomic.AddInt32(&r.refs, -1) == 0 { r.free() }) saw every other
// goroutine's last Add, where every atomic write of s is an Add (the
// count it starts from may be a plain store): a count that reached
// zero is counted neither down nor up again, a reference count's
// contract and a countdown's; and two blocks such branches on one count
// dominate exclude each other, since one Add alone brings it to zero.
// A plain load of a flag observes the
// same way when a mutex guards it ("mu.Lock(); for !done { mu.Unlock();
// sleep(); mu.Lock() }"): every write of s but those of a zero constant
// is a plain store of the package holding a mutex that each load of the
// branch holds too, so the value came from an earlier critical section,
// and Unlock happens before the next Lock.
//
// Timers, which the memory model leaves out, under one assumption: a
// time.Timer or Ticker made with a constant duration of a second or
// more, stopped and then reset by one goroutine, fired only after the
// Reset. Its first Reset → a receive from its channel C, and → the start
// of the function time.AfterFunc runs.
//
// A WaitGroup.Add inside a goroutine that the group's Wait waits for,
// with no Add before the goroutine started that covers it, gives no
// edge; it is listed in Result.LateAdds for the race analyzer to report.
//
// A channel with a buffer of one is a lock where a function uses it as
// a semaphore: a send, then a receive on it in the same function (or a
// function it calls, as in a deferred release); the events between them
// hold the channel in their lockset. The send may be in a function it
// calls too, which returns with the channel full (the Lock, TryLock or
// lock(ctx) of a mutex type made of a channel): its caller, or theirs,
// holds it until the receive (Unlock's <-m.ch, or a select with a
// default whose case receives from it: a held semaphore's case is
// ready). A send that the goroutine's function never follows with a
// receive holds the channel to the goroutine's end where only the
// goroutines that fill the channel drain it (a Close that locks a
// connection's mutex for good): no other send completes before a
// receive takes that value, and none will. Where another goroutine
// receives from it, the send is a handoff and holds nothing (keptSems).
// A channel of one that the function making it fills at once (tok :=
// make(chan struct{}, 1); tok <- struct{}{}) holds a token while no one
// holds the lock: a receive takes the lock and a send gives it back
// (<-c.mu; defer func() { c.mu <- struct{}{} }()), and the fill takes
// nothing (objects.token). At once means before anything else gets the
// channel: one that its maker hands over first (in a struct sent to
// the goroutine that waits on it) and fills after is a notice, each
// send news that a receive waits for, and no receive takes a lock
// (filledFirst). A channel in a field of the
// library's callers' receiver has the buffer of the channels the
// package's code stores in that field (&mutex{ch: make(chan struct{},
// 1)}), and a set of channels taken as one has a buffer of one where
// each of them has. What a function holds is followed block by block:
// a block holds what every walked predecessor holds at its end, so a
// lock given back on a path that returns (select { case <-closed:
// m.unlock(); return errClosed; default: }) is still held on the path
// that goes on, and the caller holds what the function holds at some
// return. A receive gives back every send of the semaphore before it,
// one on each of two branches ("if d > 0 { select { case sem <- t:
// ... } } else { sem <- t }"). A send case of a
// blocking select takes the semaphore where the code after the select
// is reached from the select only through that case, every other case
// returning, failing the test or going back to choose again ("select {
// case sem <- token: case <-ctx.Done(): return ctx.Err() }", in one of
// two selects whose code goes on to the same place: selectInfo.onlyWayOn).
//
// A goroutine that its starter hands a lock to (lockset's transfer: the
// go statement's function holds it, the goroutine unlocks it without
// locking it first) holds it from its first event until its own Unlock,
// in the order of the walk: the events after that Unlock, on any path,
// hold it no more. A goroutine started from several places holds what
// every one of them hands it.
//
// A call that passes a constant to one of its callee's boolean
// parameters, or a parameter that its own call fixed, walks only the
// branches that value selects (walker.lits, lockset.Decide), and its
// events hold the locks of that call (lockset.Result.FuncWhen): "if lock
// { s.mu.Lock(); defer s.mu.Unlock() }" holds s.mu below it in
// remove(k, true), and in Delete calling del(k, true) calling
// remove(k, lock); remove(k, false) from a caller holding s.mu holds the
// caller's. The code the constants rule out makes no event. Such a walk
// is one of its own: it is not skipped as the same walk of its function.
// A boolean field of the object a call passes, which its caller set from
// a constant or a fixed parameter (tx := &Tx{writable: writable};
// tx.lock()), is fixed the same way, in a goroutine that runs no
// function that sets the field elsewhere (lockset.Trusted). A function
// literal made only in code the constants rule out runs from nowhere
// in that call: its accesses are dead code too.
//
// A call of another package's function runs the function values the
// caller passes it (strings.IndexFunc(s, f)); where the caller passes
// one of its own parameters, the walk runs the values its chain passed
// (walker.callbacks): Save's btreeAscend(keys, func(...) {...}) runs
// Save's literal, not every literal given to btreeAscend in the
// goroutine, as a call of a function value in the package does
// (walker.callees).
//
// Deferred calls run at a return in the reverse order of the defer
// statements that a path to the return ran: the walker runs, of the
// defers it has walked in the function, those from whose block the
// return can be reached. A defer after an early return's branch (tx,
// err := begin(); if err != nil { return }; defer tx.end()) does not run
// at that return. runtime.Goexit runs them too, and t.Fatal, t.FailNow
// and t.SkipNow call it: go/ssa ends the block of a call that cannot
// return with a panic, where the walker runs the deferred calls as at
// a return (a goroutine's deferred wg.Done after its t.Fatalf), in a
// goroutine a test or program started; not after os.Exit or log.Fatal,
// which do not run them, nor at a panic statement, nor in a test's or
// subtest's own body, whose deferred calls (a Close that joins) would
// stand in its trace before what its later branches do.
//
// A call of another package's function adds the events of its effect
// summary at the call, in its order: accesses and synchronization
// operations, then an Acquire for each mutex it may block to lock
// (lockset.Result.Takes) that the caller's arguments name as one object.
// The summary does not keep the order of its locks against its other
// operations, so they come last. A function value the call passes runs
// holding the locks that the summary says the function holds when it
// calls that parameter (facts.FuncLocks.Callbacks, named in the caller's
// terms): p.WithLock(func() error { c.topo = tt; return nil }) writes
// c.topo holding p's lock, as a call of the literal in WithLock's own
// package would; a callback it calls after its Unlock holds nothing of
// it (callbackLocks).
//
// A call that only the pointer analysis resolves (an interface method, a
// function value) counts the same way what its callees do to mutexes
// reached from its receiver and arguments (lockset.Result.Effect, facts
// for other packages' functions): a lock every callee leaves held is
// held from the call's return until an Unlock of it, in the walk's
// order, so a transaction that locks its batch in one method through an
// interface ("tx.Lock()") and unlocks it in another holds it in between.
//
// An access also holds the sibling locks of its function's locks: a
// load or store of a field path from a value (r.n, &r.inner.n: no loads
// or indexing on the way) with a mutex held that is reached from the
// same value (r.mu, r.inner.mu, or through pointer fields, *r.muPtr)
// holds "the mutex at that path of the object it accesses". Two
// accesses of the same memory from bases of one type are in one object
// of that type at run time, so holding the same sibling lock excludes
// them whatever the pointer analysis resolves the mutex to (RacerD's
// and checklocks' guarded-by). The contents of a map that the access
// loads from a field (r.m[k] = v, delete(r.m, k)) count as that field's:
// a map kept in a field is taken to be its object's own; so do the
// elements of a slice loaded from a field (r.s[i].f = v, and the array
// append(r.s, v) writes), guarded by a mutex of the same object however
// it is reached (a sync.Cond's Locker, r.cond.L, which the pointer
// analysis may not resolve); a slice handed out of the object is read
// through no field, and holds nothing there. A path through pointer fields assumes those
// fields are set before the object is shared, as matching a Lock with
// its Unlock does. A caller's lock counts too when the access's base
// is a parameter that the caller passed, unloaded, from the value the
// mutex is reached from ("r.mu.Lock(); r.setLocked()"); not at a
// deferred call, which may run after the Unlock.
//
// A sync.Once of the accessed object orders the same way (Locksets.
// OnceSiblings, rule "once"): an object that initializes itself lazily
// (g.once.Do(g.initPeers), or a function literal capturing g) is often
// one of several, and then g.once points to several Onces and Do's
// edge, which needs the one Once, is lost. But the callback's accesses
// to g's fields hold the sibling Once of the object they access (the
// method value or literal binds g, and the callback's calls pass it
// on), and an access that a Do on g.once precedes on every path of its
// function, or of a caller that passed g, holds that Once as done, and
// so does an access in a function literal made after such a Do that
// captures g (whoever calls it runs after it was made). Two
// accesses of the same memory are on one object, so on one Once: an
// access inside its callback is ordered with another inside it (the
// callback runs once) and with one after a Do returned (Do returns
// after the callback). Two accesses both after Do are not. The Once of
// the callback, as every Once its argument may be, also excludes the
// same callback in another goroutine as a mutex would.
//
// Two locksets exclude each other when they hold a mutex that may be the
// same location, or the mutex at the same field of objects that one
// allocation makes in one goroutine under different call sites of a
// constructor (Locksets.clones): the pointer analysis tells a
// constructor's calls apart, but not what their objects' methods
// allocate later, so their tables merge while their mutexes do not. Two
// stores that really share one table, each under its own mutex, go
// unreported, as they do when their constructor's calls are not told
// apart.
//
// Each event notes the chain of calls the walk inlined it in, from the
// function its origin runs (Trace.Frames), so that the race analysis
// can ask what an access touches there: the pointer analysis merges
// what the callers of a helper give it, but not a caller's own values.
// An event that stands for several chains has none there: an access
// merged with the same access of another chain, or the events of a walk
// that a later call, from another chain, skips as the same walk. Those
// chains are kept, a few for each (Trace.AllFrames): a merged access's
// others, and for a skipped walk each call that skipped it, the chains
// of its events going on the same way from there (a constructor that
// calls one helper at two places, both on the object it just made). A
// call of a function value that a parameter carries (or a field of
// one: t.runFunc()) calls, in a chain, only what the caller's argument
// may be there (withRetry(op) calls its caller's op, not every op given
// to withRetry), and a call of an interface's method on a parameter
// calls the method of the dynamic types the chain's value may have
// (transact(t) calling t.run() runs the run of the transaction its
// caller made, not that of every kind given to transact); a walk
// narrowed so is no repeat of the walk of another chain.
//
// An event inside a loop precedes an outgoing edge only when the edge
// leaves after the loop: the next iteration's event comes after the
// edge. Unlock → Lock ordering is left to locksets.
//
// The Result is complete when Run returns and never written after:
// every lockset an access holds, its callee's locks included, is
// interned by then (Result.AccessLocks). Reachability along the edges is
// answered by an Order, whose memo belongs to the analyzer that made it
// (Result.NewOrder), since go vet runs the analyzers of a package
// concurrently.
package shb
