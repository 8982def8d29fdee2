// Package pointer defines an Analyzer that computes, for a package, what
// each pointer may point to and which memory locations several
// goroutines share: O2's origin-sensitive pointer analysis (OPA) and
// origin-sharing analysis (OSA), over go/ssa.
//
// The analysis is inclusion-based (Andersen) and field-sensitive. Every
// value and every abstract object is flattened into a block of nodes, one
// per leaf of its type (struct fields, one element for all elements of an
// array or slice, a map's key then value, a channel's element), so &x.f
// is a node of its own and two fields never alias. Points-to sets hold
// those leaves: the locations of memory. Calls through interfaces and
// function values are resolved as the sets grow.
//
// It filters by type, as Andersen analyses do: a pointer of type *T
// points only to the start of a T (short of unsafe), so a load, a store
// or a field address through it acts on the locations of its set that
// begin a T (a struct and its first field begin at one leaf; a change of
// name, (*U)(p), is the same type) and passes over the others, which
// only the analysis's approximations put there: owners merged in one
// context, a summary's objects applied by position. The locations stay
// in the pointer's own set; Stats.Filtered counts those passed over.
// Objects whose types are not known (a summary's opaque objects, leaves
// past the layout's depth, unsafe.Pointer leaves) admit every pointer.
//
// Contexts are origins (O2): a function is analyzed once per goroutine
// that runs it, and what it allocates is a distinct object per origin.
// Each go statement (and each library call that starts goroutines:
// WaitGroup.Go, errgroup, AfterFunc, HTTP handlers, t.Run) starts a new
// origin whose parameters receive the spawner's arguments; a pointer it
// returns (AfterFunc's *time.Timer) points to an unknown object of the
// site's, which its Reset and Stop name. A site that
// may start many goroutines gives two origins, so that a goroutine is
// seen to run concurrently with itself. Factories (small functions that
// return what they allocate) are further distinguished by up to two call
// sites, so that two calls of a constructor give two objects, and a
// chain of more than two factory calls also by the call that entered it
// (factory-chain): Must(opts) calling New(opts) calling newCache(opts),
// which allocates, has the same two innermost calls for every caller,
// and without the outermost every cache a test or main makes would be
// one cache, holding every caller's hooks. A function
// that returns what another package's function makes at each call, by
// its summary, is a factory too when that object carries a mutex (a
// Handler() returning http.NewServeMux() with its handlers registered):
// an object meant to be shared, whose two makings are worth telling
// apart; other imported results cost more contexts than they separate.
// A function that returns a struct value holding what it made for it
// (b := Bucket{tx: tx}; b.nodes = make(...); return b) is a factory as
// one returning a pointer is. So is, at a call on an object its caller
// just made (t := &Tx{}; t.init(db)), a method that stores what it
// makes into its receiver's fields (an initializer): part of the
// making, analyzed once it would give every Tx of every caller one Meta
// and one root bucket, a read-only transaction's those of a writable
// one.
// So is a setter, a method that only stores a parameter into a field of
// its receiver (under the receiver's mutex): analyzed once, it would
// give every receiver what every caller passes (each lessor every
// test's checkpointer). An appender (*errs = append(*errs, err)) is a
// setter, and so is a method that calls a setter on its receiver or a
// field of it (SafeMultiError.Append locking s.mu around
// s.errs.Append(err)): the arrays the append makes are then told apart
// by the outer call site, not one for every MultiError of the package.
// A call of a function that returns one of its parameters (a builder's
// method returning its receiver so that calls chain, o.AddBroker(url)
// returning o; a filler returning the object it was given with an
// error, hostInfoFromMap(row, &HostInfo{}) returning host, err) returns
// its own argument: bound to the function's result
// as other calls are, it would return what every call in the context
// passes, and one test's options chained through AddBroker would be the
// options a client copied and reads on its goroutines (passedParam).
// Past the origin budget (originBudget), a goroutine gets the origin it
// already has, or shares the overflow origin with the others found
// there.
//
// A package too large for all that (past nodeLimit nodes, or points-to
// sets of more than ptsLimit members in all) is analyzed again with few
// origins (fewOrigins), and if it is still too large, context
// insensitive, with twice the room in nodes and in points-to sets: each
// function once for every goroutine that runs it, its accesses
// attributed to the origins that reach it by calls (a root origin from
// each of its roots: every test, every concurrent method), and each
// goroutine's parent the first origin found to reach its go statement.
// That grows with the package and not with its goroutines, so a package
// is degraded, with one line on standard error that says so and which
// bound it hit (Result.Degraded), rather than skipped; objects are then
// not told apart by the goroutine that makes them, and the race
// analysis reports only the pairs whose evidence of sharing holds
// without origins (go-redis v9.21.0's root package: 26.6 million
// members context insensitive, past the first two at 20 million).
//
// A goroutine is also told apart, as O2 tells threads apart, by where it
// comes from: a go statement in a factory starts an origin per context
// of the factory (Origin.Sites: each newLessor call's runLoop runs on
// that call's lessor), and a go statement on a pointer starts an origin
// per object the pointer may point to (Origin.Recv: go p.handle(), or
// the first pointer a function literal captures, go func() {
// defer s.wg.Done(); f() }()), whose receiver points to that object
// alone. Past maxSpawnContexts origins of one statement, or for objects
// not made in the package, the rest share one, as every call did
// before. Origins told apart only so are twins (Origin.Twin): what
// their functions allocate is still one object for all of them, so the
// race analysis takes them for one goroutine.
//
// A helper that starts the function it is given (go f(), or raft's
// goFunc: go func() { defer wg.Done(); f() }()) is a factory too, of
// goroutines: each call site gets its context, and its go statement an
// origin per call, running the function that call passes. Such origins
// are no twins where the calls pass different functions (sameCode): the
// leader loop and the replicators that goFunc starts are different
// goroutines, though they come from one go statement; nor is the
// replicator that the leader loop starts through goFunc taken for the
// leader loop itself, as a goroutine that starts its own go statement
// again is. What a function value hands to the goroutine is what its
// closure captures, one level down (ownership's evidence).
//
// An adapter that wraps the function it is given in an object it makes
// (transactFunc(run) passing &funcTx{run} on, funcTx's run method
// calling it) is a factory too: analyzed once, every wrapper would hold
// every function any caller passes, and the commit a caller runs under
// its lock would be run by another caller's unlocked flush as well
// (isWrapper). PointsToAlong follows a chain's values through the
// variable go/ssa gives a captured parameter and from the receiver of an
// interface call back to the pointer the interface value was made of.
//
// A constructor may start a goroutine only where its configuration asks
// for one (if config.CleanWindow > 0 { go ... }; if !cfg.Quiet { go ...
// }). Analyzed per call site, its go statement starts no origin in a
// context whose call passes a composite literal (by value or by
// pointer, directly or through one call that passes its parameter on)
// whose fields decide the branches around it the other way, a field the
// literal leaves out being its zero value (spawnDead); a copy that a
// "with" method returns (Config{...}.WithEvict(f), a method of a struct
// value that sets other fields of its receiver's copy and returns it)
// holds what the literal it was called on holds in the fields it
// leaves alone, as does the zero value Config{}. A variable that a
// function literal captures and that holds the one fresh object stored
// in it is fresh too, so a constructor whose goroutine captures what it
// returns is a factory.
//
// Loop bodies are analyzed as two iterations, tags 0 and 1: what an
// iteration allocates (a per-iteration loop variable since Go 1.22, a
// value made in the body) reaches the goroutine that the same iteration
// starts, and not the other's, while values carried around the loop or
// out of it are the union of both. Under Go 1.21 semantics a loop
// variable is one variable outside the body, and is shared.
//
// The origins are the package's roots (main, init, tests, and in library
// mode the exported methods of types that carry a mutex or atomics, use
// sync/atomic or are documented as safe for concurrent use, twice each,
// on one shared receiver) and what they start. The shared receiver
// stands for a caller's object and what it reaches: each of its pointer
// fields to one of the package's struct types, or to a sync type,
// points to an object of its own, three fields deep, so that two
// methods going through r.sharding meet on one ringSharding, and
// r.tickMu and b.tickMu are two mutexes; each of its channel fields
// holds a channel of its own, so that Close's close(s.doneCh) and
// Accept's <-s.doneCh are one channel's close and receive, which order
// what comes before the one and after the other (shb takes each call
// of a concurrent method as a run of its own, ordered with no other:
// a caller may call them in any order). OSA then
// collects every memory access (loads, stores, map and slice operations:
// append writes the destination's elements (a full slice's,
// s[:len(s):len(s)] or slices.Clip(s), it only reads, copying them
// into a new array) and reads
// those of t in append(s, t...), copy likewise, string(b) reads b's; a
// call whose callee's body is out of view (an interface method, another
// package's function: a system call underneath) accesses its []byte as
// the io contracts say, Read(p), ReadAt(p, off), io.ReadFull(r, p)
// writing p's elements and Write(p), WriteAt(p, off) reading them
// (syncapi.IOBuffer); close writes a
// channel and a send reads it, as a select's send case does; sync/atomic calls, and a mutex's methods,
// which change its state atomically) per origin; a location only
// accessed atomically is not shared, as atomics race with nothing but
// plain accesses. []byte(s)
// and []rune(s) make a new array.
//
// An append only reads a filled array too: one whose every slice,
// wherever code other than its filling can hold it, has length equal to
// capacity. Such are arrays made full (make([]T, n), array variables and
// literals) and arrays preallocated and filled before they leave their
// function, make([]T, 0, len(x)) followed by one append per element of a
// range loop over x (the capacity may be a sum: len(a)+len(b) filled by
// a loop over a and append(s, b...)), into a local variable, or into a
// variable or field of an object the function made and has not let go
// of. A slice expression with a high bound over the array anywhere in
// the package's code (s[:k]) disqualifies it; the code of other
// packages is not seen. (A load of a struct whose every use
// selects fields reads those fields only: go/ssa loads all of s.r to
// call a method promoted through r's embedded interface.) A location is
// origin-shared when two
// origins access it and one writes. Shared locations are where races can
// be; ordering by happens-before and locks is for later passes.
//
// # Summaries across packages
//
// SummaryAnalyzer summarizes the exported functions and methods of every
// package, and exports the summaries as one package fact. A summary is a
// small points-to graph: objects for what the arguments point to (and,
// one level down, what those point to), objects for what the call
// allocates, the edges between their leaves that the call may create,
// and what the results point to. It is computed from one solution of the
// whole package with an object of its own per argument of each function,
// and the calls the package makes to its own imports apply their
// summaries in turn, so summaries are closed over callees in every
// package. Analyzer applies the summaries of the direct imports where a
// package calls them: the arguments' targets stand for the argument
// objects, each call site allocates its own objects (two calls of an
// imported constructor give two objects), and the edges become stores.
// Only the direct imports' facts are used, in every driver, because they
// are all that go vet shows.
//
// The solution of the whole package is bounded like the analysis (nodes
// and points-to sets); past a bound it is made again with twice the
// room, and past that it degrades rather than stops, saying so in one
// line ("origo: ptsummary degraded package ..."): each function that
// importers may call is solved apart, with the literals inside it, and
// the variables as the package's initialization leaves them, so what one
// function stores through a variable is not seen in another's summary;
// a function whose own solution is still past the bound has none.
//
// sync.NewCond(l) returns a Cond of its own per call site and context,
// whose L is l (genNewCond): sync's code is out of view, and c.L.Lock()
// locks the mutex the Cond was made with. An interface value that holds
// a pointer stands, for the locks and channels the happens-before pass
// names (Result.UnboxedIn), for what that pointer points to: c.L.Lock()
// and mu.Lock() take one mutex.
//
// A call of another package's function that keeps a function argument
// for its own goroutines to call (effects.Result.Async: a subscription's
// message handler, a closed handler) starts an origin running that
// argument (facts.SpawnCallback), concurrently with the caller, instead
// of calling it in the caller's origin (genCallbacks).
//
// Limits: a function without a body and without a summary (unexported,
// generic, in a package that is not a direct import, assembly, cgo) is
// opaque: its results point to fresh unknown objects and the function
// values given to it may be called, with unknown arguments. The memory
// an imported function accesses comes from its effect (package effects),
// placed at the static calls of it, and a go statement of an imported
// function with an effect starts an origin that runs it. Summaries do
// not yet carry calls of
// function arguments (callbacks, range-over-func iterators), bound method
// values made in another package, or stores into unexported variables
// that another function reads back (testdata/src/xpkg/knownfn pins them).
// A box made in another package is known by its dynamic type's name: an
// assertion to any interface accepts it.
// unsafe.Pointer conversions keep the pointer and distrust its type;
// reflection is not modeled. Stats counts each of these.
package pointer
