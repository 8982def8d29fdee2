package blocking

import (
	"fmt"
	"go/constant"
	"slices"

	"github.com/origo-dev/origo/analyzers/internal/blocks"
	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// A WaitGroup that a function makes for the goroutines it starts is
// judged by its counting: Wait returns once the Dones have matched the
// Adds, so it waits forever when a goroutine may return without its Done
//
//	wg.Add(1)
//	go func() {
//		if err := step(); err != nil {
//			return // Done skipped: Wait below never returns
//		}
//		wg.Done()
//	}()
//	wg.Wait()
//
// or when Add counts more than the goroutines started call Done
// (wg.Add(3) for two go statements). Only a WaitGroup of the function's
// own, used by nothing but its Add, Done and Wait calls and the
// goroutines it starts (a closure, or a function of the package given
// &wg), is judged.

// localWaitGroup is what wgCounts finds about one WaitGroup: its calls
// in the function that makes it, and the goroutines given it.
type localWaitGroup struct {
	adds, waits []*ssa.Call
	doneHere    bool // the function calls Done itself
	spawns      []*ssa.Go
	inner       []ssa.Value // for each spawn, the WaitGroup there
}

// wgCounts reports the Waits of the package's functions that their
// goroutines' Dones may never match.
func (c *checker) wgCounts() {
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if a, ok := instr.(*ssa.Alloc); ok && syncapi.PointerTo(a.Type(), "WaitGroup") {
					if wg, ok := c.localWG(a); ok && len(wg.waits) > 0 && len(wg.spawns) > 0 {
						c.judgeCount(a, wg)
					}
				}
			}
		}
	}
}

// localWG collects the uses of the WaitGroup a; false when it has
// another. A go statement of another package's function that contains
// the WaitGroup (see effects.Result.Contained) is a spawn whose inner
// value is nil.
func (c *checker) localWG(a *ssa.Alloc) (*localWaitGroup, bool) {
	wg := new(localWaitGroup)
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			switch op, v := syncapi.WaitGroup(r.Common()); {
			case v != a:
				return nil, false
			case op == syncapi.WaitGroupAdd:
				wg.adds = append(wg.adds, r)
			case op == syncapi.WaitGroupWait:
				wg.waits = append(wg.waits, r)
			case op == syncapi.WaitGroupDone:
				wg.doneHere = true
			default:
				return nil, false
			}
		case *ssa.MakeClosure:
			i := slices.Index(r.Bindings, ssa.Value(a))
			fn, _ := r.Fn.(*ssa.Function)
			var spawn *ssa.Go
			for _, u := range *r.Referrers() {
				g, ok := u.(*ssa.Go)
				if !ok || g.Call.Value != r || spawn != nil {
					return nil, false
				}
				spawn = g
			}
			if spawn == nil || fn == nil {
				return nil, false
			}
			wg.spawns = append(wg.spawns, spawn)
			wg.inner = append(wg.inner, fn.FreeVars[i])
		case *ssa.Go:
			fn := r.Call.StaticCallee()
			i := slices.Index(r.Call.Args, ssa.Value(a))
			if fn == nil || r.Call.Value == ssa.Value(a) || i < 0 {
				return nil, false
			}
			switch {
			case fn.Blocks != nil && i < len(fn.Params):
				wg.inner = append(wg.inner, fn.Params[i])
			case fn.Blocks == nil && c.eff != nil && i < 64 && c.eff.Contained(fn)&(1<<i) != 0:
				wg.inner = append(wg.inner, nil)
			default:
				return nil, false
			}
			wg.spawns = append(wg.spawns, r)
		default:
			return nil, false
		}
	}
	return wg, true
}

// goroutineDones returns the blocks of the goroutine's function g where
// it calls Done on its WaitGroup inner, and whether it defers a Done; ok
// is false when the goroutine does anything else with the WaitGroup.
func goroutineDones(g *ssa.Function, inner ssa.Value) (dones []*ssa.BasicBlock, deferred, ok bool) {
	for _, r := range *inner.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Call:
			if op, v := syncapi.WaitGroup(r.Common()); op != syncapi.WaitGroupDone || v != inner || r.Parent() != g {
				return nil, false, false
			}
			dones = append(dones, r.Block())
		case *ssa.Defer:
			if op, v := syncapi.WaitGroup(r.Common()); op != syncapi.WaitGroupDone || v != inner {
				return nil, false, false
			}
			deferred = true
		default:
			return nil, false, false
		}
	}
	return dones, deferred, true
}

// judgeCount reports the first Wait of the WaitGroup a when one of its
// goroutines may return without Done, or when its Adds count more than
// the goroutines call Done.
func (c *checker) judgeCount(a *ssa.Alloc, wg *localWaitGroup) {
	wait := wg.waits[0]
	name := c.valueName(a, "the WaitGroup")
	verdict := rules.None // for -why: what made every goroutine's Done sure
	defer func() {
		if verdict.Rule != "" && !c.reported[wait] && c.why.at(wait.Pos()) {
			c.why.note(wait.Pos(), fmt.Sprintf("WaitGroup.Wait blocks forever? %s waits until the goroutines it starts call Done on %s as often as Add counted", wait.Parent().Name(), name), verdict)
		}
	}()
	onceEach := true // each goroutine calls Done once on every path
	for i, spawn := range wg.spawns {
		if wg.inner[i] == nil {
			// Another package's function: its effect says whether a
			// path of it returns without Done.
			fn := spawn.Call.StaticCallee()
			j := slices.Index(spawn.Call.Args, ssa.Value(a))
			if c.eff.SkipsDone(fn)&(1<<j) != 0 {
				rel := c.related(spawn.Pos(), "the goroutine is started here")
				c.report(kinds.WaitGroupBlocks, wait, wait.Pos(), rel, "WaitGroup.Wait blocks forever when the goroutine started at %s returns early: %s may return without calling Done on %s",
					c.pos(spawn.Pos()), facts.ShortName(fn.String()), c.valueName(a, "the WaitGroup"))
				return
			}
			onceEach = false // how many Dones, its effect does not say
			verdict = heavier(verdict, why(rules.EveryPath, "%s, started at %s, calls Done on every path (its effect says so)", facts.ShortName(fn.String()), c.pos(spawn.Pos())))
			continue
		}
		g := spawn.Call.StaticCallee() // the closure's function too
		dones, deferred, ok := goroutineDones(g, wg.inner[i])
		if !ok || len(dones) == 0 && !deferred {
			verdict = rules.None
			return // handed on, or no Done at all (see waits)
		}
		if deferred {
			onceEach = onceEach && len(dones) == 0
			verdict = heavier(verdict, why(rules.EveryPath, "the goroutine started at %s defers its Done, which runs on every return", c.pos(spawn.Pos())))
			continue
		}
		ret, r := c.quietReturn(g, "calls Done on "+name, func(b *ssa.BasicBlock) bool { return slices.Contains(dones, b) })
		verdict = heavier(verdict, r)
		if ret != nil {
			rel := slices.Concat(c.related(spawn.Pos(), "the goroutine is started here"), c.related(returnPos(ret), "it returns here without Done"))
			c.report(kinds.WaitGroupBlocks, wait, wait.Pos(), rel, "WaitGroup.Wait blocks forever when the goroutine started at %s returns early: it may return at %s without calling Done on %s; defer the Done",
				c.pos(spawn.Pos()), c.pos(returnPos(ret)), c.valueName(a, "the WaitGroup"))
			return
		}
		onceEach = onceEach && len(dones) == 1 && !blocks.OnCycle(dones[0])
	}
	// The count: constant Adds and go statements, none in a loop.
	if !onceEach || wg.doneHere || slices.ContainsFunc(wg.spawns, func(g *ssa.Go) bool { return blocks.OnCycle(g.Block()) }) {
		return
	}
	var added int64
	for _, add := range wg.adds {
		k, ok := add.Call.Args[len(add.Call.Args)-1].(*ssa.Const)
		if !ok || k.Value == nil || k.Value.Kind() != constant.Int || blocks.OnCycle(add.Block()) || !add.Block().Dominates(wait.Block()) {
			return
		}
		added += k.Int64()
	}
	if n := int64(len(wg.spawns)); added > n {
		rel := c.related(wg.adds[0].Pos(), "Add counts here")
		c.report(kinds.WaitGroupBlocks, wait, wait.Pos(), rel, "WaitGroup.Wait blocks forever: Add counts %d (the first at %s), but only %d goroutines that call Done once each are started; the counter never reaches zero",
			added, c.pos(wg.adds[0].Pos()), n)
	} else {
		verdict = why(rules.Counted, "Add counts %d, and %d goroutines that call Done once each are started before the Wait", added, n)
	}
}
