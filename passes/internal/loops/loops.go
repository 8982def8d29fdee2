// Package loops finds the loops of SSA functions.
package loops

import (
	"slices"

	"github.com/origo-dev/origo/passes/internal/scc"
	"golang.org/x/tools/go/ssa"
)

// Blocks reports, by block index, which blocks of fn lie on a cycle of
// its control-flow graph: the bodies of loops, and what a goto loops over.
func Blocks(fn *ssa.Function) []bool {
	comp := Components(fn)
	in := make([]bool, len(comp))
	for i, c := range comp {
		in[i] = c >= 0
	}
	return in
}

// Components numbers the loops of fn: by block index, the strongly
// connected component of the control-flow graph that holds the block if
// it lies on a cycle, or -1. Nested loops share the number of the
// outermost loop.
func Components(fn *ssa.Function) []int {
	succs := func(v int) []int {
		var out []int
		for _, s := range fn.Blocks[v].Succs {
			out = append(out, s.Index)
		}
		return out
	}
	comp := make([]int, len(fn.Blocks))
	n := 0
	for _, members := range scc.Components(len(fn.Blocks), succs) {
		cycle := len(members) > 1 || slices.Contains(succs(members[0]), members[0])
		for _, b := range members {
			comp[b] = -1
			if cycle {
				comp[b] = n
			}
		}
		if cycle {
			n++
		}
	}
	return comp
}

// Order returns fn's blocks in an order for walking its executions
// straight through: a block after its predecessors outside its loops,
// and the blocks of each loop together, before the blocks after the
// loop (reverse postorder alone may put a loop's exit before its body),
// and so within each loop, for the loops nested in it, with the edges
// back to its entry left out. Unreachable blocks are left out.
func Order(fn *ssa.Function) []*ssa.BasicBlock {
	rpo := ReversePostorder(fn)
	rank := make([]int, len(fn.Blocks))
	for i := range rank {
		rank[i] = -1
	}
	var all []int
	for i, b := range rpo {
		rank[b.Index] = i
		all = append(all, b.Index)
	}
	var order []*ssa.BasicBlock
	var walk func(members []int, head int)
	walk = func(members []int, head int) {
		local := make(map[int]int, len(members)) // block index → vertex
		for i, m := range members {
			local[m] = i
		}
		succs := func(v int) []int {
			var out []int
			for _, s := range fn.Blocks[members[v]].Succs {
				if w, ok := local[s.Index]; ok && s.Index != head {
					out = append(out, w)
				}
			}
			return out
		}
		comps := scc.Components(len(members), succs)
		for i := len(comps) - 1; i >= 0; i-- {
			c := comps[i]
			if len(c) == 1 && !slices.Contains(succs(c[0]), c[0]) {
				order = append(order, fn.Blocks[members[c[0]]])
				continue
			}
			inner := make([]int, len(c))
			for j, v := range c {
				inner[j] = members[v]
			}
			slices.SortFunc(inner, func(x, y int) int { return rank[x] - rank[y] })
			walk(inner, inner[0])
		}
	}
	walk(all, -1)
	return order
}

// ReversePostorder returns fn's reachable blocks in reverse postorder:
// a block comes after its predecessors, except along back edges.
func ReversePostorder(fn *ssa.Function) []*ssa.BasicBlock {
	if len(fn.Blocks) == 0 {
		return nil
	}
	var post []*ssa.BasicBlock
	seen := make([]bool, len(fn.Blocks))
	var visit func(b *ssa.BasicBlock)
	visit = func(b *ssa.BasicBlock) {
		seen[b.Index] = true
		for _, s := range b.Succs {
			if !seen[s.Index] {
				visit(s)
			}
		}
		post = append(post, b)
	}
	visit(fn.Blocks[0])
	slices.Reverse(post)
	return post
}
