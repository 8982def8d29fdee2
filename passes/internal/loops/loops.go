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
