package ownership

import (
	"slices"

	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// madeInLoop reports whether event x of trace t touches obj in a run of
// a call, inside a loop of the trace, of a function that makes obj (see
// maker): each run of the loop (le, tearDown = setUp(b) in a
// benchmark's b.N loop) makes its own object before x touches it, so x
// happens before what the goroutines started later in that run do with
// it, not after what the goroutines of earlier runs did with theirs.
// So does x when the trace makes obj only in that loop, in a callee that
// returned (tx := db.begin() in each run, whose init made tx.meta): obj
// is of t's origin, so no other goroutine makes it, and a run that
// touched an earlier run's object would have kept it in a variable
// around the loop, which the allocations in a loop body already are
// taken not to be (see allocatedInLoop).
func (q *Query) madeInLoop(t *shb.Trace, x int32, obj *pointer.Object) bool {
	if t.Events[x].Loop < 0 {
		return false
	}
	k := madeKey{t, x, obj}
	if v, ok := q.made[k]; ok {
		return v
	}
	// Every making of obj is t's own, in the loop around x.
	v := obj.Ctx != nil && obj.Ctx.Origin == t.Origin && t.MadeIn(obj.MadeAt(), obj.Ctx.CallSites()) == t.Events[x].Loop
	frames, j := q.maker(t, x, obj)
	for i := 1; i <= j && !v; i++ {
		s := frames[i].Site
		v = s != nil && s.Block() != nil && q.hb.InLoop(s.Block())
	}
	if q.made == nil {
		q.made = make(map[madeKey]bool)
	}
	q.made[k] = v
	return v
}

// madeKey is an event of a trace, asked about an object.
type madeKey struct {
	t   *shb.Trace
	x   int32
	obj *pointer.Object
}

// maker returns the chain of calls event x of trace t was made in, and
// the index of the innermost call in it of a function that makes obj:
// the function of its allocation, or the caller of a constructor whose
// call tells obj's context apart; -1 when there is none.
func (q *Query) maker(t *shb.Trace, x int32, obj *pointer.Object) ([]pointer.Frame, int) {
	site, ok := obj.Site.(ssa.Instruction)
	if !ok || site.Block() == nil {
		return nil, -1
	}
	frames, ok := t.Frames(x)
	if !ok {
		return nil, -1
	}
	makers := []*ssa.Function{site.Parent()}
	if obj.Ctx != nil {
		for _, s := range obj.Ctx.CallSites() {
			if s != nil {
				makers = append(makers, s.Parent())
			}
		}
	}
	j := -1
	for i, f := range frames {
		if slices.Contains(makers, f.Fn) {
			j = i
		}
	}
	return frames, j
}

// allocatedInLoop reports whether the object is made anew in each
// iteration of a loop: then an access in one iteration does not touch
// what the next iteration accesses.
func (q *Query) allocatedInLoop(obj *pointer.Object) bool {
	instr := obj.MadeAt()
	return instr != nil && instr.Block() != nil && q.hb.InLoop(instr.Block())
}
