// Package blocking defines an Analyzer that reports goroutines that
// block forever on a channel operation: the goroutine leaks, and with
// it what it holds.
//
// # Analyzer blocking
//
// blocking: report goroutines that block forever on channels
//
// The blocking analyzer reports a channel operation, WaitGroup.Wait or
// Cond.Wait that no goroutine of the program can ever complete. Half of
// the concurrency bugs found in Go programs block rather than race, more
// of them on channels than on mutexes (Tu et al., ASPLOS 2019). A
// goroutine stuck on a channel is never collected: each leaked goroutine
// keeps its stack and what it references, and a program that leaks one
// per request runs out of memory.
//
// # What it reports
//
// WRONG: when ctx is done first, the goroutine's send never completes.
//
//	func fetch(ctx context.Context) (int, error) {
//		ch := make(chan int)
//		go func() { ch <- compute() }()
//		select {
//		case v := <-ch:
//			return v, nil
//		case <-ctx.Done():
//			return 0, ctx.Err()
//		}
//	}
//
// RIGHT: a buffer of one lets the goroutine finish (make(chan int, 1)),
// or the goroutine selects on ctx.Done() too.
//
// Every report says "blocks forever" and names the goroutine, the
// channel and where it was made, and why nothing completes the
// operation. The analyzer reports:
//
//   - a send or receive on a nil channel, outside a select: it blocks
//     forever;
//   - select {} in the function a go statement starts: the goroutine
//     blocks forever;
//   - a send on an unbuffered channel that no other goroutine receives
//     from, a receive from a channel that nothing sends on or closes, or
//     a select without default none of whose cases can ever proceed so;
//   - a send made before its goroutine starts any goroutine that
//     receives from the channel, with the buffer full: every receive of
//     the channel is in a goroutine started after the send, or later in
//     the sender ("ch <- x; go consume(ch)" unbuffered, or a second send
//     on a buffer of one before the consumer starts);
//   - a range over a channel that the function making it never lets
//     anyone close: after the last send, the loop waits forever;
//   - a goroutine whose result send can outlive its receiver: a function
//     makes an unbuffered channel, starts a goroutine that sends on it
//     once (a closure, a function of the package, or one of another
//     package whose effect shows it only sends on it: the report is then
//     at the go statement), and may return without receiving (an early return, a select
//     on ctx.Done() or a timeout, an error path), or starts several such
//     goroutines in a loop and receives once, or starts goroutines one of
//     which may send twice (an error, then the result) and receives once
//     per goroutine. A channel made in each iteration of the loop that
//     starts its goroutine is left the same way when the iteration moves
//     on without receiving (a stop case of a select). The sends left over
//     block forever;
//   - a receive from a channel whose one sender, a goroutine its
//     function starts once, may return without sending (an early return
//     on an error) and without a word on any other channel on the way
//     (no send, close, select, WaitGroup or Cond call, no call that may
//     make one): nothing else sends on or closes the channel, so the
//     receive waits forever. A path through a failed test's report does
//     not count, nor does a panic;
//   - a receive from a channel that only its own goroutine sends on or
//     closes, later (close(done) deferred by a loop that, through a
//     callback, ends up waiting for done): it waits for itself;
//   - a send on an unbuffered channel whose every receiver is a
//     goroutine that receives in a loop it may leave and return (in its
//     own function, or in one it calls and then receives no more): on a
//     receive from another channel (case <-stop: return) that the send
//     need not come before (that channel's senders are not later in the
//     sender's own function, in goroutines it starts after the send, or
//     ordered after what the sender does once past the send: its Done
//     before the Wait that precedes the stop, its semaphore token given
//     back before the loop that takes every token; nor in another test's
//     run, for a channel that test made), or on a value it received, when the channel gets other
//     sends (a second request after the loop took the one that ends it).
//     A stop that only the loop itself gives, after a receive that can
//     only be this send's, does not count, nor does a way out taken
//     because the channel was closed (v, ok := <-ch; range: its other
//     ways out, a return in the body, do). Not for a
//     channel made in a loop (each iteration's own), nor for sends of
//     the library's API, whose callers may be the ones that must not
//     send after Stop. On a channel with a constant buffer, only a send
//     in a loop that runs a constant number of times, more than the
//     buffer holds (then a receiver that receives once and returns
//     leaves it blocked too);
//   - a WaitGroup.Wait whose counter Add raises but nothing lowers (no
//     Done, no Add of a negative or unknown count, no WaitGroup.Go);
//   - a WaitGroup.Wait on a WaitGroup of the function's own (used by its
//     Add, Done and Wait calls and the goroutines it starts, nothing
//     else) when one of those goroutines may return without its Done
//     (an early return before a Done that is not deferred, saying
//     nothing on a channel on the way), or when constant Adds outside
//     loops count more than the goroutines started, each calling Done
//     once on every path (wg.Add(3) for two go statements). A goroutine
//     may run another package's function given &wg, whose effect says
//     whether a path of it returns without Done;
//   - a WaitGroup.Wait in the loop that starts the goroutines it waits
//     for, when an Add before the loop counted them all (wg.Add(len(x));
//     for range x { go work(); wg.Wait() }): the first Wait waits for
//     goroutines only later iterations would start;
//   - a Cond.Wait that nothing signals (no Signal or Broadcast on it);
//   - a receive from ctx.Done() where ctx comes from context.WithCancel
//     over context.Background() or TODO() (directly, or through the
//     parameters every call passes them in) and nothing calls its
//     cancel function: it is dropped, or kept in a struct field that no
//     code loads, but code that runs only after the receive itself (a
//     Rollback that is never called). Only in a main package, whose
//     program is whole: an importer may call a library's Rollback;
//   - a WaitGroup.Wait and a channel waiting for each other: the
//     goroutines given the function's unbuffered channel call Done only
//     after their send on it, and the function receives from it only
//     after Wait (wg.Wait(); close(results); for r := range results).
//     Receive while a goroutine waits and closes instead.
//
// A goroutine blocked forever leaves others stuck, and each is shown
// where it waits. From the places reported here, and those the deadlock
// analyzer reports (a double lock, an inversion, an operation blocked
// while holding a lock), the analyzer follows, a few steps deep:
//
//   - a receive whose every sender and closer, a range over a channel
//     whose every closer, and a send on an unbuffered channel whose
//     every receiver is another goroutine that may block forever before
//     it gets there (done is closed after a call that deadlocks);
//   - a WaitGroup.Wait whose every Done, and a Cond.Wait whose every
//     Signal or Broadcast, comes after such a place;
//   - a Lock of a mutex that another goroutine holds where it may block
//     forever, unless the Lock happens before that goroutine takes the
//     mutex (Cond.Wait releases its own).
//
// A place that blocks only while another goroutine is somewhere (the
// other Lock of an inversion) counts when that other place need not wait
// for the stuck operation, and when it is not that goroutine's own
// partner of it. Goroutines started after their starter blocks, and
// operations after the goroutine's own stuck place, are left out: they
// never run.
//
// One cause is one report: such an operation is a related position of
// the report of the place it waits on (or of that place's own cause),
// its message beginning "blocks forever as a consequence:", and a
// report of its own only when that place is another analyzer's report
// (a deadlock) or silenced.
//
// A report's related positions (indented beneath it in origo's text
// output, relatedLocations in SARIF) are the places its message names,
// for an editor to go to: the channel's make ("ch made here"), the go
// statement that starts the blocked goroutine, the early return that
// leaves a send without its receive, the first of two sends, the one
// receive of goroutines started in a loop.
//
// # What stays silent
//
// Only channels (WaitGroups, Conds) that the package makes and that no
// package variable reaches, and that are not handed to code the
// analysis cannot see, are judged by their partners: another package,
// or any code holding a global channel, may still send. A function of
// another package that uses a channel, WaitGroup or Cond parameter for
// nothing but the operations its effect summary lists (it stores it
// nowhere, starts no goroutine with it, hands it to no code without a
// summary: facts.FuncEffects.Contained) is seen through: its sends,
// receives, closes, Dones, Signals and Waits are partners and waits
// like the package's own (go blklib.Send(ch, 1); for v := range ch {}
// waits forever when Send never closes ch).
//
// The partners are the operations of every goroutine of the package's
// programs (main, init, tests; see package shb), including those that
// imported functions perform through their effect summaries, and every
// operation in the package's code, wherever it runs: a method that only
// another package calls (a Collector's Collect, an RPC handler)
// completes operations too. Partners are found by the place that makes
// the channel, not by the pointer analysis's finer objects, which a call
// resolved to too many callees may mislead. An operation on a channel
// the analysis cannot name (but one that another package's function
// returns, ctx.Done() or time.After(d): that package's own) counts for
// every channel of its element type that leaves its function, or, when it loads the channel from a struct
// field (p.c, or r.get() returning b.c), for those the package stores in
// that field. A Done or Signal on a WaitGroup or Cond the analysis cannot
// name likewise counts for every Wait, or, when it reaches the object
// through a struct field (s.wg, p.cond), for the Waits on that field's
// and on objects reached another way.
//
// select {} outside the function a go statement starts is left alone: a
// caller may mean to serve until the program is killed; so is its other
// spelling, <-make(chan struct{}), a receive from a channel made for it
// alone that nothing else can reach. For a result
// send that can outlive its receiver, a path of the receiving function
// that fails its test (t.Errorf, t.Fatal) is not counted: the test has
// already failed.
//
// Each candidate that stays silent is ruled out by one of these rules
// (see package rules), which -why names:
//
//   - partner: another goroutine's operation can complete it (a receive
//     for a send, a send or close for a receive, a Done for a
//     WaitGroup.Wait, a Signal or Broadcast for a Cond.Wait), in code
//     that runs, a method only another package calls included; that
//     goroutine is taken to get there;
//   - buffered: the send finds room in the channel's buffer;
//   - out-of-view: code the analysis does not see may complete it (the
//     channel, WaitGroup or Cond is reached from a package variable,
//     given to another package's code or to a function value, boxed in
//     an interface too, which that code may assert or reflect on
//     (reflect.ValueOf(ch).Recv(), whatever its summary shows), or made
//     by another package: ctx.Done(), time.After);
//   - every-path: what completes it is done on every path to a return
//     (the function receives its goroutine's result on every path; the
//     goroutine sends or calls Done on every path, or defers it);
//   - answered-otherwise: the goroutine answers another way first (it
//     closes or sends on another channel, calls Done or Signal) and
//     sends no result after it;
//   - other-case: the send is a case of a select with another way out
//     (<-ctx.Done(), a stop channel, a timer);
//   - panics: the path that would leave the partner waiting panics,
//     which ends the program;
//   - closed-send: the receiver leaves only once the channel is closed,
//     or a sender may close it: a send after that panics rather than
//     blocks;
//   - never-closed: the receiver's way out of its loop is the end of a
//     range over another channel (or v, ok := <-req; if !ok { return }),
//     and nothing closes that channel (it stays in the function that
//     makes it and its goroutines, or the package is a whole program,
//     and no close of it is in any goroutine's code, in code none
//     follows, or in code the analysis cannot name): the loop never
//     leaves, so the receiver is there for every send (for b := range
//     req { ack <- b; <-ackack } with req never closed takes every
//     ackack);
//   - counted: Add counts no more than the goroutines started before
//     the Wait call Done (wg.Add(1) in the loop that starts one); and a
//     receiving loop takes every send, whatever their order, where one
//     go statement starts the senders in a counting loop of n
//     iterations, each sending once on a channel its function made, and
//     a counting loop of that function that every path from the go
//     statement reaches receives in each of its m >= n iterations with
//     no other way out (for i := 0; i < 3; i++ { go func() { ch <- f()
//     }() }; for i := 0; i < 3; i++ { <-ch }); the counts need not be
//     constants where both loops count to one value made before them
//     (i < workers, twice), or where the receiving loop counts to a
//     counter that goes up by one in the go statement's own block (n++;
//     go f(), in a loop that may skip both);
//   - wait-unlocks: Cond.Wait releases its mutex while it waits, so a
//     goroutine stuck there does not hold it;
//   - library-callers: a library's importers decide the order of the
//     calls of its API and call what it leaves to them (a Stop, a
//     Rollback);
//   - handed-to-import: a function value given to another package's
//     function runs where that code runs it: a worker pool's Submit
//     keeps it for a goroutine of its own, so a receive in it does not
//     wait for what its caller does after the call (sync's functions,
//     Once.Do, run it there and then);
//   - running-flag: the send runs only where a bool field reads true
//     (if c.running { c.add <- e }), every store of true into it is
//     followed by the start of the function that receives (c.running =
//     true; go c.run()), and every store of false, holding the mutex the
//     send holds, follows the send that makes the loop leave (c.stop <-
//     struct{}{}; c.running = false): the receiver has started, or is
//     about to, and has not been told to stop;
//   - never-runs: the stop that would end the receiver's loop is given
//     only by code nothing in the (whole) program calls;
//   - failed-test: the path goes through a test's failure or skip;
//   - serve-forever: select {} (or <-make(chan T)) outside a goroutine's
//     own function;
//   - happens-before: the operation comes before the place where its
//     partner stops (the request before the Stop that ends the loop, the
//     worker's send before its Done that the stopper waits for, a send
//     before a t.Cleanup that stops the receiver), or what would block
//     its partner comes only after it;
//   - test-objects: each test makes its own channel;
//   - tests-in-sequence: the only stop of the receiving loop is in
//     another sequential test's run, which ends before the sender's
//     goroutine starts: it stops that test's receiver (a constructor
//     three calls deep makes one object of each test's);
//   - other-program, read-locks, ignored: as for the race and deadlock
//     analyzers;
//   - values: see Known limits.
//
// # Asking why
//
// The -why flag (origo why FILE:LINE; -blocking.why=FILE:LINE under go
// vet) explains, as diagnostics of category "why", every candidate
// operation at the line (or at every line, with all): what the analysis
// asked of it (does anything receive what it sends, does its receiver
// stay for the result, does every goroutine call Done) and either
// "reported" or the rule above that ruled it out, with the place that
// shows it (the partner found, the close, the Done, the stop that comes
// after). An operation no goroutine of the package's programs reaches is
// "not-traced"; a package the analysis stopped on is "budget".
//
// # Known limits
//
// Whether a partner runs depends on values the analysis does not follow
// (a loop that sends len(items) times, a sender that returns early on an
// error) and is taken to run: a loop that receives, or that starts the
// goroutines that send, runs as many times as its partners need
// (values). Channels in maps or slices of channels are
// one channel per allocation site. A channel kept in a struct field and
// used by several methods is judged only by its partners, not by the
// leaks above.
//
// # Report kinds
//
// Each report carries its kind as its category (the "category" of go vet
// -json and origo -json, the rule of a SARIF result; see package kinds):
// the operation that blocks forever, which its message begins with. Each
// kind covers every reason above for its operation, and the goroutines
// a stuck one leaves stuck.
//
// blocking/send: a channel send that no goroutine will ever receive: on
// a nil channel, on a channel nothing else receives from, before the
// receiver starts, or once the receiver has returned early (a select on
// ctx.Done() or a timeout, an error path), which leaks the sending
// goroutine. Give the channel a buffer of one per send that may be left
// over, or select on a done channel too.
//
// blocking/receive: a receive that nothing will ever complete: from a
// nil channel, a channel nothing sends on or closes, one whose only
// sender may return without sending, one only its own goroutine sends
// on later, or ctx.Done() of a context nothing cancels. Send or close on
// every path (defer the close), or cancel the context.
//
// blocking/range: a range over a channel that nothing closes, or whose
// closer may block forever first: after the last value the loop waits
// forever. Close the channel when the last sender is done.
//
// blocking/select: a select without default none of whose cases can
// ever proceed, or select {} in a goroutine: it blocks forever. Give it a
// case that can happen (a done channel), or let the goroutine return.
//
// blocking/waitgroup-wait: a WaitGroup.Wait whose counter never reaches
// zero: nothing calls Done, a goroutine may return without its Done,
// Add counts more goroutines than are started, Wait runs inside the loop
// that starts them, or the goroutines' Done waits on a channel that is
// read only after Wait. Defer the Done at the top of each goroutine, and
// Add what is started.
//
// blocking/cond-wait: a Cond.Wait that nothing signals (no Signal or
// Broadcast on it), or whose every Signal comes after a place where its
// goroutine may block forever.
//
// blocking/lock: a Lock of a mutex that another goroutine holds while
// it may block forever (a deadlock, an operation reported here): the
// Lock waits forever too.
//
// # Silencing a report
//
// Check the report first: find the channel's make, the operations the
// message names, and the partner you expected to complete it. When the
// report is one you accept (a goroutine parked on purpose for the
// program's lifetime), put a line comment
//
//	//origo:ignore blocking <reason>
//
// on the reported line, after the code:
//
//	<-c //origo:ignore blocking parks the goroutine for the test's lifetime
//
// The comment starts exactly "//origo:ignore " (no space after the
// slashes), the next word names the analyzers it silences (blocking, or a
// list: blocking,race), and the reason says why the report is acceptable.
// At the end of a line of code it silences the reports on that line;
// alone on its line, it silences the line under its block of comments,
// so the explanation can sit above the code. A malformed directive (no
// analyzer, no reason, a misspelling) silences nothing and is reported
// by the directive analyzer. Nothing is reported in a file marked
// "// Code generated ... DO NOT EDIT." unless the -generated flag is
// set.
package blocking
