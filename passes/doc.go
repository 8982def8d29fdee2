// Package passes is the pipeline under origo's analyzers: building
// blocks that report nothing and hand their work on as Results and
// facts, as x/tools' ctrlflow and buildssa do. This is the developers'
// map of it; each pass's own doc.go is its design.
//
// # How the passes fit together
//
// Every pass is a golang.org/x/tools/go/analysis analyzer; the drivers
// run them in Requires order, package by package, imports first.
// "a ──> b" reads "b requires a":
//
//	inspect ──> ctrlflow ──> buildir ──┬──> origins ───────────────────────────┐
//	(x/tools)   (x/tools)              ├──> pointer.SummaryAnalyzer ───────────┼──> pointer ──> shb ──┬──> ownership ──> race
//	                                   └──> lockset ──┬──> effects ────────────┘                ▲     ├──> deadlock ──> blocking
//	                                                  └─────────────────────────────────────────┘     └──> factdump
//
// origins requires lockset too (a library's methods entered with their
// receiver's mutex held are no roots of their own); guardedby requires
// buildir and lockset; directive requires the four
// analyzers whose //origo:ignore directives it checks (race, deadlock,
// blocking, guardedby).
// The diagram leaves out requirements that skip a level; the table has
// them all, as the code declares them (cmd/origo's TestPipelineRequires
// checks it):
//
//	| analyzer                  | requires                                                   | exports                               |
//	|---------------------------|------------------------------------------------------------|---------------------------------------|
//	| `ctrlflow` (x/tools)      | `inspect`                                                  | `noReturn` object facts (x/tools')    |
//	| `buildir`                 | `ctrlflow`                                                 | —                                     |
//	| `origins`                 | `buildir`, `lockset`                                       | `facts.OriginsTable` package fact     |
//	| `pointer.SummaryAnalyzer` | `buildir`                                                  | `facts.PointerSummaries` package fact |
//	| `lockset`                 | `buildir`                                                  | `facts.Locks` package fact            |
//	| `effects`                 | `buildir`, `lockset`                                       | `facts.Effects` package fact          |
//	| `pointer`                 | `buildir`, `origins`, `pointer.SummaryAnalyzer`, `effects` | —                                     |
//	| `shb`                     | `pointer`, `lockset`, `effects`                            | —                                     |
//	| `ownership`               | `buildir`, `lockset`, `origins`, `pointer`, `shb`          | —                                     |
//	| `race`                    | `pointer`, `shb`, `ownership`                              | —                                     |
//	| `deadlock`                | `buildir`, `lockset`, `pointer`, `shb`                     | —                                     |
//	| `blocking`                | `buildir`, `effects`, `lockset`, `pointer`, `shb`, `deadlock` | —                                  |
//	| `guardedby`               | `buildir`, `lockset`                                       | `facts.Guarded` object facts          |
//	| `directive`               | `race`, `deadlock`, `blocking`, `guardedby`                | —                                     |
//	| `factdump` (cmd/origo)    | `origins`, `pointer`, `pointer.SummaryAnalyzer`, `shb`     | —                                     |
//
// # What each Result holds
//
//   - ctrlflow: the control-flow graph of each function, and which
//     functions never return (its noReturn object facts), which buildir
//     hands to go/ssa.
//   - buildir (*buildir.IR): the package's SSA with generics
//     instantiated, and SrcFuncs, the functions and function literals of
//     its files in source order. No facts: a package's SSA never needs
//     its dependencies' SSA.
//   - origins (*origins.Result): the roots where programs begin (init,
//     main, tests, benchmarks, fuzz targets, and in a library the
//     exported methods of types that carry a mutex or atomics) and, per
//     function, the callee-closed summary of the goroutines a call may
//     start; exported in one facts.OriginsTable package fact, by
//     function, for the functions that start something.
//   - pointer.SummaryAnalyzer (*pointer.Summaries): the imports'
//     points-to summaries, by function, for pointer to apply at calls;
//     exports the package's own as one facts.PointerSummaries package
//     fact (a small points-to graph per exported function).
//   - lockset (*lockset.Result): the must-held lockset before every
//     instruction of every function (Before), and what a call does to
//     mutexes (Takes, Releases), for callees here and, through their
//     facts.Locks, in the direct imports. Mutexes, like all memory a
//     caller can name, are facts.Key access paths.
//   - effects (*effects.Result): what a call of a direct import's
//     function does to memory and synchronization (Imported: accesses
//     with the locks held at them, and channel, WaitGroup, Cond and Once
//     operations, in program order), for pointer and shb to place at the
//     call; exports the same for the package's exported functions,
//     closed over their callees in every package.
//   - pointer (*pointer.Result): the origins (one per root and per
//     goroutine, two for a site that may start many), points-to sets per
//     origin, resolved callees and spawned origins per call site, and
//     every memory access per origin (Accesses, Shared).
//   - shb (*shb.Result): the static happens-before graph: one trace of
//     numbered events per origin (accesses and synchronization
//     operations, with the interned lockset each holds), the
//     Go-memory-model edges between traces, and the late WaitGroup.Add
//     calls.
//   - ownership (*ownership.Result): nothing computed in its Run; its
//     Query (Result.NewQuery) answers, for race, whether the memory of
//     an access or of a pair is owned by one goroutine at a time (not
//     yet published, handed over on a channel, taken out under a lock,
//     one goroutine's own element, dead code), each verdict a rules.ID.
//   - race, blocking and guardedby report diagnostics; their Result
//     (*ignore.Silenced) lists the //origo:ignore directives that
//     silenced one of their reports. deadlock's (*deadlock.Result) has
//     the same, and where its reports say a goroutine may block forever,
//     for blocking to report what those goroutines leave stuck.
//     directive reads the four to report the directives that silence
//     nothing.
//   - factdump reports, under -dump=origins|pointer|shb, what the passes
//     above computed.
//
// # Results are read-only
//
// Every Result is read-only once its analyzer's Run returns: go vet
// (unitchecker) runs the analyzers of one package concurrently, so race,
// deadlock, blocking and factdump may read the same *shb.Result,
// *pointer.Result, *effects.Result and *lockset.Result at the same time.
// Anything computed lazily after Run is kept by the asker. Happens-before
// queries go through shb.Result.NewOrder(): the returned *shb.Order
// memoizes reachability, belongs to the analyzer that made it, and is
// not safe for concurrent use. Ownership queries likewise go through
// ownership.Result.NewQuery(order), which asks the asker's Order.
//
// # How facts travel under go vet
//
// Each package sees only its direct imports' facts, and x/tools
// re-exports imported facts on methods, fields and types but not on
// package-level functions. So every summary is closed over its callees
// (a function's Origins fact already holds what its callees in any
// package start), and facts are exported only for functions that start
// something, which keeps them small. On a dependency outside the
// patterns, go vet wants only the facts its importers read, so
// cmd/origo runs only the passes that export facts there.
// testdata/chain checks, under both drivers, that origins started in c
// reach a through b.
//
// # Tests of the passes
//
// Besides the analyzers' fixtures: passes/shb compares each fixture's
// graph with a golden file (go test ./passes/shb -run TestGraphs -update
// rewrites them); passes/lockset reports the held locksets at lock
// operations and returns against // want comments and checks the
// facts.Locks fact of a small library; passes/effects checks the
// facts.Effects fact of the same library.
package passes
