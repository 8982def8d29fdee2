package shb

import (
	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/rules"
)

// Subtests one after the other. t.Run (and b.Run) of a subtest that does
// not call t.Parallel waits for the subtest, its own subtests included,
// and b.RunParallel for its bodies:
// meanwhile the goroutine that called Run does nothing, and so no other
// subtest it starts runs. Two goroutines that are each one test's
// goroutine or a subtest of it without t.Parallel, at any depth, never
// run at once, however many places start them. The happens-before graph
// orders a subtest with its parent only when one place starts it (see
// shb's spawn edges): runGCD's two sub-benchmarks, started by each
// benchmark that calls runGCD, would look concurrent with each other.
// A goroutine that such a subtest starts with a go statement is not
// waited for by Run and is judged as before; so is a goroutine whose
// root runs in several copies at once (the library's methods, a
// goroutine started in a loop), whose subtests may belong to two copies.
// The parallel tests' root is such a root too, but each of its runs is
// one test function, which runs once: what one run does and the
// subtests without t.Parallel that it starts never run at once, in
// whichever copy of the root the analysis places them (sequentialRun:
// a table-driven test that calls t.Parallel, then t.Run for each case).
// A subtest that calls t.Parallel runs on its own until that call, which
// t.Run waits for before it returns: what the subtest does before it
// (tt := tt, the loop variable copied before Go 1.22) never runs at once
// with the goroutine that called t.Run, in any iteration of its loop
// (beforeParallel), and happens before what that goroutine does next
// (spawnEdges).

// Sequential returns rules.SubtestsWait when the goroutines a and b
// run one after the other as a test and its subtests without
// t.Parallel (see waitedIn), and "" otherwise.
func (o *Order) Sequential(a, b *pointer.Origin) rules.ID {
	if w := o.waitedIn(a); w != nil && !w.Multi && w == o.waitedIn(b) {
		return rules.SubtestsWait
	}
	// b.RunParallel waits for its bodies as Run waits for a subtest: a
	// body is not concurrent with the test it runs in, at any depth of
	// sequential subtests, though the copies of one body run at once.
	pa, wa := o.bodyWaitedIn(a)
	pb, wb := o.bodyWaitedIn(b)
	if (pa != nil || pb != nil) && wa != nil && !wa.Multi && wa == wb && (pa == nil || pb == nil || pa.Site != pb.Site) {
		return rules.SubtestsWait
	}
	return ""
}

// bodyWaitedIn returns the innermost b.RunParallel body that g is or
// runs in, climbing through it and sequential subtests, and the
// goroutine that waits for them all; a nil body when g runs in none.
func (o *Order) bodyWaitedIn(g *pointer.Origin) (body, w *pointer.Origin) {
	w = g
	for depth := 0; w != nil && (w.Kind == facts.SpawnSubtest || w.Kind == facts.SpawnRunParallel) && w.Flags&facts.Sync != 0; depth++ {
		if depth > len(o.r.Traces) {
			return nil, nil // a cycle of spawns, as the analysis merged them
		}
		if w.Kind == facts.SpawnRunParallel && body == nil {
			body = w
		}
		if w.Parent != nil {
			w = w.Parent
		} else {
			w = o.starter(w)
		}
	}
	return body, w
}

// waitedIn returns the goroutine whose Run calls g's execution is
// nested in, each waiting for it: g itself, unless g is a subtest
// without t.Parallel, whose parent's it then is; nil when the parent is
// not known. It is found once per goroutine: every pair of accesses
// asks.
func (o *Order) waitedIn(g *pointer.Origin) *pointer.Origin {
	if o.runWaits == nil {
		o.runWaits = make(map[*pointer.Origin]*pointer.Origin)
	}
	if w, ok := o.runWaits[g]; ok {
		return w
	}
	w := o.findWaitedIn(g)
	o.runWaits[g] = w
	return w
}

func (o *Order) findWaitedIn(g *pointer.Origin) *pointer.Origin {
	w := g
	for depth := 0; w != nil && w.Kind == facts.SpawnSubtest && w.Flags&facts.Sync != 0; depth++ {
		if depth > len(o.r.Traces) {
			return nil // a cycle of spawns, as the analysis merged them
		}
		if w.Parent != nil {
			w = w.Parent
		} else {
			// The context-insensitive analysis has no parents: the
			// one trace that starts w, if one does.
			w = o.starter(w)
		}
	}
	return w
}

// starter returns the goroutine whose trace starts g when one trace
// alone does, or nil.
func (o *Order) starter(g *pointer.Origin) *pointer.Origin {
	if o.starters == nil {
		o.starters = make(map[*pointer.Origin]*pointer.Origin)
		for _, t := range o.r.Traces {
			for _, ev := range t.Events {
				if ev.Kind != Spawn {
					continue
				}
				for _, s := range t.Spawned(ev.ID) {
					if prev, seen := o.starters[s]; !seen {
						o.starters[s] = t.Origin
					} else if prev != t.Origin {
						o.starters[s] = nil // started by two
					}
				}
			}
		}
	}
	return o.starters[g]
}

// sequentialRun returns rules.SubtestsWait when event x of t and event
// y of u are in one run of the parallel tests' root, each in its
// goroutine or in a subtest without t.Parallel that the run started (at
// any depth), and "" otherwise: one test function's run, in either copy
// of the root, and the subtests it waits for.
func (o *Order) sequentialRun(t *Trace, x int32, u *Trace, y int32) rules.ID {
	p := o.r.runs.parallel
	wt, wu := o.waitedIn(t.Origin), o.waitedIn(u.Origin)
	if p[1] == nil || wt == nil || wu == nil || !o.parallelRoot(wt) || !o.parallelRoot(wu) {
		return ""
	}
	rt, ru := o.r.parallelRun(t, x), o.r.parallelRun(u, y)
	if rt < 0 || rt != ru {
		return ""
	}
	return rules.SubtestsWait
}

// WaitedInRun reports whether event x of t and event y of u are each in
// a copy of the parallel tests' root or in a subtest without t.Parallel
// that a run of it started (at any depth): within any one run, t.Run
// waits for those subtests, so the two never run at once there
// (subtests-wait). Unlike sequentialRun, it asks nothing of which runs
// start them (a helper of several parallel tests whose loop calls
// t.Run starts the subtest in each): whether the pair can be of two
// different runs, which do run at once, is the question of the objects
// each run makes (ownership's test-objects).
func (o *Order) WaitedInRun(t *Trace, x int32, u *Trace, y int32) bool {
	p := o.r.runs.parallel
	wt, wu := o.waitedIn(t.Origin), o.waitedIn(u.Origin)
	return p[1] != nil && wt != nil && wu != nil && o.parallelRoot(wt) && o.parallelRoot(wu)
}

// parallelRoot reports whether g is one of the two copies of the
// parallel tests' root.
func (o *Order) parallelRoot(g *pointer.Origin) bool {
	p := o.r.runs.parallel
	return (p[0] != nil && g == p[0].Origin) || (p[1] != nil && g == p[1].Origin)
}

// parallelRun returns the run of the parallel tests' root that event x
// of t is in: its own run when t is a copy of the root, the one run that
// starts t's goroutine otherwise; -1 when there is not one.
func (r *Result) parallelRun(t *Trace, x int32) int {
	p := r.runs.parallel
	if t == p[0] || t == p[1] {
		return t.Run(x)
	}
	if t.index >= int32(len(r.runs.onlyRun)) {
		return -1
	}
	return int(r.runs.onlyRun[t.index])
}
