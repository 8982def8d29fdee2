package shb

import (
	"slices"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/pointer"
	"golang.org/x/tools/go/ssa"
)

// A loop that starts goroutines in each iteration and joins them before
// the iteration ends (a WaitGroup.Wait, a receive of what they send
// last, on every path of the iteration after the go statement) runs them
// one iteration at a time: a goroutine of iteration k starts after what
// iterations up to k did before its go statement, and ends, as far as
// its events before the join go, before iteration k+1 starts. So its
// events and those of the loop outside the window between the go
// statement and the join never run at once, whichever iterations they
// are in; nor do two copies of such a goroutine (two iterations' runs
// of it). The trace orders events by position, and the loop's earlier
// positions stand for its next iterations too, which the join's edge
// does not reach: this rule is that reasoning, asked of a pair
// (rules.JoinedPerIteration). It holds as well for a goroutine that the
// joined one starts, directly or not, for what it does before the
// iteration's join (a subtest whose helper's callback starts a
// goroutine and receives what it sends last: the goroutine starts after
// the go statement of the subtest, and what it does before its send
// comes before t.Run returns).

// JoinedPerIteration reports whether event x of t and event y of u are
// kept apart by a join per iteration, one way or the other (see
// joinedPerIteration).
func (o *Order) JoinedPerIteration(t *Trace, x int32, u *Trace, y int32) bool {
	return o.joinedPerIteration(t, x, u, y) || o.joinedPerIteration(u, y, t, x)
}

// joinedPerIteration reports whether event x of t and event y of u are
// kept apart by a join per iteration: u is a goroutine that t starts
// only in one loop, joined before each iteration ends, with y before
// the join and x in that loop outside the window between the go
// statement and the join; or t and u are two copies of such a goroutine.
func (o *Order) joinedPerIteration(t *Trace, x int32, u *Trace, y int32) bool {
	if childOf(t.Origin, u.Origin) != nil {
		return o.outsideWindow(t, x, u, y)
	}
	if a, b := t.Origin, u.Origin; a.Multi && b.Multi && a.Parent != nil && a.Parent == b.Parent && a.Entry == b.Entry && a.Site == b.Site && a.Copy != b.Copy {
		p := o.r.byOrig[a.Parent]
		if p == nil {
			return false
		}
		_, jx, ok := o.iterJoin(p, t, x)
		if !ok {
			return false
		}
		_, jy, ok := o.iterJoin(p, u, y)
		return ok && p.Events[jx].Loop == p.Events[jy].Loop
	}
	return false
}

// outsideWindow reports whether x, an event of u's parent t in a loop,
// lies outside the window between u's go statement and its join in each
// iteration, where y comes before that join.
func (o *Order) outsideWindow(t *Trace, x int32, u *Trace, y int32) bool {
	loop := t.Events[x].Loop
	if loop < 0 {
		return false
	}
	s, j, ok := o.iterJoin(t, u, y)
	if !ok || t.Events[j].Loop != loop {
		return false
	}
	return x < s || x > j
}

// childOf returns the goroutine that t starts and u descends from (u
// itself, or the goroutine of t's that started u's ancestors), or nil
// when u does not descend from t.
func childOf(t, u *pointer.Origin) *pointer.Origin {
	for c := u; c.Parent != nil; c = c.Parent {
		if c.Parent == t {
			return c
		}
	}
	return nil
}

// iterJoin returns the go statement's event s in t that starts u, or
// the goroutine u descends from (a subtest whose helper's callback
// starts u), and the event j of t that joins it after event y of u,
// when it is started there only, in a loop, and each iteration joins it
// before it ends: u, started after s, ends (as far as y) before j.
func (o *Order) iterJoin(t, u *Trace, y int32) (s, j int32, ok bool) {
	c := childOf(t.Origin, u.Origin)
	if c == nil {
		return 0, 0, false
	}
	spawns := o.spawnsOf(t, c)
	if len(spawns) != 1 {
		return 0, 0, false
	}
	s = spawns[0]
	w, ok := o.FirstAfter(u, y, t)
	if !ok || w <= s || w == s+1 && c.Flags&facts.Sync == 0 {
		return 0, 0, false
	}
	j = w - 1 // the join: an edge lands just after it; t.Run's own call for a subtest it waits for
	loop := t.Events[s].Loop
	if loop < 0 || t.Events[j].Loop != loop || j > t.Loops[loop].End {
		return 0, 0, false
	}
	g, join := t.Events[s].Instr, t.Events[j].Instr
	if g == nil || join == nil || !joinsEachIteration(g, join) {
		return 0, 0, false
	}
	return s, j, true
}

// spawnsOf returns the events of t that may start u, one of its
// goroutines.
func (o *Order) spawnsOf(t *Trace, u *pointer.Origin) []int32 {
	k := spawnKey{t.index, u}
	if ids, ok := o.spawns[k]; ok {
		return ids
	}
	var ids []int32
	for i := range t.Events {
		if t.Events[i].Kind != Spawn {
			continue
		}
		for _, c := range t.Spawned(int32(i)) {
			if c == u {
				ids = append(ids, int32(i))
				break
			}
		}
	}
	if o.spawns == nil {
		o.spawns = make(map[spawnKey][]int32)
	}
	o.spawns[k] = ids
	return ids
}

// joinsEachIteration reports whether join, in the function of the go
// statement g, follows g on every path before the iteration of any loop
// around g ends: no path from g goes back to a loop header above g, or
// leaves the function, without passing join. A go statement in an inner
// loop that the join does not close fails it (its runs overlap).
func joinsEachIteration(g, join ssa.Instruction) bool {
	fn := g.Parent()
	if fn == nil || join.Parent() != fn {
		return false
	}
	if g == join {
		return true // t.Run, which returns when its subtest has
	}
	gb, jb := g.Block(), join.Block()
	if gb == jb {
		return slices.Index(gb.Instrs, join) > slices.Index(gb.Instrs, g)
	}
	headers := make(map[*ssa.BasicBlock]bool)
	for _, b := range fn.Blocks {
		for _, p := range b.Preds {
			if b.Dominates(p) && b.Dominates(gb) {
				headers[b] = true
			}
		}
	}
	// A header above g starts another run of its loop; so does g's own
	// block, reached again.
	return !escapesRun(gb, jb, func(b *ssa.BasicBlock) bool { return headers[b] || b == gb })
}

// spawnKey asks which events of a trace start a goroutine.
type spawnKey struct {
	t int32
	u *pointer.Origin
}
