package deadlock

import (
	"cmp"
	"slices"

	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// An orderEdge says that a goroutine locks To while holding From (D4's
// lock-dependency graph), at one acquisition event of its trace.
type orderEdge struct {
	from, to         int32 // lock locations (shb.Result.Location)
	fromRead, toRead bool
	t                *shb.Trace
	ev               int32 // the acquisition of to
}

// inversions reports pairs of goroutines that take two locks in
// opposite orders and can run at the same time.
func (c *checker) inversions(hb *shb.Result) {
	byPair := make(map[[2]int32][]orderEdge)
	both := make(map[*shb.Trace]map[[2]int32]bool) // the orders each trace takes
	for _, t := range hb.Traces {
		for _, ev := range t.Events {
			if ev.Kind != shb.Acquire || ev.Obj < 0 {
				continue
			}
			locs, reads := hb.Locks.Members(ev.Locks)
			for i, held := range locs {
				if len(held) != 1 || held[0] == ev.Obj {
					continue // unsure which mutex, or the same abstract one (two instances)
				}
				e := orderEdge{from: held[0], to: ev.Obj, fromRead: reads[i], toRead: ev.Read, t: t, ev: ev.ID}
				byPair[[2]int32{e.from, e.to}] = append(byPair[[2]int32{e.from, e.to}], e)
				if both[t] == nil {
					both[t] = make(map[[2]int32]bool)
				}
				both[t][[2]int32{e.from, e.to}] = true
			}
		}
	}
	type found struct{ a, b orderEdge }
	var reports []found
	seen := make(map[[2]string]bool)
	pairs := make([][2]int32, 0, len(byPair))
	for p := range byPair {
		if p[0] < p[1] {
			pairs = append(pairs, p)
		}
	}
	slices.SortFunc(pairs, func(x, y [2]int32) int { return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1])) })
	for _, p := range pairs {
		rev := byPair[[2]int32{p[1], p[0]}]
		for _, a := range byPair[p] {
			for _, b := range rev {
				if !c.deadlocks(hb, a, b, both) {
					continue
				}
				pa, pb := c.pos(a.t.Events[a.ev].Instr.Pos()), c.pos(b.t.Events[b.ev].Instr.Pos())
				k := [2]string{min(pa, pb), max(pa, pb)}
				if seen[k] {
					continue
				}
				seen[k] = true
				reports = append(reports, found{a, b})
			}
		}
	}
	for _, f := range reports {
		a, b := f.a, f.b
		ia, ib := a.t.Events[a.ev].Instr, b.t.Events[b.ev].Instr
		if ib.Pos() < ia.Pos() {
			a, b, ia, ib = b, a, ib, ia
		}
		held := hb.Locks.Name(a.from)
		if held == "" {
			held = "another mutex"
		}
		c.report(ia.Pos(), "lock order inversion: %s is locked at %s while holding %s (%s), and the same two mutexes are taken in the opposite order at %s (%s); the two goroutines can deadlock",
			acquired(ia), c.pos(ia.Pos()), held, a.t.Origin.Describe(c.pass.Fset),
			c.pos(ib.Pos()), b.t.Origin.Describe(c.pass.Fset))
	}
}

// acquired names the mutex that a Lock call takes.
func acquired(instr ssa.Instruction) string {
	if call, ok := instr.(ssa.CallInstruction); ok {
		if _, mu := lockset.OpOf(call.Common()); mu != nil {
			if name := shb.ExprName(mu); name != "" {
				return name
			}
		}
	}
	return "a mutex"
}

// deadlocks reports whether the goroutines of a (from→to) and b (to→from)
// can each block on the lock the other holds.
func (c *checker) deadlocks(hb *shb.Result, a, b orderEdge, both map[*shb.Trace]map[[2]int32]bool) bool {
	if a.t == b.t {
		return false // one goroutine does one thing at a time
	}
	// Each must block: not both read locks, on either mutex.
	if a.fromRead && b.toRead || b.fromRead && a.toRead {
		return false
	}
	// A goroutine that takes both orders itself picks one at run time
	// (by comparing the instances' IDs, say).
	if both[a.t][[2]int32{a.to, a.from}] || both[b.t][[2]int32{b.to, b.from}] {
		return false
	}
	ea, eb := &a.t.Events[a.ev], &b.t.Events[b.ev]
	if c.gated(hb, ea.Locks, eb.Locks, a.from, b.from) {
		return false
	}
	return !hb.HappensBefore(a.t, a.ev, b.t, b.ev, false) && !hb.HappensBefore(b.t, b.ev, a.t, a.ev, false)
}

// gated reports whether the two acquisitions also hold a common lock
// besides the two in question: it keeps them apart.
func (c *checker) gated(hb *shb.Result, la, lb shb.LocksetID, skipA, skipB int32) bool {
	locsA, readA := hb.Locks.Members(la)
	locsB, readB := hb.Locks.Members(lb)
	for i, x := range locsA {
		if len(x) == 1 && x[0] == skipA {
			continue
		}
		for j, y := range locsB {
			if len(y) == 1 && y[0] == skipB {
				continue
			}
			if readA[i] && readB[j] {
				continue
			}
			for _, l := range x {
				if slices.Contains(y, l) {
					return true
				}
			}
		}
	}
	return false
}
