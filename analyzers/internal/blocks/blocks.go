// Package blocks answers questions about the control-flow graph of one
// function that the analyzers share: loops and reachability.
package blocks

import "golang.org/x/tools/go/ssa"

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
