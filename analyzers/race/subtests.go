package race

import (
	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/pointer"
)

// Subtests one after the other. t.Run (and b.Run) of a subtest that does
// not call t.Parallel waits for the subtest, its own subtests included:
// meanwhile the goroutine that called Run does nothing, and so no other
// subtest it starts runs. Two goroutines that are each one test's
// goroutine or a subtest of it without t.Parallel, at any depth, never
// run at once, however many places start them. The happens-before graph
// orders a subtest with its parent only when one place starts it (see
// shb's spawn edges): runGCD's two sub-benchmarks, started by each
// benchmark that calls runGCD, would look concurrent with each other.
// A goroutine that such a subtest starts with a go statement is not
// waited for by Run and is judged as before; so is a goroutine whose
// root runs in several copies at once (a parallel test, the library's
// methods, a goroutine started in a loop), whose subtests may belong to
// two copies.

// waitedIn returns the goroutine whose Run calls o's execution is
// nested in, each waiting for it: o itself, unless o is a subtest
// without t.Parallel, whose parent's it then is; nil when the parent is
// not known.
func (c *checker) waitedIn(o *pointer.Origin) *pointer.Origin {
	if c.runWaits == nil {
		c.runWaits = make([]waitedMemo, len(c.ptr.Origins))
	}
	if o.ID >= len(c.runWaits) {
		return nil
	}
	m := &c.runWaits[o.ID]
	if !m.found {
		m.in, m.found = c.findWaitedIn(o), true
	}
	return m.in
}

// waitedMemo is what waitedIn found for an origin: asked of every pair of
// accesses, it is found once, also when it is nil.
type waitedMemo struct {
	in    *pointer.Origin
	found bool
}

func (c *checker) findWaitedIn(o *pointer.Origin) *pointer.Origin {
	w := o
	for depth := 0; w != nil && w.Kind == facts.SpawnSubtest && w.Flags&facts.Sync != 0; depth++ {
		if depth > len(c.runWaits) {
			return nil // a cycle of spawns, as the analysis merged them
		}
		if w.Parent != nil {
			w = w.Parent
		} else {
			// The context-insensitive analysis has no parents: the
			// one trace that starts w, if one does.
			w, _ = c.own.Starter(w)
		}
	}
	return w
}

// sequential reports whether a and b run one after the other as a test
// and its subtests without t.Parallel (see waitedIn).
func (c *checker) sequential(a, b *pointer.Origin) bool {
	w := c.waitedIn(a)
	return w != nil && !w.Multi && w == c.waitedIn(b)
}
