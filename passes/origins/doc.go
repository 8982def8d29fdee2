// Package origins defines an Analyzer that finds the goroutines a Go
// program may start: its origins, in the sense of O2 (Liu et al., PLDI'21).
//
// An origin is a goroutine entry function together with the place that
// starts it. For every function the pass computes which origins a call of
// it may start, closed over its callees in every package, and exports
// the summaries of the package's declared functions in one
// [facts.OriginsTable] package fact (not an object fact per function,
// which x/tools would re-export in every importer's facts). Importers
// apply a summary at their call sites instead of re-analyzing the
// callee, so
// under "go vet" the summary of a package is computed once and kept in
// the build cache.
//
// Origin sources (the spawners are listed in passes/syncapi):
//
//   - go statements: go f(x), go func(){...}(), go v.m();
//   - sync.WaitGroup.Go, errgroup.Group.Go and TryGo;
//   - time.AfterFunc and context.AfterFunc;
//   - HTTP handlers: http.HandleFunc, http.Handle, the same methods of
//     ServeMux, and the handler given to ListenAndServe, ListenAndServeTLS,
//     Serve and ServeTLS; a handler runs concurrently with itself;
//   - testing: t.Run and b.Run subtests (parallel when the body calls
//     t.Parallel, otherwise the caller waits for them), b.RunParallel
//     bodies (which run together, and RunParallel waits for them),
//     f.Fuzz targets (run one input after another; Fuzz waits for them);
//   - runtime.SetFinalizer's finalizer (all finalizers run one after
//     another on one goroutine of the runtime's) and runtime.AddCleanup's
//     cleanup (cleanups may run at once); the finalizer, an any, is the
//     function inside it.
//
// A site is marked "multi" when it may start more than one goroutine:
// it is inside a loop, in a function called in a loop or passed as a
// callback, nested inside a multi origin, or it is an HTTP handler or a
// RunParallel body. A site started by another origin records it as its
// parent, so nested goroutines form a chain (O2's k-origins).
//
// The Result also lists the package's roots, where programs begin: main,
// the package initializer, Test, Benchmark and Fuzz functions, and, in
// library mode (packages other than main), the exported methods of exported types
// that carry a sync.Mutex, sync.RWMutex or sync/atomic value, since such
// types declare that they are meant for concurrent use, and the entry
// points: the exported functions, and exported methods of exported
// types, that may start goroutines, each called by some importer's
// goroutine (RootEntry), so that a library with no test or caller of
// its own is analyzed where it starts goroutines.
//
// A method entered with a mutex of its receiver held is neither: the
// callers that hold the mutex run it. A method is entered so when its
// name ends in Locked (Go's convention for "the caller holds the lock")
// and it locks no mutex itself (ReadLocked reading under the lock it
// takes names what it does), or when the package's own code (tests aside) calls it, and every such
// call holds, at the call, a mutex reached from the receiver it passes,
// or is in a method entered so that passes its own receiver on (etcd's
// RaftCluster.UnsafeLoad, which Recover calls holding c.Mutex). Taken as
// a call of its own, its unlocked writes would race with every locked
// access of its callers' fields.
//
// Limits: calls through interfaces and function values that the pass
// cannot resolve from SSA alone are not followed (the pointer analysis
// resolves them), and under "go vet" a callee in a package that is not a
// direct import is followed only if a direct import's API exposes it.
package origins
