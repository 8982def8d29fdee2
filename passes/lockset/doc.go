// Package lockset defines an Analyzer that computes, for every
// instruction of the package, the mutexes its goroutine must hold there:
// the flow-sensitive must-held lockset of Eraser and SWORD, for Go.
//
// Lock operations are the methods of sync.Mutex and sync.RWMutex: Lock,
// RLock (held for reading: two readers do not exclude each other), Unlock,
// RUnlock, and TryLock/TryRLock, which hold the lock on the branch where
// they returned true. A mutex is named by the expression that reaches it
// (a parameter, a variable, a field path, an embedded mutex), so that
// mu.Lock() and a later mu.Unlock() through another copy of the same
// pointer match; the Held entries keep an SSA value that the pointer
// analysis resolves to abstract objects in each goroutine.
//
// A lock held on one path into a block but not on another is not held
// there (must analysis: sets meet by intersection). "defer mu.Unlock()"
// releases at return, so the lock stays held to the end of the function.
// A return where a call deferred before it on every path locks, first
// thing, a mutex still held there never happens: sync.Mutex is not
// reentrant, the deferred call blocks forever (Func.Blocked). Such a
// return adds nothing to what the function leaves held.
// Calls of functions in the package apply the callee's effect: the locks
// it acquires and leaves held on every return (lock helpers), and the
// locks it may release, so that a caller's lock is not believed held
// after a call that unlocks it. An Unlock of a lock the callee took
// itself first releases nothing of the caller's: a caller that holds mu
// and calls peek() { mu.Lock(); mu.Unlock() } still holds it after (and
// the call is a double lock), in a loop too. Nor does an Unlock of the
// caller's lock that the callee follows with a Lock of it before every
// return it can reach: a function entered with mu held that releases it
// around a wait ("for !ready { mu.Unlock(); sleep(); mu.Lock() }", with
// returns inside the loop, or a waitLocked helper that does both) gives
// the caller back the lock it had. A return reached with the caller's
// lock released and not taken again since releases it.
//
// A lock a function takes or releases only on the branch of an if on
// one of its boolean parameters ("if needLock { mu.Lock(); defer
// mu.Unlock() }", "if !hasLock", "if lock && fresh") carries that
// condition in the function's summary: the blocks reachable only when
// the parameter has a value are found by pruning the other branch of
// each if on it (or its negation). A call that passes a constant that
// falsifies the condition neither takes nor releases the lock; a call
// that passes one of the caller's own parameters renames the condition
// onto it, so a wrapper ("func removeLocked(seq) { remove(seq, false) }",
// or one forwarding its own needLock) has the effect its arguments give
// it; any other argument may have either value.
//
// The walk of one call asks more (Result.FuncWhen): a call that passes
// a constant to a boolean parameter that the callee tests or passes on
// (or passes one of its own parameters that its caller fixed, see
// Decide) runs only the branches that value selects, so the locksets of
// that call's instructions are solved again with the other branches cut.
// "if lock { s.mu.Lock(); defer s.mu.Unlock() }; delete(s.m, k)" then
// holds s.mu at the delete in remove(k, true), where the summary's meet
// of both branches holds nothing.
//
// A boolean field of a parameter that the function never stores to
// (tx.writable in "func (tx *Tx) lock() { if tx.writable { tx.db.mu.Lock()
// } else { tx.db.mu.RLock() } }") is decided as a parameter is, by the
// caller: where the object passed is one the caller made and stored the
// field of once before the call (tx := &Tx{db: db, writable: writable}),
// the field has the value stored, a constant or one of the caller's own
// parameters; a boolean field that nothing sets where the object is
// made (t := &Tx{}; t.init(db), init setting other fields) is false.
// What the object was made with decides only for an unexported field
// that its package sets nowhere else (setWhereMade): a running flag
// that Start sets later may be true by the time Add tests it. A walk of
// a goroutine that runs none of the functions that set it elsewhere
// may trust it all the same (Trusted, DecideTrusting,
// FuncWhenTrusting): a test that sets tx.writable = false in its own
// transaction to see the error changes the mode of no other goroutine's
// transactions (another goroutine's store to this one's object would
// race with its loads, and is reported as such). The parameter may be
// one the function's literals capture, which go/ssa keeps in a variable
// it loads (fieldBase): "func (tx *Tx) Put() { if !tx.writable {
// return }; each(func() { tx.n++ }) }".
// And a load of such a field names what was stored: the mutex tx.db.mu
// of that Tx is db.mu in Begin's terms.
//
// A call that fixes some of its callee's boolean parameters, by
// constants or by the values its own call fixed, has the callee's effect
// for those values (solver.infoWhen, memoized per function and values):
// lock() called on a writable Tx leaves mu held for writing, where its
// summary, which meets both branches, holds it for reading only; Begin
// (writable) then holds it for writing where its caller passed true, to
// Update's managed(true, fn), and for reading in View's. The locks a
// function may take and release stay its summary's.
//
// A function that returns holding a lock exactly where its error
// result is nil (beginRWTx: Lock, and Unlock on each path that returns
// an error) holds it for its caller on the branch where the error it got
// is nil (t, err := db.beginRWTx(); if err != nil { return err }), as
// TryLock does where it returned true. A failure is a return of a
// constant other than nil, of a package variable (ErrClosed), of
// errors.New or fmt.Errorf, of a boxed concrete error, or of an error a
// dominating branch found not nil; any other return of an error may be a
// success. The error tested may be a variable the call's result was
// stored into just before (a named result a deferred function reads:
// tx, err = db.Begin(writable); if err != nil { return }). A wrapper that passes such a call's results on (return
// db.beginRWTx(), through named results too) holds what the call holds
// on success, under the condition on its boolean parameters that reaches
// that return (Begin(writable) holds it only when writable), which a
// caller's constant argument settles. Package-local calls only: the
// facts do not carry it yet.
//
// A mutex may have two names. A function that stores what reaches it
// into a field of a parameter or of a package variable, and then locks
// it ("r.cur = n.c; n.c.L.Lock()", the field stored nowhere else in the
// function), holds it under the field's name too (Held.Alias): a later
// call that unlocks r.cur.L (a finish method) releases it, where the
// name it was locked by alone would keep it held, and every later Lock
// of it would be a double lock.
//
// A spin flag is a lock too (see spinFlag): an unexported word that the
// package writes only by atomic CompareAndSwap from free to held and
// Store of free. The swap is a TryLock, the Store an Unlock; Held.Spin
// marks it, for the deadlock analysis to leave alone, and the facts do
// not carry it. A flag one of whose stores is made where the flag is
// not held (in the function, or at every call of it in the package,
// three calls up) is no lock: the package is solved again without it.
//
// A go statement whose goroutine may release a lock that the starter
// holds there, without taking it first, transfers the lock ("mu.Lock();
// go func() { flush(); mu.Unlock() }()"): the starter no longer holds
// it after the go statement, and its summary releases it, so that its
// callers do not hold it either (Result.Transferred; package shb gives
// the lock to the goroutine). A goroutine that locks the mutex itself
// before unlocking it takes nothing: it waits for the starter. Only the
// locks the go statement's own function holds are transferred, not its
// callers'.
//
// Locksets are local to a function: what a caller holds at the call is
// added by the happens-before pass, which walks each goroutine's calls
// (see package shb), and interned there as canonical lockset IDs. A call
// through an interface or a function value has no effect here (the
// locks held across it are unsure); Result.Effect gives the pass what
// each callee the pointer analysis finds does, to apply per callee.
//
// A call of the function value that a function returns is a call of
// the literal every return of it makes, its captured parameters the
// caller's arguments (unlock := unlockOnce(&srv.lock); defer unlock()),
// and once.Do(mu.Unlock) unlocks mu (returnedClosure, BoundUnlock).
//
// # Locks across packages
//
// The Analyzer also exports, as a facts.Locks package fact, what each
// exported function and method does to mutexes its callers can name (a
// facts.Key rooted at a parameter or a package variable): the locks it
// leaves held on every return, those it may release, and those it may
// block to acquire, with where, and those it locks itself and returns
// still holding on some paths, not all (a lock left held, with the
// return, when that return reports no success and hands back no
// function that unlocks it: an exported function that returns true or a
// nil error holding it is a conditional lock helper, and one that
// returns its Unlock, or hands a function that unlocks it to a call,
// a store or a send (see HandsUnlock), leaves the unlocking to its
// caller or to whoever gets the function), and those it holds where it calls one of its function-typed
// parameters (a callback run under the lock); a lock it takes or
// releases under a
// condition on its boolean parameters carries the condition
// (facts.HeldLock.When), so that an importer's call that passes a
// constant falsifying it does not count the lock. Callees in the
// package and in direct imports are folded in, so the fact is closed
// over the package boundary like the pointer summaries. An importer's lockset applies them at
// calls (Held.Path names a mutex reached from the caller's argument).
// What functions do to memory and to other synchronization is package
// effects'. The runtime's, sync's and the testing package's functions
// export nothing (see syncapi.Internal).
package lockset
