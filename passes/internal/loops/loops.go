// Package loops finds the loops of SSA functions.
package loops

import "golang.org/x/tools/go/ssa"

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
	n := len(fn.Blocks)
	comp := make([]int, n)
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	selfLoop := make([]bool, n)
	for i := range index {
		index[i] = -1
		comp[i] = -1
	}
	var stack []int
	next, ncomp := 0, 0
	var strong func(v int)
	strong = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, s := range fn.Blocks[v].Succs {
			w := s.Index
			if w == v {
				selfLoop[v] = true
			}
			if index[w] < 0 {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			top := len(stack) - 1
			for stack[top] != v {
				top--
			}
			members := stack[top:]
			if len(members) > 1 || selfLoop[v] {
				for _, w := range members {
					comp[w] = ncomp
				}
				ncomp++
			}
			for _, w := range members {
				onStack[w] = false
			}
			stack = stack[:top]
		}
	}
	for v := range fn.Blocks {
		if index[v] < 0 {
			strong(v)
		}
	}
	return comp
}
