// Package effects defines an Analyzer that summarizes what each function
// does that its callers can see, as an importer needs it: the memory it
// reads and writes, named by a facts.Key rooted at a parameter or a
// package variable, with the locks held at each access (package
// lockset), and its synchronization operations (channel sends, receives
// and closes, WaitGroup Add/Done/Wait, Cond Wait/Signal/Broadcast and
// the returns of Once.Do), in program order: blocks in reverse
// postorder, deferred calls at the return.
//
// It exports the summaries of the package's exported functions and
// methods as a facts.Effects package fact. Callees in the package and in
// direct imports are folded in, so a summary is closed over the package
// boundary like the pointer summaries; an access repeated in one stretch
// without synchronization is kept once, and a summary keeps at most
// facts.MaxAccesses accesses and facts.MaxSyncs operations. A summary
// also says which of the function's channel, *sync.WaitGroup and
// *sync.Cond parameters it contains: uses for nothing but the
// operations it lists, so that an importer's channel given to it has not
// escaped (see contained.go), and of those WaitGroups the ones some path
// returns without a Done on. It says too which function parameters
// are callbacks the function keeps (stores into a struct field,
// directly, in a literal that calls it, or through a function of the
// package) where code that the package's goroutines run loads that
// field and calls it: a message handler given to Subscribe, a closed
// handler given to SetClosedHandler (async.go, FuncEffects.Async). An
// importer runs such an argument on a goroutine of its own. A Once.Do
// callback's accesses hold the Once as a lock marked Once. A parameter
// that closures capture is keyed as the parameter, not as the heap
// variable go/ssa copies it into.
//
// The Result gives the summaries of the direct imports' functions
// (Result.Imported), which the pointer and happens-before passes place
// at the calls of them. The memory of the runtime, of sync's own types
// and of the testing package is left out: it is synchronization, or per
// test (syncapi.Internal).
package effects
