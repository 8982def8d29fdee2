package blocking

import (
	"fmt"
	"slices"

	"github.com/origo-dev/origo/analyzers/internal/blocks"
	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// A WaitGroup and a channel waiting for each other:
//
//	for _, x := range xs {
//		wg.Add(1)
//		go func() { defer wg.Done(); results <- f(x) }()
//	}
//	wg.Wait() // waits for Done, which waits for the send
//	close(results)
//	for r := range results { ... } // the receive comes only after Wait
//
// Each goroutine calls Done only after its send on an unbuffered
// channel completes, and the function receives from the channel only
// after Wait returns: neither proceeds.

// waitsFirst reports, and says whether it did, a Wait of fn that every
// receive of fn from the channel mc makes comes after, on a WaitGroup
// whose Done every goroutine given the channel calls only after a send
// on it.
func (c *checker) waitsFirst(fn *ssa.Function, mc *ssa.MakeChan, rc *resultChan) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			op, wg := syncapi.WaitGroup(call.Common())
			if op != syncapi.WaitGroupWait || !beforeEvery(call, rc) {
				continue
			}
			var send *ssa.Send
			for _, spawn := range rc.spawns {
				s := doneAfterSend(spawn, wg, rc.sends)
				if s == nil {
					if c.why.at(call.Pos()) && callsDone(spawn, wg) {
						c.why.note(call.Pos(), fmt.Sprintf("WaitGroup.Wait blocks forever? %s receives from %s only after this Wait, and its goroutines call Done on %s", fn.Name(), c.chanName(mc), c.valueName(wg, "the WaitGroup")),
							why(rules.Partner, "the goroutine started at %s may call Done before its send on %s", c.pos(spawn.Pos()), c.chanName(mc)))
					}
					send = nil
					break
				}
				send = s
			}
			if send == nil {
				continue
			}
			rel := slices.Concat(c.related(rc.spawns[0].Pos(), "the goroutine is started here"), c.madeAt(mc),
				c.related(send.Pos(), "it sends here, before Done"))
			c.report(kinds.WaitGroupBlocks, call, call.Pos(), rel, "WaitGroup.Wait blocks forever: the goroutine started at %s calls Done on %s only after it sends on %s (made at %s, unbuffered) at %s, and %s receives from %s only after this Wait: each waits for the other; receive before waiting, or buffer the channel for every send",
				c.pos(rc.spawns[0].Pos()), c.valueName(wg, "the WaitGroup"), c.chanName(mc), c.pos(mc.Pos()), c.pos(send.Pos()), fn.Name(), c.chanName(mc))
			return true
		}
	}
	return false
}

// beforeEvery reports whether call comes before every receive of rc on
// every path: it dominates each.
func beforeEvery(call *ssa.Call, rc *resultChan) bool {
	for i, r := range rc.recvs {
		if e := rc.caseAt[i]; e.to != nil {
			if !call.Block().Dominates(e.from) || call.Block() == e.from && !pointer.Dominates(call, r) {
				return false
			}
			continue
		}
		if !pointer.Dominates(call, r) {
			return false
		}
	}
	return true
}

// doneAfterSend returns a send of sends that, in the goroutine spawn
// starts, comes before every Done on the WaitGroup wg of the starter
// (or the deferred Done, which runs at return); nil when a Done may
// come first, or there is none.
func doneAfterSend(spawn *ssa.Go, wg ssa.Value, sends []*ssa.Send) *ssa.Send {
	g, bound := spawnedFunc(spawn)
	if g == nil {
		return nil
	}
	var found *ssa.Send
	dones := 0
	for _, b := range g.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			op, v := syncapi.WaitGroup(call.Common())
			if op != syncapi.WaitGroupDone || bound(v) != wg {
				continue
			}
			dones++
			s := sendBefore(call, sends)
			if s == nil {
				return nil
			}
			found = s
		}
	}
	if dones == 0 {
		return nil
	}
	return found
}

// callsDone reports whether the goroutine spawn starts calls Done on
// the starter's WaitGroup wg.
func callsDone(spawn *ssa.Go, wg ssa.Value) bool {
	g, bound := spawnedFunc(spawn)
	if g == nil {
		return false
	}
	for _, b := range g.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				if op, v := syncapi.WaitGroup(call.Common()); op == syncapi.WaitGroupDone && bound(v) == wg {
					return true
				}
			}
		}
	}
	return false
}

// spawnedFunc returns the function a go statement starts and a mapping
// from its free variables and parameters to what the starter gives.
func spawnedFunc(spawn *ssa.Go) (*ssa.Function, func(ssa.Value) ssa.Value) {
	if mc, ok := spawn.Call.Value.(*ssa.MakeClosure); ok {
		fn := mc.Fn.(*ssa.Function)
		return fn, func(v ssa.Value) ssa.Value {
			if fv, ok := v.(*ssa.FreeVar); ok {
				if i := slices.Index(fn.FreeVars, fv); i >= 0 {
					return mc.Bindings[i]
				}
			}
			return nil
		}
	}
	fn := spawn.Call.StaticCallee()
	if fn == nil || spawn.Call.IsInvoke() {
		return nil, nil
	}
	return fn, func(v ssa.Value) ssa.Value {
		if p, ok := v.(*ssa.Parameter); ok {
			if i := slices.Index(fn.Params, p); i >= 0 && i < len(spawn.Call.Args) {
				return spawn.Call.Args[i]
			}
		}
		return nil
	}
}

// sendBefore returns a send of sends in done's function that runs
// before done on every path: it dominates done or, for a deferred
// Done, every return.
func sendBefore(done ssa.CallInstruction, sends []*ssa.Send) *ssa.Send {
	for _, s := range sends {
		if s.Parent() != done.Parent() {
			continue
		}
		if _, deferred := done.(*ssa.Defer); deferred {
			if blocks.ReachesEveryReturn(s) {
				return s
			}
			continue
		}
		if pointer.Dominates(s, done) {
			return s
		}
	}
	return nil
}
