// Package scc finds the strongly connected components of a graph.
package scc

// Components returns the strongly connected components of the graph of
// n vertices 0..n-1 whose edges succs gives, in reverse topological
// order (a component comes after every component it reaches), each
// component's vertices in the order they were found (Tarjan's algorithm).
// Vertices are visited from 0 up, so the result is deterministic.
func Components(n int, succs func(v int) []int) [][]int {
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	var out [][]int
	next := 0
	var strong func(v int)
	strong = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range succs(v) {
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
			comp := append([]int(nil), stack[top:]...)
			for _, w := range comp {
				onStack[w] = false
			}
			stack = stack[:top]
			out = append(out, comp)
		}
	}
	for v := range n {
		if index[v] < 0 {
			strong(v)
		}
	}
	return out
}
