package deadlock

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/analysis"
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
			if ev.Kind != shb.Acquire {
				continue
			}
			locs, reads := hb.Locks.Members(ev.Locks)
			if ev.Obj < 0 {
				c.noteEitherOrder(hb, t, &ev, locs) // unsure which mutex
				continue
			}
			for i, held := range locs {
				if len(held) != 1 {
					c.noteEitherOrder(hb, t, &ev, locs) // unsure which mutex
					continue
				}
				if held[0] == ev.Obj {
					// The same abstract one: two instances.
					c.noteSameSite(hb, t, &ev)
					continue
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
	pairs := slices.SortedFunc(maps.Keys(byPair), func(x, y [2]int32) int { return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1])) })
	for _, p := range pairs {
		if p[0] > p[1] {
			continue // met from the other side
		}
		rev := byPair[[2]int32{p[1], p[0]}]
		for _, a := range byPair[p] {
			for _, b := range rev {
				rule := c.ringRule(hb, []orderEdge{a, b}, both)
				c.noteInversion(hb, a, b, rule)
				if rule != "" {
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
	c.cycles(hb, pairs, byPair, both)
	c.noteOneOrder(hb, pairs, byPair)
	for _, f := range reports {
		a, b := f.a, f.b
		ia, ib := a.t.Events[a.ev].Instr, b.t.Events[b.ev].Instr
		if facts.ComparePos(c.pass.Fset, ib.Pos(), ia.Pos()) < 0 {
			a, b, ia, ib = b, a, ib, ia
		}
		held := c.heldName(hb, &a.t.Events[a.ev], a.from)
		// The other goroutine's two acquisitions: of the mutex it holds,
		// which this one waits for, then of the one it waits for.
		var rel []analysis.RelatedInformation
		if at, ok := c.acquiredAt(hb, b.t, b.ev, b.from); ok {
			rel = c.related(at.Pos(), "the other goroutine locks %s here", c.acquired(at))
		}
		// The other goroutine blocks in its second Lock: the other side of
		// the deadlock, which this one report shows.
		rel = append(rel, c.otherSide(ib.Pos(), "%s locks %s here while holding %s, which this goroutine takes in the opposite order",
			b.t.Origin.Describe(c.pass.Fset), c.acquired(ib), c.heldName(hb, &b.t.Events[b.ev], b.from))...)
		c.report(kinds.LockOrderInversion, ia.Pos(), rel, "lock order inversion: %s is locked at %s while holding %s (%s), and the same two mutexes are taken in the opposite order at %s (%s); the two goroutines can deadlock",
			c.acquired(ia), c.pos(ia.Pos()), held, a.t.Origin.Describe(c.pass.Fset),
			c.pos(ib.Pos()), b.t.Origin.Describe(c.pass.Fset))
		c.partner(ia.Pos(), b.t, b.ev)
		c.partner(ib.Pos(), a.t, a.ev)
	}
}

// acquiredAt returns the Lock call by which trace t holds the mutex at
// location lock at event ev: the one the lockset of ev's function holds
// (taken there or by a lock helper it calls), else one that comes before
// ev on every path (taken by a caller); false when neither is known.
func (c *checker) acquiredAt(hb *shb.Result, t *shb.Trace, ev int32, lock int32) (ssa.Instruction, bool) {
	instr := t.Events[ev].Instr
	loc := hb.Location(lock)
	for _, h := range c.ls.Before(instr) {
		if h.Unsure || h.At != "" || h.Value == nil || !h.Path.IsEmpty() {
			continue
		}
		if slices.Contains(c.ptr.PointsToIn(t.Origin, h.Value), loc) {
			for z := ev - 1; z >= 0; z-- {
				if a := t.Events[z]; a.Kind == shb.Acquire && a.Obj == lock && a.Instr.Pos() == h.Pos {
					return a.Instr, true
				}
			}
		}
	}
	if z := lockedBefore(t, ev, lock, false); z >= 0 {
		return t.Events[z].Instr, true
	}
	return nil, false
}

// acquired names the mutex that a Lock call takes, or that a call of
// another package's function takes inside it, with where.
func (c *checker) acquired(instr ssa.Instruction) string {
	call, ok := instr.(ssa.CallInstruction)
	if !ok {
		return "a mutex"
	}
	if _, mu := syncapi.MutexOp(call.Common()); mu != nil {
		if name := shb.ExprName(mu); name != "" {
			return name
		}
		return "a mutex"
	}
	for _, t := range c.ls.Takes(call.Common()) {
		if t.At != "" && t.Value != nil {
			callee := "the callee"
			if fn := call.Common().StaticCallee(); fn != nil {
				callee = facts.ShortName(fn.String())
			}
			return fmt.Sprintf("%s (by %s, at %s)", lockName(t), callee, c.where(t))
		}
	}
	return "a mutex"
}

// deadlocks reports whether the goroutines of a cycle of order edges,
// each acquiring the mutex that the next one holds, can all block at
// once. Each edge against the next: two different goroutines; the first
// does not take the reverse order itself (a goroutine that takes both
// orders picks one at run time, by comparing the instances' IDs, say);
// it blocks (not a read lock that the next holds for reading); no common
// gate lock keeps them apart; happens-before orders neither.
func (c *checker) deadlocks(hb *shb.Result, ring []orderEdge, both map[*shb.Trace]map[[2]int32]bool) bool {
	return c.ringRule(hb, ring, both) == ""
}

// ringRule returns the rule by which the first edge of ring that cannot
// block with the next one is ruled out (see pairRule), or "" when the
// goroutines of the cycle can all block at once.
func (c *checker) ringRule(hb *shb.Result, ring []orderEdge, both map[*shb.Trace]map[[2]int32]bool) rules.ID {
	for i, x := range ring {
		if rule := c.pairRule(hb, x, ring[(i+1)%len(ring)], both); rule != "" {
			return rule
		}
	}
	return ""
}

// pairRule returns the rule by which order edge x and the next edge of a
// cycle, y, cannot deadlock, or "" when they can.
func (c *checker) pairRule(hb *shb.Result, x, y orderEdge, both map[*shb.Trace]map[[2]int32]bool) rules.ID {
	if x.t == y.t {
		return rules.OneGoroutine // one goroutine does one thing at a time
	}
	if both[x.t][[2]int32{x.to, x.from}] {
		return rules.BothOrders
	}
	if x.toRead && y.fromRead {
		return rules.ReadLocks
	}
	ex, ey := &x.t.Events[x.ev], &y.t.Events[y.ev]
	if c.gated(hb, ex.Locks, ey.Locks, x.from, y.from) {
		return rules.GateLock
	}
	_, rule := c.order.Concurrent(x.t, x.ev, y.t, y.ev)
	return rule
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

// maxCycleEdges bounds the edges of each pair tried in a cycle of three:
// the acquisitions of one pair of locks are usually one call site.
const maxCycleEdges = 8

// maxCycle is the longest lock order cycle looked for, in mutexes.
const maxCycle = 4

// cycles reports three or four goroutines that take as many mutexes in a
// cycle: one locks b holding a, one c holding b, ..., the last a holding
// the one before, checked edge against next edge as a 2-cycle is (see
// deadlocks), each goroutine another. pairs are the keys of byPair,
// sorted.
func (c *checker) cycles(hb *shb.Result, pairs [][2]int32, byPair map[[2]int32][]orderEdge, both map[*shb.Trace]map[[2]int32]bool) {
	next := make(map[int32][]int32) // lock → the locks taken holding it
	for _, p := range pairs {
		next[p[0]] = append(next[p[0]], p[1])
	}
	var path []int32
	var walk func(l int32)
	walk = func(l int32) {
		path = append(path, l)
		defer func() { path = path[:len(path)-1] }()
		for _, m := range next[l] {
			switch {
			case m == path[0] && len(path) >= 3:
				steps := make([][]orderEdge, len(path))
				for i, from := range path {
					steps[i] = byPair[[2]int32{from, path[(i+1)%len(path)]}]
				}
				e, rule, detail := c.cycleOf(hb, steps, both)
				if rule == "" {
					c.reportCycle(hb, e)
				} else {
					c.noteCycle(hb, steps, rule, detail)
				}
			case m > path[0] && len(path) < maxCycle && !slices.Contains(path, m):
				// path[0] is the smallest of the cycle: each cycle once.
				walk(m)
			}
		}
	}
	for _, p := range pairs {
		if len(path) == 0 && (len(next[p[0]]) > 0) {
			walk(p[0])
		}
		delete(next, p[0]) // walked from, as the smallest: done
	}
}

// cycleOf returns one choice of an edge per step that deadlocks, trying
// at most maxCycleEdges edges of each step, each checked against the one
// before it as it is picked; when none does, the rule by which the first
// choice tried was ruled out (budget, when edges were left untried).
func (c *checker) cycleOf(hb *shb.Result, steps [][]orderEdge, both map[*shb.Trace]map[[2]int32]bool) ([]orderEdge, rules.ID, string) {
	pick := make([]orderEdge, 0, len(steps))
	var first rules.ID // the rule of the first choice ruled out
	rule := func(r rules.ID) bool {
		if first == "" {
			first = r
		}
		return r == ""
	}
	var try func(i int) bool
	try = func(i int) bool {
		if i == len(steps) {
			return rule(c.pairRule(hb, pick[i-1], pick[0], both))
		}
		for _, x := range steps[i][:min(len(steps[i]), maxCycleEdges)] {
			if slices.ContainsFunc(pick, func(y orderEdge) bool { return y.t == x.t }) {
				rule(rules.OneGoroutine) // one goroutine does one thing at a time
				continue
			}
			if i > 0 && !rule(c.pairRule(hb, pick[i-1], x, both)) {
				continue
			}
			pick = append(pick, x)
			if try(i + 1) {
				return true
			}
			pick = pick[:i]
		}
		return false
	}
	if try(0) {
		return pick, "", ""
	}
	for _, s := range steps {
		if len(s) > maxCycleEdges {
			return nil, rules.Budget, fmt.Sprintf("only %d acquisitions of each pair of mutexes are tried in a cycle", maxCycleEdges)
		}
	}
	return nil, first, ""
}

func (c *checker) reportCycle(hb *shb.Result, e []orderEdge) {
	var steps []string
	var rel []analysis.RelatedInformation
	for _, x := range e {
		instr := x.t.Events[x.ev].Instr
		held := c.heldName(hb, &x.t.Events[x.ev], x.from)
		steps = append(steps, fmt.Sprintf("%s is locked at %s while holding %s (%s)",
			c.acquired(instr), c.pos(instr.Pos()), held, x.t.Origin.Describe(c.pass.Fset)))
		rel = append(rel, c.related(instr.Pos(), "%s locked here while holding %s (%s)", c.acquired(instr), held, x.t.Origin.Describe(c.pass.Fset))...)
	}
	first := e[0].t.Events[e[0].ev].Instr
	c.report(kinds.LockOrderCycle, first.Pos(), rel, "lock order cycle: %s; the %s goroutines can deadlock", strings.Join(steps, "; "), countWord(len(e)))
	if c.why != nil {
		var rule rules.ID
		if c.ignored.Any(first.Pos()) {
			rule = rules.Ignored
		}
		for _, x := range e[1:] {
			c.why.note(x.t.Events[x.ev].Instr.Pos(), rule, "", "lock order cycle: %s; the %s goroutines can deadlock", strings.Join(steps, "; "), countWord(len(e)))
		}
	}
}

// countWord spells a small count.
func countWord(n int) string {
	if n >= 0 && n < len(countWords) {
		return countWords[n]
	}
	return strconv.Itoa(n)
}

var countWords = []string{"zero", "one", "two", "three", "four"}

// heldName names the mutex at location l that a goroutine holds when it
// is at event ev: as the function of ev names it when that is the one
// lock held, else by the first name the package gives the location.
func (c *checker) heldName(hb *shb.Result, ev *shb.Event, l int32) string {
	var own []lockset.Held
	for _, h := range c.ls.Before(ev.Instr) {
		if !h.Unsure {
			own = append(own, h)
		}
	}
	if len(own) == 1 && hb.Locks.Len(ev.Locks) == 1 {
		if name := lockName(own[0]); name != "the mutex" {
			return name
		}
	}
	if name := hb.Locks.Name(l); name != "" {
		return name
	}
	return "another mutex"
}
