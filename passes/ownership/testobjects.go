package ownership

import (
	"slices"

	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// Another test's object. go test runs each test function on objects of
// its own: what a test function makes (in its body, or in a function
// literal it declares) is reached by the code that test runs and the
// goroutines it starts, and by another test only through a package-level
// variable. The pointer analysis runs every test in one context, so a
// test's object stored into an object of a shared constructor (a
// nodeState put into the map of the Memberlist a helper makes) looks
// reachable from every test that calls the constructor; the runs of
// the tests' trace tell them apart. An event of the tests' own
// goroutine in another test's run, or of a goroutine that only other
// tests start, does not touch the object (rule test-objects).

// otherRunsObject reports whether event x of trace t cannot touch obj
// because obj is made by a test function and x runs only in other
// tests' runs: on the tests' goroutine in another run, or in a goroutine
// that only other runs start. False when a package-level variable
// reaches obj, through which any test may get it.
func (q *Query) otherRunsObject(obj *pointer.Object, t *shb.Trace, x int32) bool {
	maker := madeByRoot(obj)
	if maker == nil {
		return false
	}
	root := q.testsRootOf(obj, maker)
	if root == nil {
		return false
	}
	rt := q.hb.TraceOf(root)
	if rt == nil || rt.Entries == nil {
		return false
	}
	run := slices.Index(q.ptr.RootFuncs(root), maker)
	if run < 0 || run >= len(rt.Entries) {
		return false
	}
	if q.heldByGlobal(obj) {
		return false
	}
	// The runs of x, on its own root of the tests: obj's, or the other
	// copy of the parallel tests' root, or the sequential tests' root.
	// A test function runs once: x is in maker's run when one of its
	// runs is maker's, on whichever root.
	xRoot, runs := q.runsOf(t, x)
	if xRoot == nil || len(runs) == 0 {
		return false
	}
	fns := q.ptr.RootFuncs(xRoot)
	for r := range runs {
		if r < 0 || r >= len(fns) || fns[r] == maker {
			return false
		}
	}
	return true
}

// runsIn returns the runs of root (whose trace is rt) in which event x of
// t may happen: its own run on rt, or the runs that start the goroutine
// of the root that t descends from or is (where the analysis degraded,
// a goroutine may have lost its parent: the root's spawns still name
// it). The caller only reads the map: those of a goroutine are kept,
// asked again for every pair of a large package's tests.
func (q *Query) runsIn(root *pointer.Origin, rt, t *shb.Trace, x int32) map[int]bool {
	if t == rt {
		return map[int]bool{t.Run(x): true}
	}
	child := t.Origin
	for child.Parent != nil && child.Parent != root {
		child = child.Parent
	}
	k := childRuns{rt, child}
	if runs, ok := q.childRuns[k]; ok {
		return runs
	}
	runs := make(map[int]bool)
	for s := range q.runStarts(rt) {
		if s.child == child {
			runs[s.run] = true
		}
	}
	if q.childRuns == nil {
		q.childRuns = make(map[childRuns]map[int]bool)
	}
	q.childRuns[k] = runs
	return runs
}

// childRuns is a goroutine a root's trace starts: the key of the runs
// that start it (see runsIn).
type childRuns struct {
	rt    *shb.Trace
	child *pointer.Origin
}

// testsRootOf returns the root of the tests (sequential or parallel)
// that runs maker, which makes obj: the root of obj's context, or, where
// the pointer analysis degraded to one context for all goroutines, the
// root whose functions include maker. Nil when maker is not a test's.
func (q *Query) testsRootOf(obj *pointer.Object, maker *ssa.Function) *pointer.Origin {
	isTests := func(o *pointer.Origin) bool {
		return o.Parent == nil && (o.Root == "tests" || o.Root == "parallel tests")
	}
	if !q.ptr.ContextInsensitive && obj.Ctx != nil && obj.Ctx.Origin != nil {
		if root := obj.Ctx.Origin.Ancestor(); isTests(root) {
			return root
		}
		return nil
	}
	for _, o := range q.ptr.Origins {
		if isTests(o) && slices.Contains(q.ptr.RootFuncs(o), maker) {
			return o
		}
	}
	return nil
}

// madeByRoot returns the function that a root runs (a test function)
// whose body, or a function literal declared in it, makes obj; nil when
// obj is not made by an instruction or the maker is not a top-level
// function.
func madeByRoot(obj *pointer.Object) *ssa.Function {
	site := obj.MadeAt()
	if site == nil || site.Parent() == nil {
		return nil
	}
	fn := site.Parent()
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

// heldByGlobal reports whether a package-level variable reaches obj.
func (q *Query) heldByGlobal(obj *pointer.Object) bool {
	if q.ev.heldByGlobals == nil {
		q.ev.heldByGlobals = q.ptr.HeldByGlobals()
	}
	return q.ev.heldByGlobals[obj]
}

// otherRunsPair reports whether events x of ta and y of tb run only in
// different runs of one root of the tests, on an object that no
// package-level variable reaches: whatever function made it (the test,
// or a helper and the constructors it calls: m := GetMemberlist(t)), a
// run makes its own, and the other run's code and goroutines reach
// theirs. The runs of an event are its own on the root's trace, or
// those that start the goroutine of the root it descends from.
func (q *Query) otherRunsPair(obj *pointer.Object, ta *shb.Trace, x int32, tb *shb.Trace, y int32) bool {
	if !madeByCode(obj) {
		return false
	}
	root, ra := q.runsOf(ta, x)
	if root == nil {
		return false
	}
	rootB, rb := q.runsOf(tb, y)
	if rootB != root {
		return false
	}
	for r := range ra {
		if rb[r] {
			return false
		}
	}
	return !q.heldByGlobal(obj)
}

// waitedOtherRuns reports whether events x of ta and y of tb are apart
// run by run, on an object each run of the parallel tests makes for
// itself: within one run, t.Run waits for the subtests it starts
// (shb's WaitedInRun), and two different runs touch different objects
// (the tt that a table-driven helper called by two parallel tests
// writes before each t.Run, and the subtest of the other test reads).
func (q *Query) waitedOtherRuns(obj *pointer.Object, ta *shb.Trace, x int32, tb *shb.Trace, y int32) bool {
	return madeByCode(obj) && q.order.WaitedInRun(ta, x, tb, y) && !q.heldByGlobal(obj)
}

// madeByCode reports whether obj is made by an instruction of the
// code (an allocation, a make, a composite literal), or by a call of
// another package's function that, by its summary, allocates it (the
// summary names what that package's variables keep by their own
// objects): each run that executes the instruction or the call makes
// it anew. Not a global, a function, or what the roots' parameters
// point to.
func madeByCode(obj *pointer.Object) bool {
	if obj.MadeByCall() {
		return true
	}
	switch obj.Kind {
	case pointer.ObjAlloc, pointer.ObjSlice, pointer.ObjMap, pointer.ObjChan:
	default:
		return false
	}
	_, ok := obj.Site.(ssa.Instruction)
	return ok
}

// runsOf returns the root of the tests that event x of t runs under,
// and the runs of it in which x may happen (runsIn); nil when t descends
// from no root of the tests, or from one whose runs the trace does not
// tell apart.
func (q *Query) runsOf(t *shb.Trace, x int32) (*pointer.Origin, map[int]bool) {
	root := t.Origin.Ancestor()
	if root == nil || root.Parent != nil || root.Root != "tests" && root.Root != "parallel tests" {
		return nil, nil
	}
	rt := q.hb.TraceOf(root)
	if rt == nil || rt.Entries == nil {
		return nil, nil
	}
	runs := q.runsIn(root, rt, t, x)
	if len(runs) == 0 || runs[-1] {
		return nil, nil
	}
	return root, runs
}
