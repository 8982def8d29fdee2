// Package loops finds the loops of SSA functions.
package loops

import (
	"go/constant"
	"go/token"
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
//
// A counting loop that provably runs its body at most once ("for i :=
// 0; i < 1; i++", or n a constant 1) is no cycle: its edges back to the
// test are left out.
func Components(fn *ssa.Function) []int {
	once := onceLoops(fn)
	succs := func(v int) []int {
		var out []int
		for _, s := range fn.Blocks[v].Succs {
			if !once[[2]int{v, s.Index}] {
				out = append(out, s.Index)
			}
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

// onceLoops returns the back edges, as (from, to) block indices, of the
// counting loops of fn whose body runs at most once: the loop's test
// compares a counter with a constant bound, and the counter starts at a
// constant and grows by one on each edge back to the test.
func onceLoops(fn *ssa.Function) map[[2]int]bool {
	var back map[[2]int]bool
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		br, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		edges, ok := runsOnce(b, br)
		if !ok {
			continue
		}
		if back == nil {
			back = make(map[[2]int]bool)
		}
		for _, e := range edges {
			back[e] = true
		}
	}
	return back
}

// runsOnce reports whether the test br that ends block b lets the body
// of its loop run at most once, and returns the edges back to the loop's
// start. The test compares with a constant bound either the counter, at
// the top of the loop (for i := 0; i < n; i++), or the counter plus one,
// at its bottom (go/ssa's for i := range n).
func runsOnce(b *ssa.BasicBlock, br *ssa.If) ([][2]int, bool) {
	cmp, ok := br.Cond.(*ssa.BinOp)
	if !ok {
		return nil, false
	}
	op, v := cmp.Op, cmp.X
	bound, ok := IntConst(cmp.Y)
	if !ok {
		// The bound first: n > i is i < n.
		v = cmp.Y
		if bound, ok = IntConst(cmp.X); !ok {
			return nil, false
		}
		switch op {
		case token.GTR:
			op = token.LSS
		case token.GEQ:
			op = token.LEQ
		default:
			return nil, false
		}
	}
	if op != token.LSS && op != token.LEQ {
		return nil, false
	}
	if op == token.LEQ {
		bound++ // i <= n is i < n+1
	}
	if phi, ok := v.(*ssa.Phi); ok && phi.Block() == b {
		// At the top: the body runs while start, start+1, ... < bound.
		start, edges, ok := Counter(phi)
		return edges, ok && bound-start <= 1
	}
	inc, ok := v.(*ssa.BinOp)
	if !ok || inc.Op != token.ADD || !isOne(inc.Y) {
		return nil, false
	}
	phi, ok := inc.X.(*ssa.Phi)
	if !ok || phi.Block() != b.Succs[0] {
		return nil, false
	}
	// At the bottom: after the run with start, it runs again while
	// start+1 < bound.
	start, edges, ok := Counter(phi)
	return edges, ok && len(edges) == 1 && edges[0] == [2]int{b.Index, phi.Block().Index} && start+1 >= bound
}

// Counter returns the constant start of a loop counter phi and the
// edges back into its block (from a block's index to phi's), along
// which it grows by one.
func Counter(phi *ssa.Phi) (start int64, back [][2]int, ok bool) {
	starts := 0
	for i, v := range phi.Edges {
		if inc, ok := v.(*ssa.BinOp); ok && inc.Op == token.ADD && (inc.X == phi && isOne(inc.Y) || inc.Y == phi && isOne(inc.X)) {
			back = append(back, [2]int{phi.Block().Preds[i].Index, phi.Block().Index})
			continue
		}
		c, ok := IntConst(v)
		if !ok {
			return 0, nil, false
		}
		start, starts = c, starts+1
	}
	return start, back, starts == 1 && len(back) > 0
}

// IntConst returns the value of v, an integer constant that fits in an
// int64.
func IntConst(v ssa.Value) (int64, bool) {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(c.Value)
}

func isOne(v ssa.Value) bool {
	n, ok := IntConst(v)
	return ok && n == 1
}
