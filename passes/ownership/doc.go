// Package ownership defines an Analyzer that answers, for the race
// analyzer, whether the memory two accesses touch is owned by one
// goroutine at a time: made and not yet shared, handed over, taken out
// under a lock, one goroutine's own element, or never touched at all.
// It reports nothing; its Result is asked through a Query
// (Result.NewQuery), which memoizes what it finds, as shb.Order does
// for happens-before.
//
// The pointer analysis merges every object made at one allocation site,
// every element of a slice, and what every caller gives a helper, so
// two goroutines seem to share memory that each owns in turn. Each rule
// below is a fact of ownership or of the Go memory model that a Go
// programmer would give for why such a pair is no race, and each
// verdict names it: a rules.ID (package rules), which "origo why"
// prints and a fixture's // silent "ID" comment expects.
//
// # How race asks
//
// race lists the pairs of accesses to a shared location and asks,
// cheapest first: Query.Alone of each access (it races with nothing:
// not-published, self-store, dead-code); Query.Apart of the pair
// (closes-both, other-elements, own-element, self-synchronized); in
// library mode, Query.Presumed of a pair it presumes concurrent
// (no-evidence, setup-method). For each access it asks Query.Touches which of its
// events may touch the object, and Query.FlagSkipped whether its
// goroutine skips it (flag-skipped). For each pair of events that
// neither a common lock nor shb orders, it asks Query.Guarded
// (taken-under-lock, double-buffer) and, after the happens-before
// question, Query.Owned (test-objects, own-spawn, handover, future,
// done-per-item). A pair left over is reported by default only where
// Query.Evidence finds evidence of sharing (no-sharing-evidence); the
// others are race's possible data races.
//
// # The rules
//
// Each rule's statement is declared once, in package rules. The rules
// whose sections follow are explained here; the others this package
// decides are explained in the race analyzer's manual, beside the
// goroutines and accesses they concern:
//
//   - test-objects, subtest-objects: each test, and each run of a
//     subtest, makes its own objects (race's "Tests");
//   - self-synchronized: a library type that synchronizes itself with
//     atomics orders its own accesses (race's "What it reports");
//   - setup-method: a method every caller runs on an object not shared yet
//     sets it up (race's "Which goroutines are checked");
//   - internal-package: an internal package's API callers are its own
//     module's code, not presumed concurrent (race's "Which goroutines
//     are checked");
//   - flag-skipped: code that runs only where a flag set once reads false
//     does not run (race's "Goroutines taken for one");
//   - self-store, other-elements, closes-both: storing back what was just
//     loaded changes nothing, two constant indices or fields that differ
//     are different memory, two closes of one channel panic whichever comes
//     first (race's "What it reports");
//   - running-flag: a bool field that records whether a loop runs (blocking's
//     "What stays silent", and the section below).
//
// # Objects not published yet
//
// not-published: an object no other goroutine can reach yet (not
// stored, sent or captured) is its maker's.
//
// A read or write of an object that the same function allocated, before
// the function publishes it, is no race, though the pointer analysis
// merges it with the objects the same allocation site made before: a
// constructor filling the object it made, across branches and loops,
// and calling the package's functions that only use it (s.init(s)
// stores it into itself), before it returns it. Publishing is storing a
// pointer into it anywhere but into the object itself or into another
// object the function made and has not published (then it goes along
// when that one is published), sending it, a go or defer statement or
// closure taking it, a panic, or a call of a function of another
// package (but sync's methods and sync/atomic on it); the package's own
// callees are followed three calls deep, and so are the callees that
// the pointer analysis finds for a call through a function value or an
// interface in every goroutine that makes it (a constructor applying
// its options, opt(d)); a dynamic call it finds no callee for, or one
// that may reach what it does not see, publishes. A variable that a
// closure captures lives in a cell that each use loads (nc := &Conn{};
// ...; go func() { ... nc ... }()): it still denotes what the function
// assigned it, when it is assigned once, before its uses, and the
// closures only read it; the closure taking it publishes the object.
// What the function loads from the object carries it only where it may
// point back into it: a value whose type points to what the object holds
// (s.init(s) then s.self loaded), and an interface value only where the
// pointer analysis finds in it a box this package made of such a type. A
// box another package made (the net.Conn a dialer returned, the writer
// io.MultiWriter made) holds only what that package was given, and giving
// it the object publishes it there already; so the conn a constructor
// keeps and hands to crypto/tls, a watcher or bufio (pgConn.conn) does
// not publish the constructor's object. A closure that captures the
// object and is stored into a field of it (c.onEvict = func(v) {
// c.onExit(v) }) goes where the object goes, when the package only ever
// loads that field to call it on the spot, and the closure's body
// publishes nothing of what it captures. The object a package
// function made and returns without publishing it is fresh in its
// caller the same way (newDesc := NewDesc(...); newDesc.err = err); so
// is the object a function of another package returns when its
// points-to summary shows it made by the call and stored nowhere the
// call's arguments or a package variable reach, and its origins show
// that it starts no goroutine (pub :=
// packets.NewControlPacket(kind).(*packets.PublishPacket), through the
// type assertion of the interface it was boxed in); and
// so is a helper's parameter when every call of the helper that the
// pointer analysis finds may pass the accessed object there passes a
// fresh one (s.setup(), the option closure func(d *Desc) { d.unit =
// unit }, populateMetric filling NewConstMetric's metric though
// Counter.Write gives it another): a helper that a goroutine or a root
// starts in has callers it does not see. When other callers pass
// published objects, the helper's run along one chain of calls is still
// dropped when the caller on that chain made the object and had not
// published it (startRemote's new pipeline given to start, which Resume
// also calls on a published one, under a mutex or not). A write inside
// a loop after the object was published in an earlier iteration is
// checked as usual. A slice the function grows with append is fresh
// while no array it made may have been published on the way (a send of
// the slice in the loop publishes the array the next append may write
// in place), and so is a map made on first need in a loop (if m == nil
// { m = make(...) }) while none of its makes may have been published. A
// slice kept in a field of an object the function made (d.pairs =
// append(d.pairs, p)) is grown from what the function stored there,
// fresh while that object is: a callee storing another slice into the
// field is not seen. Only a slice: a pointer loaded from such a field is
// what was stored there, and a box stored whole (the copy go/ssa makes
// of a struct parameter whose fields' addresses are taken: go
// count(notice{b}), then n.b.hits++) holds what its value held, the
// caller's board, not something the function made. An object that only an owning field holds is its
// holder's part, unpublished while the holder is: a field is owning when
// it is unexported and every store of the package into it stores nil or
// an object the storing function made (or got from a constructor) and
// publishes no other way (srv := NewServer(...); srv.forwarder.broker =
// b, before srv.Start()); a part loaded from the holder and given to a
// go statement (go srv.forwarder.run()) publishes it. A part may also
// move between owning fields of one holder: a store of what was loaded
// from an owning field of the holder (or of its parts) into an owning
// field of the same holder pops a stack (r.top = r.top.parent), and one
// into a node the function made, which it then stores into such a field
// and nowhere else, pushes one (r.top = &node{parent: r.top}); the
// fields that move parts so are owning together, decided as the largest
// set whose every store keeps its parts. A struct copied whole copies
// its fields from another, so its owning fields are none, but for a zero
// value or a composite literal (m := T{empty: true}). A helper's access
// to a part of its parameter's object (r.header.count, with header a
// field of the node r.top holds) is unpublished along a chain of calls
// whose caller made the holder and has not published it or its parts
// (kafka-go's newMessageSetReader, whose readHeader fills the top node
// that the Batch, once returned, reads under its mutex). An event that
// stands for several chains of calls (a helper called at two places, its
// second walk skipped as the first) is unpublished when every one of
// them shows it so; a function literal's access to what it captured is
// followed to the binding where the chain made the closure (a callback
// given to a helper that calls it: readInt16's func(b []byte) { *v =
// ... } run by peekRead).
//
// A function literal that captures the object publishes nothing when it
// only runs on the spot: every use calls it, or passes it to a function
// of the package that only calls that parameter (each(n, func(i int) {
// ... }), peekRead(r, 8, func(b []byte) { *v = ... })), and its body,
// followed as a callee is, publishes nothing of what it captures. One
// given to a function that starts a goroutine with it, or keeps it,
// publishes the object.
//
// A dormant timer's function publishes nothing: time.AfterFunc armed
// for a constant second or more, whose timer the next call stops (pgx's
// slow-write timer, armed for math.MaxInt64), runs the closure only
// after a Reset, which another goroutine can make only once it reached
// the object holding the timer; the function that made the timer must
// not reset it itself (see dormantTimer).
//
// # The caller's object
//
// An execution of an access in a helper touches what its own caller
// gives it: each event of a trace knows the chain of calls it was
// walked in, and there the access's address is followed back from the
// caller's argument, in the pointer analysis's context for that chain
// (a constructor's objects told apart by call site), so Init on the
// notifier of one test's lessor is no part of a pair on another test's
// notifier. An event that cannot touch the object of a pair, or touches
// one that a caller on its chain made and has not published yet, is no
// part of the pair (Query.Touches).
//
// # Writes before a method starts its goroutine
//
// own-spawn: a method's writes to its receiver before it starts its
// goroutine on it happen before the goroutine, on each call's own
// object.
//
// A method that writes its receiver and then starts a goroutine on it
// (cr.done = make(...); go cr.run()) orders those writes before what
// the goroutine does to its receiver's fields, when every call of the
// method in the package and its tests is on an object its caller made
// for that call (p.msgAppReader = &streamReader{...};
// p.msgAppReader.start()), so that no two calls run on one object: the
// goroutines that earlier calls started run on other objects, which the
// pointer analysis merges with this one. A method called twice on one
// object (w.start(); w.start()) is checked as usual. A lazy start runs
// once per object too: every call of the method reads a bool field of
// the receiver false, holding a mutex of the receiver (if !s.started {
// s.start() }, or an early return where it reads true), the method sets
// the field true on every path, and no store in the package sets it
// false but on a new object; then every goroutine of its go statement
// on an object was started by that object's one run, whichever
// goroutine made the call (zap's BufferedWriteSyncer.initialize). A
// Stop that clears the flag lets it run again: checked as usual. A
// receiver that a function literal of the method captures (p.stop =
// func() { close(p.pings) }) is kept by go/ssa in a variable of its own
// and loaded at each use; every load is the receiver still
// (lockset.Spilled), at the flag, the mutex and the go statement.
//
// # Taking a field under its mutex
//
// taken-under-lock: what a goroutine took out of a field holding its
// mutex is its own until put back.
//
// A goroutine that takes what a field holds, holding the mutex that
// guards it (victims := s.victims; s.victims = nil, before Unlock), is
// the only one left that reaches those objects through the field: its
// accesses through the value it took, there and in the callees and
// closures it passes them to, race with accesses made without the
// mutex, not with those made holding it.
//
// One entry can be taken alone: a goroutine that, holding the mutex,
// looks a key up in a map field and deletes that key (h, ok :=
// c.dispatch[seq]; delete(c.dispatch, seq): a handler deregistered, an
// idle connection checked out), or pops an element off a slice field
// (x := p.free[n]; p.free = p.free[:n], or x := q.items[0]; q.items =
// q.items[1:]: a free list, a queue), owns what that entry held until
// it puts it back: the others reach it only through the field, holding
// the mutex, and it is no longer there. Two goroutines that each took
// an entry this way (deregister(1) and deregister(2), two checkouts of
// one pool) never hold one entry at once: the second finds it only
// after the first put it back, under the mutex, so their accesses are
// ordered as the mutex's critical sections are, though the pointer
// analysis merges the entries. The field's value and the value it is
// reset through are compared as values of the function: a receiver
// that a function literal captures is one value at each load of the
// variable go/ssa keeps it in.
//
// # Publishing into a field under its mutex
//
// published-under-lock: what a goroutine wrote to an object before it
// stored the object into a field holding its mutex happens before what
// another goroutine does with the object once it loaded it from that
// field holding the mutex.
//
// A registry that fills a new entry, starts its goroutines, and then
// puts it in a map under the registry's mutex (p := startPeer(...);
// t.peers[id] = p, under t.mu) publishes it: the Unlock ending the
// store's critical section comes before the Lock under which a reader
// finds the entry, so the filler's writes before the store are ordered
// before everything the reader then does with it, with or without a
// lock. The object reached other goroutines before (the ones it
// started), so it is not "not published yet"; the rule covers only the
// reader that reached it through the field, by loads, lookups, range
// and the calls it passes it to, and only writes before the store in
// the filler's own goroutine. A write after the store races with the
// reader as before.
//
// # A state left for good
//
// state-left: a field every store of which holds one mutex and writes
// a constant other than its first value (or, from nil, a value never
// nil) leaves that value for good: a critical section that read the
// first value came before any other that found the field away from it,
// and what it did happens before what that goroutine does after.
//
// A supervisor whose Add fills its queue directly while its state is
// idle, holding the mutex (if s.state == idle { s.queue = append(...)
// }), and goes through Serve's loop after, and whose Serve stores
// running under the mutex before it reads the queue: the mutex orders
// its critical sections, and since no store gives the state idle back
// (the constructor's, into the object it makes, aside), a section that
// found it idle came before Serve's store. Its accesses, made holding
// the mutex in that section (no Unlock between the test and them),
// happen before what Serve does after the store. A bool flag works the
// same way (if !b.started, with Start storing true), and so does a
// field whose first value is nil and whose every store is of a value
// never nil (make, new, a composite literal's address, a function, the
// context and cancel function of context.WithCancel and its kin): a
// lazy initialization, t.init() making t.dead under t.mu when it is
// nil, called before every read. The section may be the callers': a
// helper that locks nothing but that every call holds the mutex around
// (srv.init(), "called with the mutex held", setting UDPSize when it is
// 0), two calls up at most, where the helper releases no lock and no
// importer can call it (unexported, never taken as a value). The other side only has to have gone
// through a section at whose end the field was away from its first
// value, on every path to its access or to a call on its chain (a must
// analysis of the function: a store that leaves the value, a test
// under the mutex that finds it away, or a call of a function that
// returns only so, as init does); the section that found the first
// value came before that one. The mutex is compared by its field, so
// that a deferred literal's Lock on the receiver it captures is the
// method's mutex. A state that comes back (Stop storing idle again), a
// read that never went through such a section (Peek, which skips
// init), or an access made after the section let the mutex go, is not
// ordered so. The field's stores are the package's: a lazy
// initialization in another package's type (gopkg.in/tomb.v1's) is not
// known.
//
// # A state claimed for a run
//
// claimed-state: a goroutine that, holding a mutex, finds a state field
// outside a set of values and stores one of them holds a claim until
// the store it defers takes the field out of the set: two goroutines
// never hold claims on one field at once.
//
// Serve that panics or returns an error when called while it runs (if
// s.state == serving || s.state == paused { panic(...) }; s.state =
// serving, holding s.mu, with a deferred literal or method storing done
// as it returns) excludes a second Serve: every store of the field
// holds the mutex and writes a constant, those that write a value
// outside the set (done) are only ever deferred, each by a function
// that makes such a claim and after its claim (a release deferred
// before the test would run on the path that failed to claim too, and
// end another goroutine's claim), and the test and the store are one
// critical section. While one goroutine holds the claim the field stays in the
// set (its own loop may move it from serving to paused), so another
// goroutine's claim, which must find it outside, waits for the first
// one's release, as if a mutex guarded what each does: its accesses
// after the claim's store (which dominates them, or a call on their
// chain, in its function) and before the release. A claim released by
// a plain store, which may come before an access, or a state set back
// outside the set by a method that claims nothing (Stop), excludes
// nothing. Like a flag that records whether a loop runs, the claim is
// known by its field and its mutex's, not by the object: the analysis
// takes two supervisors' claims for one.
//
// # Double buffers
//
// double-buffer: two buffers swapped under both locks never hold one
// array at one time.
//
// Two slice fields of one type, one filled while the other is drained,
// swapped holding the locks of both sides (Observe appends to s.hotBuf
// holding bufMtx; the flush reads s.coldBuf holding mtx; s.hotBuf,
// s.coldBuf = s.coldBuf, s.hotBuf runs holding both), never hold one
// array at one time: every store to them makes a new slice in a
// literal, reslices or appends to the field's own value, or is half of
// such a swap. An access that loads its field and reaches the array
// holding, all along, a lock that every swap on those objects holds
// sees its field unchanged; two accesses through the two fields then
// meet one array only across a swap, ordered with each by a lock. The
// fields must be unexported, and their addresses used only to load and
// store.
//
// # Values handed over on a channel
//
// handover: a value sent on a channel hands over the objects it
// carries: the sender's writes happen before the receiver's accesses.
//
// A value sent on a channel hands over the objects it carries (those it
// points to, through a few pointers): what the sender wrote to them
// before the send is ordered before what a receiver, or a goroutine the
// receiver passes them on to, does after its receive, whichever send
// the receive got. A send on a channel that may be one of many (w.ch of
// each watcher) hands over to a receive from any of them, and a value
// sent carries what each of its fields points to (a struct sent by
// value). The fresh objects a worker builds and sends, one after the
// other, are each published by their own send, and so are the jobs a
// worker loop receives, fills and sends on (for j := range in { j.n =
// 1; out <- j }): each iteration writes the job its own receive gave. A
// send case of a select, when it is the select's only send, hands over
// as a send does: when it is not taken, nothing is sent.
//
// # Futures
//
// future: a leader fills an object and closes its channel; a joiner
// that waited on that object's channel reads it after.
//
// A leader fills an object and closes the channel in one of its fields
// (close(cy.ready)); a joiner that found the object waits on that
// field's channel and reads the object through the same value
// (<-cy.ready; cy.mfs). The joiner's receive names the channels of
// every leader, but a joiner that reads this object waited on this
// object's channel; when that channel is only ever closed, and only by
// the leader after its write, the close happens before the read.
// Leaders and joiners may run the same code: a leader's close on the
// value it wrote through, following the write on every path, is the one
// close of that channel (a second panics), and a goroutine that closed
// its value's channel itself led that object. A read in a closure or
// callee given the value (the release function that releaseFunc(cy)
// returns) waited where the value came in: at each place the closure is
// made, or each call of the unexported function.
//
// # Appends past the length
//
// append-past-len: an append under a mutex writes past the length of
// every header taken from the field under that mutex, whose elements a
// reader reads.
//
// s.f = append(s.f, x) holding s.mu writes the element at index
// len(s.f) of the backing array, or a new array: never an element below
// the length of the header it loaded. A reader that took the header
// under the same mutex (hooks := s.hooks; or a method returning s.hooks
// while holding it) and reads its elements after Unlock reads below
// that length, and the field only grows: the two touch different
// elements. It holds while the field is never cut shorter with its
// array kept (s.f = s.f[:0] lets the next append overwrite what a
// snapshot still reads): the field is unexported, every store into it
// is an append to itself, nil or a new slice, and its address goes
// nowhere else. The header is taken holding the mutex where a Lock
// dominates the load with no Unlock between them: in an event loop
// (for { select { case <-events: mu.Lock(); hs := s.hooks; mu.Unlock()
// ... } }) the Unlock of one round reaches the next round's load only
// through its Lock; and the receiver a function literal captures,
// which go/ssa keeps in a variable of its own and loads at each use, is
// one value at the Lock and at the load.
//
// # WaitGroup.Done per item
//
// done-per-item: a worker's WaitGroup.Done after each item orders the
// item's work before Wait returns.
//
// A worker loop that calls wg.Done once per item orders each item's
// work before Wait returns: an access followed, on every path of its
// iteration to the end of its function, by a Done on the group (in the
// function that, along the access's chain of calls, holds the loop) is
// ordered by the edge from the trace's last Done on the group, though
// the next iteration runs after that Done.
//
// # A flag that records whether a loop runs
//
// running-flag: Start sets c.running and starts go c.run() holding c.mu;
// Stop, holding c.mu, sends on the unbuffered c.stop, which run receives
// and returns, then clears c.running. An access that runs only where
// c.running reads false, holding c.mu (the access itself, or a call on
// its chain: Schedule's append, Entries' snapshot), runs before the loop
// starts (its Unlock comes before Start's Lock, before the go statement)
// or after it stopped (what the loop did before it received the stop
// comes before the send completes, before the store of false): it is
// ordered with the loop's accesses made before the loop receives the
// stop. It takes every store of the flag to hold the mutex (a composite
// literal that makes the object aside), the loop to be started by the go
// statement right after a store of true, and every store of false to
// follow a send on an unbuffered channel the loop's function receives
// from. Package runflag finds such flags, for blocking too.
//
// # One element per goroutine
//
// own-element: goroutines of one go statement in a loop each writing
// the element at their own index touch different memory.
//
// Goroutines that one go statement starts in a loop, each writing the
// element of a slice or array at its own loop index, do not race:
//
//	results := make([]int, n)
//	for i := range n {
//		go func() { results[i] = f(i) }() // or go func(i int) {...}(i)
//	}
//
// The index must be the loop's counter (stepped by a constant, one way),
// given to the goroutine as an argument or as the per-iteration variable
// it captures and only reads, and indexed by the goroutine's own function
// (which must not run again inside the goroutine), or the goroutine must
// be given a pointer to the element (go f(&s[i]), go s[i].run()) that its
// function uses unchanged. The access may be in a helper the goroutine's
// function hands the element on to (go func(id int) { work(&s[id]) }(i),
// work writing r.n), up to three calls down, each helper called at one
// place only and selecting in its parameter; the go statement must run at most once per
// count (no inner or outer loop around it that restarts the count), and
// the slice must be one that the function holding the go statement
// allocates once per call, outside loops, and hands on unchanged (a
// variable stored once before the go statement, besides its zero value
// and what the function stores back as it returns it: a named result,
// chans = make(...); ...; return chans). A constant index, a shared or computed index, a
// slice the function was given, or append are reported as before.
//
// # Dead code
//
// dead-code: code behind a branch a constant decides the other way
// never runs.
//
// An access behind a branch that a constant decides the other way runs
// in no execution: a comparison of constants, of a local variable read
// where it is declared (still its zero value), or of a captured
// variable that every store sets to the same constant before anything
// reads it ("z := 1; go func() { if z == 2 { x = 2 } }()"). In one
// goroutine, so is code behind a branch on a boolean parameter (or a
// parameter a function literal captures) that every call the goroutine
// makes of it fixes the other way: remove(k, false) never runs the
// branch of "if lock { ... }", and View's managed(false) never runs the
// deferred "if writable { tx.Commit() }" (see package shb).
//
// # Evidence of sharing
//
// The pointer analysis gives one abstract object for all the objects
// made at one place in one context, so two goroutines that each work on
// their own connection, buffer or request may seem to share one. A pair
// is reported only where the code shows that the memory is meant to be
// shared, or that the sharing is the program's own and not the
// analysis's (rule no-sharing-evidence): one access is atomic and the
// other not; one holds a lock and the other none, or one holds none while
// other accesses to the location are locked or atomic (inconsistent
// locking, as RacerD and checklocks infer it: a mutex that may guard the
// location, of its object, of an object that holds its object directly,
// or a package-level one; a loader's own mutex, held around a write to
// the table of the database it holds, two pointers away, guards the
// loader, and shows nothing of how the table is shared), or neither holds one and
// one is a write that its function leaves bare while it locks a mutex of
// the same object or applies an atomic to another of its fields (a
// function that synchronizes on an object runs at once with others on
// it: Balance's default ChunkSize beside atomic.AddUint32(&rr.counter,
// 1), Record's stamp after Unlock), where one side is a call
// of the package's API (the concurrent methods, which its importers may
// call on one object at once: between two goroutines of the program,
// locking shows that the field is shared, not that the two reach one
// object, which the program must show as below); the memory is one object
// of the program, which no merging made: a package-level variable, an
// object that main, a package's initialization or a test makes once
// (outside a loop), an object that a package-level variable holds and
// that only code that runs once makes (var db = newChannelMap(): an
// unexported function that the initializer, main or a test alone
// calls, once, and that nothing takes as a value), but not one
// that a constructor other code calls too made (a client a test keeps
// in a variable stands for every test's client, which the analysis
// merged with it: on the bench, 31 of 32 such reports were false), nor
// one another package's function made, which stands for every object
// that function makes there (every request http.NewRequest builds for
// a client's calls); a local variable that a function
// literal takes to another goroutine (one goroutine runs the literal and
// not the function that declares the variable; a method value,
// serf.NumNodes handed to a queue, captures no variable: it binds its
// receiver as a call passes an argument, and what the receiver points
// to is handed along like one); the go statement that
// started one goroutine passes it the object (an argument, a variable or
// pointer the function literal captures, or what they point to) and the
// other access is in the goroutine that ran the statement, or in another
// goroutine it started by a statement that passed the object too (two
// literals capturing one variable, a loop's), unless each run of the
// statement hands over what that run made: the function holding the
// statement makes the object, or calls the constructor that does,
// before it on every path and again on every path back to it, so each
// goroutine gets its own (a connection per iteration, made by newConn
// in the loop body), and the starter's access either comes after the
// statement in the same run or is not on the goroutine's object (a
// second call's filling of its new object, before its go statement;
// only the starter's executions that hold the pair's locks count, the
// same write reached under a lock both sides hold being none of the
// pair's; the same holds for a goroutine the handed one starts and
// hands the object on to: a helper called in a test's loop that makes
// a set and starts a goroutine that starts the set's watcher gives each
// call's watcher that call's set); an object a goroutine sends on a
// channel and goes on using after the send, in the function that sends
// it or in one that calls, before the use, the function that sends it
// (two calls down: a hook stored in the object, s.onEvict(0), whose
// body sends it); a map written on both
// sides; a channel closed on one side and closed or sent on by the
// other; a field of a type whose documentation says it is safe for
// concurrent use. A lock here is a mutex: the Once of a Do callback is
// none (Do orders its function's writes before each return of Do, and
// excludes no reader that calls no Do), so a write inside Do is no
// evidence by itself. The others are possible data races
// (race/possible-race), reported with the flag -all (-race.all under go
// vet). In a package the pointer analysis degraded (one context for all
// goroutines, which it says on standard error), only what holds without
// contexts counts (atomics, locking, objects made once or held by a
// package-level variable, documented types), and a line says how many
// candidates were withheld. A pair between a library's presumed callers
// counts there only on what they share: the receiver of two concurrent
// methods and what its fields reach, or what a package-level variable
// holds. What a method or a constructor makes is one object for every
// caller once contexts are merged, and a test's objects are not the
// callers' at all. An object a test makes once counts there only where
// both sides are that test's own code (its function, its literals, and
// the goroutines their go statements start): a library function every
// test calls runs for all of them at once, and a goroutine it starts may
// be found with no known test above it.
//
// # Known limits
//
// A goroutine that took objects out of a field is taken to be their only
// user until it puts them back: one that reaches them under the mutex by
// another way (a second index of the same watchers) is not checked
// against it.
//
// A helper given a fresh object by one caller and a shared one by
// another is checked as usual at every call (etcd's initAndRecover, from
// newLessor and from Recover under le.mu): the pointer analysis does not
// tell its callers apart.
package ownership
