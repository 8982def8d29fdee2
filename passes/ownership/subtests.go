package ownership

import (
	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// A subtest's own objects. t.Run runs its function as a test of its
// own, and each run makes anew what the function makes in its body or
// in a function literal declared in it. Another subtest of the same
// test — a sibling, whose function is declared in a function that
// encloses the first — gets that object only through memory both can
// reach: a package-level variable, or a variable of the enclosing
// function that the first subtest's function captured (what it makes,
// what its callees return having made it in its run, and what it stores
// into either, is its own otherwise). The pointer analysis analyzes a
// constructor once for every subtest: the caches that two subtests
// make through one helper are one object, and the callback each gives
// its cache is every cache's, so an access in one subtest's run seems
// to reach what the other subtest's callback writes. An event whose
// goroutine descends from a sibling subtest's run and not from the
// maker's does not touch the maker's object (rule subtest-objects).

// siblingSubtestObject reports whether event x of t cannot touch obj
// because obj is made in the run of a subtest A (its site is in A's
// function, or in a literal declared in it) and x runs in a sibling
// subtest's run, never in A's, while neither a package-level variable
// nor a variable A's function captured reaches obj.
func (q *Query) siblingSubtestObject(obj *pointer.Object, t *shb.Trace, x int32) bool {
	if !madeByCode(obj) {
		return false
	}
	site := obj.MadeAt()
	// The functions that lexically enclose the site, innermost first.
	var lexical []*ssa.Function
	for fn := site.Parent(); fn != nil; fn = fn.Parent() {
		lexical = append(lexical, fn)
	}
	var maker *ssa.Function // A's function
	var makerRun *pointer.Origin
	for o := t.Origin; o != nil; o = o.Parent {
		if o.Kind != facts.SpawnSubtest || o.Entry == nil || o.Entry.Parent() == nil {
			continue
		}
		for i := 1; i < len(lexical); i++ {
			if lexical[i] != o.Entry.Parent() || lexical[i-1] == o.Entry {
				continue
			}
			// o runs a sibling of the function that makes obj, if
			// that function is run by t.Run.
			if run := q.subtestRun(lexical[i-1]); run != nil {
				maker, makerRun = lexical[i-1], run
			}
			break
		}
		if maker != nil {
			break
		}
	}
	if maker == nil {
		return false
	}
	for o := t.Origin; o != nil; o = o.Parent {
		if o.Entry == maker {
			return false // x may run in A's run too
		}
	}
	return !q.heldByGlobal(obj) && !q.capturedReach(maker, makerRun).has(obj)
}

// subtestRun returns an origin of a subtest whose function is fn: fn
// is run by t.Run (or b.Run); nil when no t.Run runs it.
func (q *Query) subtestRun(fn *ssa.Function) *pointer.Origin {
	if q.subtestRuns == nil {
		q.subtestRuns = make(map[*ssa.Function]*pointer.Origin)
		for _, o := range q.ptr.Origins {
			if o.Kind == facts.SpawnSubtest && o.Entry != nil && q.subtestRuns[o.Entry] == nil {
				q.subtestRuns[o.Entry] = o
			}
		}
	}
	return q.subtestRuns[fn]
}

// capturedReach returns the objects that the variables fn captures
// reach, where the subtest run runs fn: what fn's enclosing function
// shares with it. The depth is that of heldByGlobal's reach, one more
// for the captured variable itself. A binding whose objects are not
// known, or too many, reaches every object (all).
func (q *Query) capturedReach(fn *ssa.Function, run *pointer.Origin) captured {
	if c, ok := q.captured[fn]; ok {
		return c
	}
	c := captured{objs: make(map[*pointer.Object]bool)}
bindings:
	for _, mc := range closuresOf(fn) {
		for _, b := range mc.Bindings {
			objs := q.ptr.Reachable(run.Parent, b, 3, maxCapturedReach)
			if len(objs) == 0 || len(objs) >= maxCapturedReach {
				c = captured{all: true}
				break bindings
			}
			for o := range objs {
				c.objs[o] = true
			}
		}
	}
	if q.captured == nil {
		q.captured = make(map[*ssa.Function]captured)
	}
	q.captured[fn] = c
	return c
}

// maxCapturedReach bounds the objects capturedReach follows from one
// binding; past it, a binding reaches everything.
const maxCapturedReach = 4096

// captured is what a function literal's captured variables reach.
type captured struct {
	objs map[*pointer.Object]bool
	all  bool // every object
}

func (c captured) has(obj *pointer.Object) bool { return c.all || c.objs[obj] }

// closuresOf returns the MakeClosure instructions of fn, a function
// literal, in the function that declares it.
func closuresOf(fn *ssa.Function) []*ssa.MakeClosure {
	var out []*ssa.MakeClosure
	if fn.Parent() == nil {
		return nil
	}
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				out = append(out, mc)
			}
		}
	}
	return out
}
