package blocking

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/passes/syncapi"

	"golang.org/x/tools/go/ssa"
)

// The classic goroutine leak: a function makes an unbuffered channel,
// starts a goroutine that sends its result on it, and receives the
// result, but not on every path:
//
//	ch := make(chan int)
//	go func() { ch <- compute() }()
//	select {
//	case v := <-ch: ...
//	case <-ctx.Done(): return ctx.Err() // the send now blocks forever
//	}
//
// or starts such goroutines in a loop and receives once. The channel
// must be the function's own (used only by its receives, the go
// statements it is given to, and their sends), so that no one else can
// receive what is left.

// leaks reports the sends of goroutines that the function that started
// them may stop listening to.
func (c *checker) leaks() {
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeChan); ok && unbuffered(mc) {
					c.leak(fn, mc)
				}
			}
		}
	}
}

// resultChan is what leak finds about one channel: the receives of its
// function, the go statements it is given to, and the sends of those
// goroutines.
type resultChan struct {
	recvs   []ssa.Instruction // plain receives and select receives
	caseAt  []*ssa.BasicBlock // for each receive, the block that runs when it happened (nil: its own)
	spawns  []*ssa.Go         // the go statements given the channel
	sends   []*ssa.Send       // the goroutines' plain sends
	guarded bool              // a goroutine sends in a select too
}

func (c *checker) leak(fn *ssa.Function, mc *ssa.MakeChan) {
	rc := new(resultChan)
	if !c.ownUses(mc, rc, 0) || len(rc.recvs) == 0 || len(rc.spawns) == 0 || len(rc.sends) == 0 || rc.guarded {
		return
	}
	recvBlocks := make(map[*ssa.BasicBlock]bool)
	for _, b := range fn.Blocks {
		if failsTest(b) {
			recvBlocks[b] = true // a test that failed may leave a goroutine behind
		}
	}
	inLoop := false
	for i, r := range rc.recvs {
		b := rc.caseAt[i]
		if b == nil {
			b = r.Block()
		}
		recvBlocks[b] = true
		inLoop = inLoop || onCycle(b, nil)
	}
	for _, spawn := range rc.spawns {
		if inLoop && onCycle(spawn.Block(), nil) {
			continue // as many receives as goroutines, or not: it depends on values
		}
		if ret := returnWithout(spawn, recvBlocks); ret != nil {
			for _, s := range rc.sends {
				c.report(s, s.Pos(), "send blocks forever when %s returns early: the goroutine started at %s sends on %s (made at %s, unbuffered), and %s may return at %s without receiving it; give the channel a buffer of one or select on a done channel",
					fn.Name(), c.pos(spawn.Pos()), c.chanName(mc), c.pos(mc.Pos()), fn.Name(), c.pos(returnPos(ret)))
			}
			return
		}
		if !inLoop && onCycle(spawn.Block(), recvBlocks) {
			for _, s := range rc.sends {
				c.report(s, s.Pos(), "send blocks forever: the goroutines started at %s in a loop each send on %s (made at %s, unbuffered), and %s receives from it once, at %s: all but one block forever; give the channel a buffer of one per goroutine",
					c.pos(spawn.Pos()), c.chanName(mc), c.pos(mc.Pos()), fn.Name(), c.pos(rc.recvs[0].Pos()))
			}
			return
		}
	}
}

// ownUses follows the uses of channel value v in the function that
// made it: receives, go statements given it, and the variable it is
// kept in. False when it has another use: then others may receive.
func (c *checker) ownUses(v ssa.Value, rc *resultChan, depth int) bool {
	if depth > 2 {
		return false
	}
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.UnOp:
			if r.Op != token.ARROW {
				return false
			}
			rc.recvs = append(rc.recvs, r)
			rc.caseAt = append(rc.caseAt, nil)
		case *ssa.Select:
			for i, st := range r.States {
				if st.Chan != v {
					continue
				}
				if st.Dir == types.SendOnly {
					return false
				}
				b := caseBlock(r, i)
				if b == nil {
					return false
				}
				rc.recvs = append(rc.recvs, r)
				rc.caseAt = append(rc.caseAt, b)
			}
		case *ssa.Store:
			cell, ok := r.Addr.(*ssa.Alloc)
			if !ok || r.Val != v {
				return false
			}
			for _, cr := range *cell.Referrers() {
				switch cr := cr.(type) {
				case *ssa.Store:
					if cr != r {
						return false
					}
				case *ssa.UnOp:
					if cr.Op != token.MUL || !c.ownUses(cr, rc, depth+1) {
						return false
					}
				case *ssa.MakeClosure:
					if !c.spawned(cr, cell, rc) {
						return false
					}
				case *ssa.DebugRef:
				default:
					return false
				}
			}
		case *ssa.MakeClosure:
			if !c.spawned(r, v, rc) {
				return false
			}
		case *ssa.ChangeType: // chan int to chan<- int
			if !c.ownUses(r, rc, depth+1) {
				return false
			}
		case *ssa.Go:
			callee := r.Call.StaticCallee()
			i := slices.Index(r.Call.Args, v)
			if callee == nil || callee.Pkg != c.pkg || i < 0 || r.Call.IsInvoke() || !goroutineSends(callee.Params[i], rc, 0) {
				return false
			}
			rc.spawns = append(rc.spawns, r)
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// spawned reports whether closure mc, which captures v, is only started
// with a go statement and only sends on v; it records the go statement.
func (c *checker) spawned(mc *ssa.MakeClosure, v ssa.Value, rc *resultChan) bool {
	fn := mc.Fn.(*ssa.Function)
	i := slices.Index(mc.Bindings, v)
	if i < 0 {
		return false
	}
	var spawn *ssa.Go
	for _, r := range *mc.Referrers() {
		g, ok := r.(*ssa.Go)
		if !ok || g.Call.Value != mc || spawn != nil {
			return false
		}
		spawn = g
	}
	if spawn == nil || !goroutineSends(fn.FreeVars[i], rc, 0) {
		return false
	}
	rc.spawns = append(rc.spawns, spawn)
	return true
}

// goroutineSends reports whether the goroutine's only use of channel v
// (a parameter or free variable, or the variable holding it) is to send
// on it, there or in a function of the package it passes it to.
func goroutineSends(v ssa.Value, rc *resultChan, depth int) bool {
	if depth > 2 {
		return false
	}
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.Send:
			if r.Chan != v || r.X == v {
				return false
			}
			rc.sends = append(rc.sends, r)
		case *ssa.Select:
			for _, st := range r.States {
				if st.Chan == v && st.Dir != types.SendOnly {
					return false
				}
			}
			rc.guarded = true
		case *ssa.UnOp:
			if r.Op != token.MUL || !goroutineSends(r, rc, depth+1) {
				return false // a receive, or a load of the variable
			}
		case *ssa.Call:
			callee := r.Call.StaticCallee()
			i := slices.Index(r.Call.Args, v)
			if callee == nil || callee.Blocks == nil || i < 0 || r.Call.IsInvoke() || !goroutineSends(callee.Params[i], rc, depth+1) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// failsTest reports whether block b reports a test failure or skip
// (t.Errorf, t.Fatal, t.Skip): the paths through it are a failed test's.
func failsTest(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		if call, ok := instr.(ssa.CallInstruction); ok {
			switch syncapi.TestReport(call.Common()) {
			case "", "Log", "Logf":
			default:
				return true
			}
		}
	}
	return false
}

// caseBlock returns the block that runs when case i of select sel is
// chosen: the true branch of the test of its index.
func caseBlock(sel *ssa.Select, i int) *ssa.BasicBlock {
	for _, r := range *sel.Referrers() {
		ex, ok := r.(*ssa.Extract)
		if !ok || ex.Index != 0 {
			continue
		}
		for _, rr := range *ex.Referrers() {
			eq, ok := rr.(*ssa.BinOp)
			if !ok || eq.Op != token.EQL {
				continue
			}
			k, ok := eq.Y.(*ssa.Const)
			if !ok || k.Value == nil || k.Int64() != int64(i) {
				continue
			}
			for _, use := range *eq.Referrers() {
				if ifInstr, ok := use.(*ssa.If); ok {
					return ifInstr.Block().Succs[0]
				}
			}
		}
	}
	return nil
}

// returnWithout returns a return of spawn's function that a path from
// spawn reaches without going through a block of recv; nil when there
// is none.
func returnWithout(spawn *ssa.Go, recv map[*ssa.BasicBlock]bool) *ssa.Return {
	start := spawn.Block()
	if recv[start] {
		// A receive in the go statement's own block comes after it if
		// the block is no select case.
		return nil
	}
	seen := map[*ssa.BasicBlock]bool{start: true}
	work := []*ssa.BasicBlock{start}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			return ret
		}
		for _, s := range b.Succs {
			if !seen[s] && !recv[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return nil
}

// returnPos is where a return is: its statement, or the function's
// closing brace for the implicit one.
func returnPos(ret *ssa.Return) token.Pos {
	if ret.Pos().IsValid() {
		return ret.Pos()
	}
	if syn := ret.Parent().Syntax(); syn != nil {
		return syn.End()
	}
	return ret.Parent().Pos()
}

// onCycle reports whether a path leads from b back to b without going
// through a block of avoid.
func onCycle(b *ssa.BasicBlock, avoid map[*ssa.BasicBlock]bool) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	work := slices.Clone(b.Succs)
	for len(work) > 0 {
		s := work[len(work)-1]
		work = work[:len(work)-1]
		if s == b {
			return true
		}
		if !seen[s] && !avoid[s] {
			seen[s] = true
			work = append(work, s.Succs...)
		}
	}
	return false
}
