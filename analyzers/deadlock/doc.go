// Package deadlock defines an Analyzer that reports mutex deadlocks:
// a goroutine that locks a mutex it already holds, two goroutines that
// take two mutexes in opposite orders, a read lock upgraded to a write
// lock, a function that returns with a mutex locked on some paths, an
// unlock of a mutex already unlocked, and a goroutine that blocks while
// holding a mutex that the goroutine it waits for needs.
//
// # Analyzer deadlock
//
// deadlock: report mutex deadlocks and locks left held
//
// The deadlock analyzer follows the locks each function must hold
// (package lockset) and each goroutine's trace (package shb), and
// reports the lock bugs that stop a program rather than corrupt it: a
// goroutine that locks a mutex it already holds (sync.Mutex is not
// reentrant, so it blocks forever), two or three goroutines that take
// mutexes in orders that can wait for each other, a read lock upgraded
// to a write lock, a function that returns with a mutex locked on some
// paths, an unlock of a mutex already unlocked, and a goroutine that
// blocks on a channel, a WaitGroup or a Cond while holding a mutex the
// goroutine it waits for needs.
//
// # What it reports
//
// WRONG: Report holds b.mu and calls Total, which locks it again.
//
//	func (b *Bank) Report() string {
//		b.mu.Lock()
//		defer b.mu.Unlock()
//		return fmt.Sprint(b.Total())
//	}
//
//	func (b *Bank) Total() int {
//		b.mu.Lock()
//		defer b.mu.Unlock()
//		return b.totalLocked()
//	}
//
// The report is on the call, and says where the mutex was locked and
// where the callee locks it again; on origo's demo (testdata/demo) it
// reads
//
//	bank.go:92:97: double lock: b.mu is held (locked at bank.go:89) when this goroutine calls (*demo.Bank).Total, which locks it again (at bank.go:76); sync.Mutex is not reentrant, this blocks forever
//
// RIGHT: Report calls an unexported totalLocked, which expects b.mu
// held and does not lock it.
//
//	func (b *Bank) Report() string {
//		b.mu.Lock()
//		defer b.mu.Unlock()
//		return fmt.Sprint(b.totalLocked())
//	}
//
// Every report names the mutex and the places involved, and says
// "deadlock" or "blocks forever" (all but an unlock of an unlocked
// mutex, a fatal error at run time rather than a wait); each kind begins
// its message with its name:
//
//   - double lock: Lock (or RLock) of a mutex that is held on every path
//     to it, directly, through a call whose callee (in this package or
//     another, through its effect summary) locks it, or through a deferred
//     call that runs while it is still held;
//   - double lock on some paths: a Lock that a path from a Lock of the
//     same mutex reaches without an Unlock, a return or a panic, such as
//     a continue that skips the Unlock and locks again in the next
//     iteration;
//   - double lock through a function value: a callback stored in a field
//     or passed as a parameter that locks the mutex its caller holds
//     when it calls it (le.cp() under le.mu, where the checkpointer
//     calls le.Checkpoint), found on the goroutine's trace, which
//     follows the callees the pointer analysis finds; only a mutex of an
//     object that the goroutine's entry function makes once, outside
//     loops, so that two objects made at one place (list nodes locked
//     hand over hand) are not taken for one. A function of another
//     package that calls its function-typed parameter while holding a
//     mutex says so in its Locks fact (s.Each(f) holds s.mu around
//     f(v)): a closure or function passed there that locks the same
//     mutex, as the caller names it, is reported at the call;
//   - RWMutex upgrade: Lock of a mutex the goroutine holds for reading;
//   - recursive read lock: RLock of a mutex already read-locked, when the
//     package also write-locks that mutex (a writer waiting between the
//     two RLocks blocks both);
//   - lock left held: a return that leaves a mutex locked that other
//     returns of the function unlock. Where it is certain, the report
//     carries a suggested fix, "unlock b.mu before returning", that
//     inserts the function's own b.mu.Unlock() (RUnlock for a read lock)
//     before that return (last in the body, for the return at its
//     closing brace): the function locks b.mu itself, by a statement
//     in a block around the return, and unlocks it by that name
//     elsewhere; b names the same value throughout; no loop in between
//     unlocks it; no deferred call runs there; and the results read only
//     constants, sentinel errors and the function's own variables, since
//     they are evaluated after the Unlock. Otherwise there is no fix;
//   - lock kept by a goroutine that returned: a goroutine the package
//     starts locks a mutex (itself, or through a helper it calls, also
//     through an interface) and returns still holding it on every path,
//     and no goroutine unlocks it without holding it (a hand-over): each
//     other goroutine's Lock of it, not ordered before the goroutine's
//     own, blocks forever (an RLock only when it was kept write-locked);
//   - lock order inversion: goroutine A locks m2 while holding m1, and
//     goroutine B locks m1 while holding m2, the two acquisitions not
//     ordered by happens-before and not both behind a common lock. Mutexes
//     are abstract locations of the pointer analysis, so two instances of
//     one type are two locks unless they may alias. A call of another
//     package's function that locks a mutex its arguments reach (its
//     effect summary's takes) acquires it at the call, for the order,
//     for blocking while holding a lock, and as the writer of a
//     recursive read lock; a lock it leaves held is no goroutine's own
//     for a lock kept by a returned goroutine (its release, tx.End()
//     through an interface, is beyond the summary);
//   - lock order cycle: the same with three or four mutexes across as
//     many goroutines, each step checked against the next as a pair is,
//     every goroutine another;
//   - unlock of unlocked mutex: an Unlock on a path that already unlocked
//     the mutex since the function last locked it, in particular an
//     explicit Unlock on an early return that the deferred Unlock then
//     repeats (a fatal error at run time, not a deadlock, but the same
//     bookkeeping). Read locks count: a second RUnlock is reported only
//     when the function itself read-locks the mutex once (RLock or
//     TryRLock), since read locks taken elsewhere are not counted. The
//     Lock and Unlock of a Locker made by RWMutex.RLocker are RLock and
//     RUnlock;
//   - blocking while holding a lock: a send on an unbuffered channel, a
//     receive, WaitGroup.Wait or Cond.Wait while holding a mutex (for
//     Cond.Wait, another than the Cond's own, which Wait releases) that
//     every goroutine able to complete the operation holds when it does,
//     or must lock first: it locks the mutex on every path to its
//     operation, in its own function or in a caller that calls on to it
//     (mu.Lock(); mu.Unlock(); ch <- v waits for the lock when the
//     receiver took it first), or in a loop around it that always
//     locks the mutex after the operation, when the blocked operation
//     may happen more than once (for { <-ch; mu.Lock(); ...; mu.Unlock() }
//     locks before its second receive), or, when its operation is a
//     case of a select in a loop, on every path of another way out of
//     the select (its default, a case on another channel) before the
//     loop comes back to it: for { select { case <-stop: return;
//     default: mu.Lock(); ...; mu.Unlock() } } may be waiting for mu
//     when the sender holds it; or in the body of a loop it leaves
//     before its operation (for v := range updates { mu.Lock(); ...;
//     mu.Unlock() }; close(done)); or, one step further, when it first
//     waits in a receive (on every path before its operation, a deferred
//     close(stop) after <-ready) that only third goroutines complete,
//     each of which must lock the mutex first. A select with one case
//     and no default is the plain operation. A Lock that happens before
//     the blocked goroutine could hold the mutex (a caller's, before the
//     go statement) is no such wait.
//
// A deadlock leaves more than one goroutine stuck, and is one report all
// the same, at one of them: the other goroutine's Lock where it waits is
// a related position whose message begins "the other side of the
// deadlock:", for the second lock of an inversion (when it is not the
// same statement), the writer's Lock of a recursive read lock, and the
// Lock that the goroutine able to complete a blocked operation must pass
// first. What else the stuck goroutines leave stuck (a WaitGroup.Wait
// whose Done comes after the deadlock, a receive whose sender is stuck,
// a Lock of a mutex they hold) the blocking analyzer reports, from this
// analyzer's result, in which the other sides count as places where a
// goroutine may block forever.
//
// A report's related positions (indented beneath it in origo's text
// output, relatedLocations in SARIF) are the places its message names,
// for an editor to go to: where the mutex was locked ("b.mu locked
// here"), the callee's Lock, the other goroutine's two acquisitions of
// an inversion, the operation that would unblock a blocked one and the
// Lock it must pass first, the earlier Unlock. A place in another
// package's file is in the message only.
//
// # What stays silent
//
// Each place the checks find no deadlock at is ruled out by a rule of
// package passes/rules, named in parentheses below (the ones deadlock
// shares with race and blocking are explained in race's manual).
//
// A goroutine waits for itself only on a mutex it holds. A Lock, a call
// that locks, or a return, at which the function has not locked the
// mutex on any path, or has unlocked it on every path since (a deferred
// Unlock at the return, which runs before the calls deferred earlier;
// the caller's Unlock after a call that may leave it held), is no double
// lock, lock left held or Lock after a lock left held (not-held). Only
// the function's own paths count: what a caller holds is checked at the
// caller's call. An Unlock after another Unlock is no unlock of an
// unlocked mutex when the function locks the mutex again on every path
// in between (locked-first). TryLock never blocks and is not an
// acquisition here (try-lock).
//
// A Lock on one branch of an if on a boolean variable (if !lockHeld {
// mu.Lock() }) is no double lock on some paths, since the flag records
// which paths hold the mutex (lock-flag), and neither is a Lock in a
// function that never unlocks the mutex itself: another goroutine does,
// a hand-over (lock-handover). Nor is a Locker called through the
// interface, which may be an RLocker (dynamic-call), or a mutex reached
// from a value the loop steps, parent.mu of each parent in turn, another
// mutex each time around (other-instance), or the mutexes of two
// elements of one slice whose indices never meet: first := rs[0] held
// while each rs[i] with i from 1 is locked and unlocked in turn, and
// first unlocked after the loop unlocked rs[i] (other-elements). A
// goroutine that unlocks a
// mutex its starter locked (go func() { flush(); mu.Unlock() }()) takes
// it over: the starter and its callers no longer hold it after the go
// statement (lock-handover).
//
// A call through an interface or a function value may unlock a mutex
// its caller holds: a Lock after it, or a return, holding a mutex locked
// before it is no double lock or lock left held (dynamic-call).
//
// A callee that locks only when a boolean parameter says so ("if
// needLock", "if !hasLock") does not lock at a call that passes the
// constant that skips the lock, directly or through wrappers that pass
// the constant or forward their own parameter (see package lockset):
// holding fs.mu and calling fs.remove(seq, false) is not a double lock
// (lock-param).
//
// An RLock of a mutex the goroutine holds for reading is no double lock;
// it is a recursive read lock only when the package also write-locks the
// mutex, for a writer waiting between the two read locks blocks them
// (no-writer). A second RUnlock after an RUnlock is one too many only
// when the function itself read-locks the mutex once: read locks taken
// elsewhere are not counted (readers-counted).
//
// A function that unlocks a mutex it did not lock itself (on some path,
// directly or through a callee) was entered with it held: its caller's
// lock, given up while it waits or works and taken back (a ...Locked
// function, "must be called with mu held"). A return that holds it, or
// one that never touched it, hands the caller back what it had, and is
// no lock left held (entered-held); no Unlock is suggested there, which
// would make the caller's own Unlock fatal. Its Unlock on a path from
// its entry that did not lock the mutex is no unlock of an unlocked
// mutex either (entered-held).
//
// A function that returns locked on every path is a lock helper, not a
// lock left held; a return that reports success (nil error, true) while
// holding the lock is a conditional helper's, unless every caller can be
// seen (the function is unexported, or in a command), each calls it by
// name, and none unlocks the mutex after the call before locking it
// again, itself or through a function that does (defer l.release()):
// then it is a forgotten Unlock (lock-helper). So is a return
// that hands the caller, among its results, the function that unlocks
// the mutex: its Unlock as a method value, or a function literal that
// unlocks it (return c.mu.Unlock, nil; unlock, err := c.beginClose();
// defer unlock()), which the caller is to call; and a return after
// such a function was handed over on every path to it, passed to a
// call, stored or sent (an asynchronous commit that locks, then passes
// the callback that unlocks, wrapped in another literal that calls it,
// to the code that finishes the work: g.commit(ctx, req, func(err
// error) { defer g.mu.Unlock(); onDone(err) })), which whoever gets it
// calls.
//
// What a lock left held blocks is reported too: after a call of the
// function, when the caller does not unlock the mutex afterwards
// (not-held) and passes no constant that a branch of the function tests
// (reset(true) may take the path that unlocks: lock-param), each later
// Lock of the same mutex, in the caller's goroutine or in one it starts
// after the call, is "Lock blocks forever (deadlock): ... is left locked
// by f". A return whose deferred call locks the mutex it leaves held
// (defer func() { mu.Lock(); ... }() before "return err" with mu held)
// never returns: the deferred Lock blocks forever, a double lock
// reported at the defer. The return is reported as a lock left held,
// where the fix goes, but leaves its callers nothing held (not-held);
// what the stuck goroutine blocks is blocking's "Lock blocks forever:
// ... holds while it may block forever". When f is the function a goroutine runs (a go statement's, a
// time.AfterFunc callback), each other goroutine's Lock of the mutex
// that does not happen before the goroutine's own is: "... may be left
// locked by goroutine started at ..." (happens-before, other-program). A
// read lock left held blocks no read lock (read-locks). A function of
// another package that leaves a mutex held on some paths says so in its
// Locks fact: after a call of it that passes no constant bool, with no
// Unlock of the mutex after, each later Lock of it is reported the same
// way. A goroutine that returns holding a mutex blocks no later Lock of
// it when another goroutine unlocks it (lock-handover), and a goroutine
// that does not hold it when it returns blocks none (not-held).
//
// Two goroutines that take two mutexes in opposite orders are a
// candidate inversion only when they may run at once, which deadlock
// asks the way race and blocking do (shb's Order.Concurrent): one
// goroutine does one thing at a time (one-goroutine); goroutines of
// main's binary and of the test binary never meet (other-program), nor
// do the goroutines of two tests run in sequence when the first test
// joins its goroutine (tests-in-sequence), nor a parallel test with
// itself (test-runs-once); a chain of synchronizations may order the two
// acquisitions (happens-before). A goroutine that takes the two mutexes
// in both orders itself, or locks one of two mutexes while holding one
// of the same two (first, second picked by comparing IDs), decides the
// order at run time (both-orders). Both acquisitions behind a third
// mutex in common are kept apart by it (gate-lock), and two read locks
// do not wait for each other (read-locks). Mutexes that all goroutines
// take in one order, with no cycle in the order they are taken, never
// deadlock (one-order), and a mutex locked while holding another made at
// the same place, where that place makes more than one, is another
// object's (other-instance). A cycle of three or four mutexes is checked
// pair by pair the same way.
//
// The operation blocked while holding a lock is never a select case:
// another case may complete it (select-case); a send on a buffered
// channel waits only when its buffer is full (buffered); and Cond.Wait
// unlocks the Cond's own Locker while it waits (cond-wait). It blocks
// forever only when every goroutine able to complete it needs the mutex
// first: one that can get to its operation without it, before it locks
// the mutex or on a path that does not lock it, unblocks it
// (free-partner), and so does one whose Lock happens before this
// goroutine could hold the mutex (happens-before) or one that holds it
// for reading as this one does (read-locks). An operation at which the
// mutex its function locked before is unlocked again blocks nobody who
// needs it (not-held).
//
// "origo why FILE:LINE" (under go vet, -deadlock.why=FILE:LINE, or all)
// prints, for every candidate deadlock at that line, with the places and
// goroutines involved, "reported" or "ruled out by" the rule and what in
// the program it applied to, as diagnostics of category "why": a Lock,
// or a call that locks, as a double lock, an RWMutex upgrade or a
// recursive read lock, and as a side of a lock order inversion or cycle
// of the goroutines that run it; a return as a lock left held; an Unlock
// as an unlock of an unlocked mutex; a channel operation, WaitGroup.Wait
// or Cond.Wait as blocking while holding a lock; a Lock after a lock
// left held or kept by a returned goroutine. A report's places are
// "reported", or ruled out by the //origo:ignore directive that silences
// it (ignored).
//
// # Known limits
//
// Cycles of five or more locks are not looked for, and in a cycle only
// eight acquisitions of each pair of mutexes are tried (budget). A Lock
// of a mutex held on some paths only is reported for a Lock statement,
// not for an RLock or a call that locks. A Cond.Wait is checked only
// when the Cond's mutex is known (a Cond made in the function, or a
// field set to sync.NewCond(&x.mu)). A panic path is not a return.
//
// # Report kinds
//
// Each report carries its kind as its category (the "category" of go vet
// -json and origo -json, the rule of a SARIF result; see package kinds),
// and its message begins with the kind's words:
//
// deadlock/double-lock: a goroutine locks a mutex it already holds,
// directly, through a call, a deferred call or a function value, or on
// some paths (a continue that skips the Unlock). sync.Mutex is not
// reentrant: the second Lock blocks forever. Call a variant that expects
// the mutex held (totalLocked), or unlock before the call.
//
// deadlock/rwmutex-upgrade: a goroutine that holds an RWMutex for
// reading calls Lock on it. Lock waits for every reader, itself
// included, and blocks forever. RUnlock first, then Lock, and check again
// what was read.
//
// deadlock/recursive-read-lock: a goroutine read-locks an RWMutex it
// already holds for reading, and the package also write-locks it: a
// writer waiting in Lock between the two RLocks blocks the second, which
// blocks the writer. The writer's Lock is the other side. Read-lock once,
// and pass what the inner call needs.
//
// deadlock/lock-left-held: a return leaves a mutex locked that the
// function's other returns unlock: the next Lock of it blocks forever.
// Unlock before that return (the suggested fix, where it is certain), or
// defer the Unlock.
//
// deadlock/lock-after-left-held: a Lock that blocks forever because a
// function called before it, in the same goroutine or one ordered before
// it, returned still holding the same mutex (a lock left held, reported
// there too). Its message begins "Lock blocks forever (deadlock)".
//
// deadlock/lock-kept-by-returned-goroutine: a goroutine locks a mutex
// and returns still holding it on every path, and no goroutine unlocks
// it for it: every other goroutine's later Lock of it blocks forever.
// Unlock before the goroutine returns.
//
// deadlock/lock-order-inversion: two goroutines that may run at once
// take the same two mutexes in opposite orders: each may hold one and
// wait for the other forever. One report, at one goroutine's second
// Lock, with the other goroutine's as the other side. Take the mutexes
// in one order everywhere.
//
// deadlock/lock-order-cycle: the same with three or four mutexes across
// as many goroutines, each locking the next one's mutex while holding
// its own.
//
// deadlock/unlock-of-unlocked-mutex: an Unlock of a mutex that every
// path already unlocked since it was last locked, often an explicit
// Unlock on an early return that a deferred Unlock repeats. It is a
// fatal error at run time ("sync: unlock of unlocked mutex"), not a
// deadlock. Keep one of the two.
//
// deadlock/blocking-while-holding-lock: a goroutine sends, receives,
// waits on a WaitGroup or a Cond while holding a mutex that every
// goroutine able to complete the operation must lock first: if this one
// locks first, both block forever. The partner's Lock is the other side.
// Release the mutex before the operation, or make it not block (a
// buffer, a select with a way out).
//
// # Silencing a report
//
// Check the report first: find the mutex and the places the message
// names (where it was locked, where it is locked again or in the other
// order), and the path between them. When the report is one you accept
// (a lock the code hands to another goroutine on purpose, a test that
// checks that the call blocks), put a line comment
//
//	//origo:ignore deadlock <reason>
//
// on the reported line, after the code:
//
//	p.mu.Lock() //origo:ignore deadlock the test checks that this blocks
//
// A deadlock between goroutines is one report: the comment on its line
// or on the line of its other side (the related position "the other
// side of the deadlock") silences it.
//
// The comment starts exactly "//origo:ignore " (no space after the
// slashes), the next word names the analyzers it silences (deadlock, or a
// list: deadlock,race), and the reason says why the report is acceptable.
// At the end of a line of code it silences the reports on that line;
// alone on its line, it silences the line under its block of comments,
// so the explanation can sit above the code. A malformed directive (no
// analyzer, no reason, a misspelling) silences nothing and is reported
// by the directive analyzer. Nothing is reported in a file marked
// "// Code generated ... DO NOT EDIT." unless the -generated flag is
// set.
package deadlock
