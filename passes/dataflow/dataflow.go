// Package dataflow solves forward dataflow problems over the blocks of
// an SSA function: the one fixed-point loop that origo's flow-sensitive
// passes (must-held locks, locks released on every path, mutexes already
// unlocked) share; and the reachability of blocks through branches
// whose condition is known (a constant, a constant argument).
package dataflow

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Precedes reports whether a comes before b on every path to b, in one
// function: a's block dominates b's, and a is earlier in it when they
// share one.
func Precedes(a, b ssa.Instruction) bool {
	if a.Block() != b.Block() {
		return a.Block().Dominates(b.Block())
	}
	instrs := a.Block().Instrs
	return slices.Index(instrs, a) < slices.Index(instrs, b)
}

// MayPrecede reports whether instruction a may run before instruction
// b of the same function in one call: a comes first in their block, or
// a path of one or more edges leads from a's block to b's.
func MayPrecede(a, b ssa.Instruction) bool {
	ab := a.Block()
	if ab == b.Block() && slices.Index(ab.Instrs, a) < slices.Index(ab.Instrs, b) {
		return true
	}
	return Reaches(ab, b.Block(), nil)
}

// Reaches reports whether some path of one or more edges leads from
// block from to block to without going through block avoid (nil: any).
func Reaches(from, to, avoid *ssa.BasicBlock) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	work := []*ssa.BasicBlock{from}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range b.Succs {
			if s == to {
				return true
			}
			if s == avoid || seen[s] {
				continue
			}
			seen[s] = true
			work = append(work, s)
		}
	}
	return false
}

// Forward is a forward dataflow problem with states of type S. The
// entry block starts with the zero S; a block not yet reached from it is
// not visited.
type Forward[S any] struct {
	// Order lists the blocks in the order each round visits them, the
	// entry first: reverse postorder converges fastest.
	Order []*ssa.BasicBlock
	// Round, when set, is called before each round. The solver stops
	// after a round that changed nothing, which saw every block with its
	// final state: what Transfer collects (returns, findings) is reset
	// here and is complete when Solve returns.
	Round func()
	// Transfer returns the state at the end of b from in, the state at
	// its start.
	Transfer func(b *ssa.BasicBlock, in S) S
	// Edge, when set, returns the state that flows from b's end, out,
	// along its edge to b.Succs[i].
	Edge func(b *ssa.BasicBlock, i int, out S) S
	// Live, when set, says whether the edge from b to b.Succs[i] may be
	// taken: no state flows along one that may not.
	Live func(b *ssa.BasicBlock, i int) bool
	// Meet combines the states that two edges bring into a block.
	Meet func(x, y S) S
	// Equal reports whether a meet left the state unchanged.
	Equal func(x, y S) bool
}

// Solve runs the problem to a fixed point over the blocks of fn and
// returns the state at the start of each block, by block index.
func (p *Forward[S]) Solve(fn *ssa.Function) []S {
	in := make([]S, len(fn.Blocks))
	if len(fn.Blocks) == 0 {
		return in
	}
	seen := make([]bool, len(fn.Blocks))
	seen[p.Order[0].Index] = true
	for changed := true; changed; {
		changed = false
		if p.Round != nil {
			p.Round()
		}
		for _, b := range p.Order {
			if !seen[b.Index] {
				continue
			}
			s := p.Transfer(b, in[b.Index])
			for i, succ := range b.Succs {
				if p.Live != nil && !p.Live(b, i) {
					continue
				}
				out := s
				if p.Edge != nil {
					out = p.Edge(b, i, out)
				}
				switch {
				case !seen[succ.Index]:
					in[succ.Index], seen[succ.Index] = out, true
					changed = true
				default:
					if m := p.Meet(in[succ.Index], out); !p.Equal(m, in[succ.Index]) {
						in[succ.Index] = m
						changed = true
					}
				}
			}
		}
	}
	return in
}

// Reachable returns, by block index, the blocks of fn reachable from its
// entry, where an If whose condition decide decides (ok) takes only the
// branch its value selects.
func Reachable(fn *ssa.Function, decide func(cond ssa.Value) (value, ok bool)) []bool {
	seen := make([]bool, len(fn.Blocks))
	if len(fn.Blocks) == 0 {
		return seen
	}
	work := []*ssa.BasicBlock{fn.Blocks[0]}
	seen[0] = true
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		succs := b.Succs
		if len(b.Instrs) > 0 && len(succs) == 2 {
			if br, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If); ok {
				if v, ok := decide(br.Cond); ok {
					if v {
						succs = succs[:1] // the true branch
					} else {
						succs = succs[1:]
					}
				}
			}
		}
		for _, s := range succs {
			if !seen[s.Index] {
				seen[s.Index] = true
				work = append(work, s)
			}
		}
	}
	return seen
}

// RangeUnevaluated reports whether load is go/ssa's load of the range
// expression of for i := range x over an array, which nothing uses: the
// Go spec does not evaluate x there (at most one iteration variable and
// a constant length), so the load reads nothing. (_ = x, which the spec
// does evaluate, is not one: its block does not enter a range loop.)
func RangeUnevaluated(load *ssa.UnOp) bool {
	if load.Op != token.MUL {
		return false
	}
	if _, ok := load.Type().Underlying().(*types.Array); !ok {
		return false
	}
	if refs := load.Referrers(); refs != nil && len(*refs) > 0 {
		return false
	}
	b := load.Block()
	return b != nil && len(b.Succs) == 1 && b.Succs[0].Comment == "rangeindex.loop"
}
