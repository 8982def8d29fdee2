// Package blocks answers questions about the control-flow graph of one
// function that the analyzers share: loops and reachability.
package blocks

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// OnCycle reports whether block b is on a cycle of its function: in a
// loop.
func OnCycle(b *ssa.BasicBlock) bool { return Reaches(b, b) }

// Reaches reports whether a path of one or more steps leads from block
// a to block b.
func Reaches(a, b *ssa.BasicBlock) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	work := append([]*ssa.BasicBlock(nil), a.Succs...)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if x == b {
			return true
		}
		if !seen[x] {
			seen[x] = true
			work = append(work, x.Succs...)
		}
	}
	return false
}

// SelectBodies returns, by case index, the first block of the body of
// each case of sel, and the first block of its default's body (nil for
// a select without one): go/ssa tests the chosen index against each
// case in turn ("if index == i goto body else next"), and the last
// test's else is the default. A case it did not lay out so is nil.
func SelectBodies(sel *ssa.Select) (cases []*ssa.BasicBlock, dflt *ssa.BasicBlock) {
	cases = make([]*ssa.BasicBlock, len(sel.States))
	last := -1
	for _, r := range *sel.Referrers() {
		ex, ok := r.(*ssa.Extract)
		if !ok || ex.Index != 0 {
			continue
		}
		for _, use := range *ex.Referrers() {
			eq, ok := use.(*ssa.BinOp)
			if !ok || eq.Op != token.EQL || eq.X != ex {
				continue
			}
			k, ok := eq.Y.(*ssa.Const)
			if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
				continue
			}
			i := int(k.Int64())
			for _, u := range *eq.Referrers() {
				if br, ok := u.(*ssa.If); ok && br.Cond == eq && i >= 0 && i < len(cases) {
					cases[i] = br.Block().Succs[0]
					if i > last {
						last, dflt = i, br.Block().Succs[1]
					}
				}
			}
		}
	}
	if sel.Blocking || last != len(cases)-1 {
		dflt = nil
	}
	return cases, dflt
}

// ReachesEveryReturn reports whether instr's block dominates every
// return of its function, but the one after a recovered panic (the
// recover block of a function with defer).
func ReachesEveryReturn(instr ssa.Instruction) bool {
	fn := instr.Parent()
	for _, b := range fn.Blocks {
		if b == fn.Recover {
			continue
		}
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && !instr.Block().Dominates(b) {
			return false
		}
	}
	return true
}

// PassesFirst reports whether every path from the blocks start, taken
// in turn, reaches instruction y's block before it returns or comes to
// block back (nil for none).
func PassesFirst(start []*ssa.BasicBlock, y ssa.Instruction, back *ssa.BasicBlock) bool {
	yb := y.Block()
	seen := make(map[*ssa.BasicBlock]bool)
	work := append([]*ssa.BasicBlock(nil), start...)
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == yb || seen[b] {
			continue
		}
		seen[b] = true
		if b == back || len(b.Succs) == 0 {
			return false // back, or returned, without passing y
		}
		work = append(work, b.Succs...)
	}
	return true
}
