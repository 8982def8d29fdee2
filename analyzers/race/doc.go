// Package race defines an Analyzer that reports data races: two
// goroutines that may access the same memory at the same time, one of
// them writing, without synchronization that orders them.
//
// # Analyzer race
//
// race: report data races between goroutines
//
// The analyzer works on the goroutines of a package's programs: main
// and init, each test, benchmark and fuzz target (parallel tests and
// subtests run concurrently), and in a library, the exported methods of
// types that carry a sync.Mutex, RWMutex or atomics, which may be called
// concurrently. Library mode presumes those callers, so a pair between
// two of them (or between one and a test or main) is reported only where
// the code shows the location is meant to be shared: some access to it
// holds a lock or is atomic. A field written by Start before the
// goroutine it starts reads it is the caller's setup, not a race; a
// method that starts a goroutine and then writes what it reads races
// within one call, and is reported. Every go statement, and the library calls that start
// goroutines (WaitGroup.Go, errgroup, time.AfterFunc, HTTP handlers,
// t.Run), starts a goroutine; one started in a loop may run concurrently
// with itself.
//
// A pair of accesses is reported when, cheapest test first: the two
// goroutines may run at the same time; the accesses may touch the same
// field, element or variable (origin-sensitive pointer analysis); one
// writes; no happens-before edge of the Go memory model orders them (go
// statement, channel send/receive/close, WaitGroup, Once, Cond); no mutex is
// held at both; they are not both sync/atomic operations.
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
// Races of kinds common in Go are named first, with the fix last:
// "concurrent map access", "concurrent append", "captured loop variable"
// (a goroutine capturing a loop variable of a file before Go 1.22, which
// all iterations share), "captured err" and "captured named result" (a
// goroutine assigning a variable of the function that started it). A
// WaitGroup.Add made inside the goroutine that Wait waits for, with no
// Add before the go statement, is reported on its own: Wait may return
// before it.
//
// One report per racy location and pair of goroutines, on one access,
// with the other as related information. A line comment
// "//origo:ignore race <reason>" on either access silences the report.
//
// Functions of other packages count through their effect summaries
// (see package effects): a call of an imported function performs, at the
// call, the accesses it makes to what its arguments and exported
// variables reach, holding the locks it holds there, and its channel,
// WaitGroup, Cond and Once operations in its order (a Once callback's
// accesses hold the Once); a goroutine started in an imported
// function (go srv.Serve(l)) runs that summary. Such an access is shown
// as "write at b.go:12 (in b.(*T).Set, called at a.go:30)".
//
// A Cond orders what its one signaller did before Signal or Broadcast
// before what the waiter does after Wait; with two signallers it orders
// nothing.
//
// An atomic operation that saw another goroutine's write orders what
// that goroutine did before the write before the branch that knows it:
// a loop spinning until a flag is set, if flag.Load() { ... }, a failed
// CompareAndSwap(&s, 0, 1), if atomic.AddInt64(&n, 1) == 2 with two
// Adds of 1. Code after the branch joins the other path is not ordered.
//
// A timer made for a second or more, then stopped and reset (t.Stop();
// v = 2; t.Reset(d)), is taken not to have fired before the Stop: what
// came before the Reset happens before <-t.C and before the function
// time.AfterFunc runs. Without the Stop, or made for less, it orders
// nothing.
//
// Known limits: a select orders through a
// case only when that case has a body of its own, or is the one live
// case; an element of a slice or map stands for all elements (constant
// indices aside), so goroutines writing disjoint elements are reported.
// An imported function's effect lists at most 32 accesses and 16
// operations, from its static calls; calls through interfaces into other
// packages contribute no accesses.
package race
