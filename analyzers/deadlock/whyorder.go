package deadlock

import (
	"fmt"
	"slices"
	"strings"

	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// What -why says of the lock order edges (a goroutine locks one mutex
// while holding another) that are no side of an inversion or a cycle.

// noteOneOrder notes each order edge that no goroutine takes the other
// way, directly or around a cycle of mutexes: the mutexes are taken in
// one order. An edge on a cycle that the search for cycles does not
// look at (more mutexes than maxCycle) is past a bound.
func (c *checker) noteOneOrder(hb *shb.Result, pairs [][2]int32, byPair map[[2]int32][]orderEdge) {
	if c.why == nil {
		return
	}
	comp := components(pairs)
	for _, p := range pairs {
		if len(byPair[[2]int32{p[1], p[0]}]) > 0 {
			continue // a candidate inversion (see noteInversion)
		}
		rule, detail := rules.OneOrder, ""
		if comp[p[0]] == comp[p[1]] {
			if c.onShortCycle(pairs, p) {
				continue // a candidate cycle (see noteCycle)
			}
			rule, detail = rules.Budget, fmt.Sprintf("a cycle of more than %d mutexes is not looked for", maxCycle)
		}
		for _, e := range byPair[p] {
			at := e.t.Events[e.ev].Instr.Pos()
			if !c.why.wants(at) {
				continue
			}
			if rule == rules.OneOrder {
				detail = fmt.Sprintf("no goroutine locks %s while holding %s, nor around a cycle of mutexes", c.lockLabel(hb, e.from), c.lockLabel(hb, e.to))
			}
			c.why.note(at, rule, detail, "lock order inversion: %s locked at %s holding %s (%s)",
				c.lockLabel(hb, e.to), c.pos(at), c.lockLabel(hb, e.from), e.t.Origin.Describe(c.pass.Fset))
		}
	}
}

// lockLabel names the mutex at location l, for -why: as the code names
// it, and by where its object is made, which tells apart the mutexes of
// two objects of one type.
func (c *checker) lockLabel(hb *shb.Result, l int32) string {
	name := hb.Locks.Name(l)
	if at := hb.Location(l).Obj.MadeAt(); at != nil && at.Pos().IsValid() {
		if name == "" {
			return "the mutex of the object made at " + c.pos(at.Pos())
		}
		return name + " (made at " + c.pos(at.Pos()) + ")"
	}
	if name == "" {
		return "a mutex"
	}
	return name
}

// components returns the strongly connected component of each lock of
// the order graph whose edges are pairs (Tarjan's): two locks of one
// component are on a cycle of the graph.
func components(pairs [][2]int32) map[int32]int {
	next := make(map[int32][]int32)
	var nodes []int32
	for _, p := range pairs {
		next[p[0]] = append(next[p[0]], p[1])
		for _, n := range p {
			if !slices.Contains(nodes, n) {
				nodes = append(nodes, n)
			}
		}
	}
	index := make(map[int32]int)
	low := make(map[int32]int)
	on := make(map[int32]bool)
	comp := make(map[int32]int)
	var stack []int32
	n := 0
	var visit func(v int32)
	visit = func(v int32) {
		index[v], low[v] = n, n
		n++
		stack = append(stack, v)
		on[v] = true
		for _, w := range next[v] {
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp[w] = index[v]
				if w == v {
					break
				}
			}
		}
	}
	for _, v := range nodes {
		if _, seen := index[v]; !seen {
			visit(v)
		}
	}
	return comp
}

// onShortCycle reports whether the edge p is on a cycle of the order
// graph of at most maxCycle mutexes: one that cycles looks at.
func (c *checker) onShortCycle(pairs [][2]int32, p [2]int32) bool {
	next := make(map[int32][]int32)
	for _, q := range pairs {
		next[q[0]] = append(next[q[0]], q[1])
	}
	// A path back from p[1] to p[0] of at most maxCycle-1 edges.
	var from func(l int32, depth int) bool
	from = func(l int32, depth int) bool {
		if l == p[0] {
			return true
		}
		if depth == 0 {
			return false
		}
		return slices.ContainsFunc(next[l], func(m int32) bool { return from(m, depth-1) })
	}
	return from(p[1], maxCycle-1)
}

// noteCycle notes the verdict on a cycle of three or four mutexes, one
// step per pair, at the acquisitions of each step.
func (c *checker) noteCycle(hb *shb.Result, steps [][]orderEdge, rule rules.ID, detail string) {
	var names []string
	for _, s := range steps {
		names = append(names, c.lockLabel(hb, s[0].from))
	}
	names = append(names, names[0])
	for _, s := range steps {
		for _, e := range s {
			at := e.t.Events[e.ev].Instr.Pos()
			c.why.note(at, rule, detail, "lock order cycle: %s, with %s locked at %s holding %s (%s)",
				strings.Join(names, " → "), c.lockLabel(hb, e.to), c.pos(at), c.lockLabel(hb, e.from), e.t.Origin.Describe(c.pass.Fset))
		}
	}
}

// noteEitherOrder notes an acquisition whose mutex, or a mutex it holds,
// may be either of two or more: when both are among both, the goroutine
// takes the two in an order it picks at run time (by comparing IDs).
func (c *checker) noteEitherOrder(hb *shb.Result, t *shb.Trace, ev *shb.Event, held [][]int32) {
	at := ev.Instr.Pos()
	if !c.why.wants(at) {
		return
	}
	var taken []pointer.Location
	if ev.Obj >= 0 {
		taken = []pointer.Location{hb.Location(ev.Obj)}
	} else if call, ok := ev.Instr.(ssa.CallInstruction); ok {
		if _, mu := syncapi.MutexOp(call.Common()); mu != nil {
			taken = c.ptr.PointsToIn(t.Origin, mu)
		}
	}
	for _, h := range held {
		both := 0
		for _, l := range h {
			if slices.Contains(taken, hb.Location(l)) {
				both++
			}
		}
		if both < 2 {
			continue
		}
		var names []string
		for _, l := range h {
			names = append(names, c.lockLabel(hb, l))
		}
		c.why.note(at, rules.BothOrders, fmt.Sprintf("the mutex it locks and the one it holds are each one of %s, whichever the run picks", strings.Join(names, ", ")),
			"lock order inversion: %s locked at %s holding one of %s (%s)", c.acquired(ev.Instr), c.pos(at), strings.Join(names, ", "), t.Origin.Describe(c.pass.Fset))
	}
}

// noteSameSite notes an acquisition that holds a mutex made at the same
// place as the one it locks, where that place makes more than one (see
// singleton): two objects, two mutexes (a list's nodes locked hand over
// hand).
func (c *checker) noteSameSite(hb *shb.Result, t *shb.Trace, ev *shb.Event) {
	at := ev.Instr.Pos()
	if !c.why.wants(at) || c.singleton(t.Origin, hb.Location(ev.Obj)) {
		return
	}
	if call, ok := ev.Instr.(ssa.CallInstruction); ok {
		held := c.ls.Before(ev.Instr)
		for _, t := range c.ls.Takes(call.Common()) {
			if _, ok := held.Find(t.Key); ok {
				return // the same mutex: a double lock, or two read locks (see checkCall)
			}
		}
	}
	name := c.lockLabel(hb, ev.Obj)
	c.why.note(at, rules.OtherInstance, fmt.Sprintf("the mutex it holds is made at the same place as %s: another object's", name),
		"lock order inversion: %s locked at %s holding %s (%s)", name, c.pos(at), name, t.Origin.Describe(c.pass.Fset))
}
