package deadlock

import (
	"github.com/origo-dev/origo/analyzers/internal/blocks"
	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// A double lock through a function value: a callback stored in a field
// or passed as a parameter (or a method called through an interface)
// locks the mutex that the caller holds when it calls it, or read-locks
// it while the caller holds it for writing.
//
//	le.mu.Lock()
//	defer le.mu.Unlock()
//	if le.cp != nil {
//		le.cp(ctx) // the checkpointer calls le.Checkpoint, which locks le.mu
//	}
//
// The lockset pass cannot see through the function value; the goroutine's
// trace follows the callees the pointer analysis finds, and its Acquire
// event holds the caller's lock. The abstract mutex must be one mutex:
// a field of an object that the goroutine's entry function makes once
// (not in a loop), so that the two locks are not two objects made at one
// place (hand-over-hand locking of list nodes).

// dynamicRelocks reports the Lock events of the traces that find their
// own mutex held, reached through a call the lockset pass cannot
// resolve.
func (c *checker) dynamicRelocks(hb *shb.Result) {
	seen := make(map[ssa.Instruction]bool)
	for _, t := range hb.Traces {
		for _, ev := range t.Events {
			if ev.Kind != shb.Acquire || ev.Obj < 0 || seen[ev.Instr] {
				continue
			}
			held, readRead := c.heldAlready(hb, ev)
			if !held && !c.why.wants(ev.Instr.Pos()) {
				continue
			}
			frames, ok := t.Frames(ev.ID)
			if !ok {
				continue
			}
			via := dynamicCall(frames)
			if via == nil {
				continue // the lockset pass sees static calls: reported as a double lock there
			}
			if !held || !c.singleton(t.Origin, hb.Location(ev.Obj)) {
				c.noteDynamicRelock(hb, t, ev, via, readRead, held)
				continue
			}
			seen[ev.Instr] = true
			name := hb.Locks.Name(ev.Obj)
			if name == "" {
				name = "the mutex"
			}
			what, article, verb, why := "function value", "a", "locked", "sync.Mutex is not reentrant, this blocks forever"
			if via.Common().IsInvoke() {
				what, article = "interface method", "an"
			}
			if ev.Read {
				verb, why = "read-locked", "RLock waits while the mutex is held for writing, by its own goroutine too: this blocks forever"
			}
			c.report(kinds.DoubleLock, ev.Instr.Pos(), c.related(via.Pos(), "the %s called here, with %s held", what, name), "double lock through %s %s: %s is %s at %s while already held by the caller of the %s called at %s (%s); %s",
				article, what, name, verb, c.pos(ev.Instr.Pos()), what, c.pos(via.Pos()), t.Origin.Describe(c.pass.Fset), why)
		}
	}
}

// heldAlready reports whether Acquire event ev holds its own mutex, one
// location, already: for a Lock, held at all; for an RLock, held for
// writing (two read locks wait only for a writer in between), and
// readRead when it holds it for reading only.
func (c *checker) heldAlready(hb *shb.Result, ev shb.Event) (held, readRead bool) {
	locs, reads := hb.Locks.Members(ev.Locks)
	for i, l := range locs {
		if len(l) == 1 && l[0] == ev.Obj {
			if ev.Read && reads[i] {
				return false, true
			}
			return true, false
		}
	}
	return false, false
}

// singleton reports whether loc is a field of an object that the entry
// function of origin o allocates outside any loop: one object per
// goroutine.
func (c *checker) singleton(o *pointer.Origin, loc pointer.Location) bool {
	alloc, ok := loc.Obj.Site.(*ssa.Alloc)
	return ok && alloc.Parent() == o.Entry && loc.Obj.Tag == 0 && !blocks.OnCycle(alloc.Block())
}

// dynamicCall returns the innermost call of the chain that calls a
// function value or an interface method; nil when every call is static.
func dynamicCall(frames []pointer.Frame) ssa.CallInstruction {
	for k := len(frames) - 1; k > 0; k-- {
		if s := frames[k].Site; s != nil && s.Common().StaticCallee() == nil {
			return s
		}
	}
	return nil
}

// checkCallbacks reports a function value that call passes to another
// package's function which holds a mutex when it calls it (its Locks
// fact's callbacks), when the function value locks that mutex too:
//
//	s.Each(func(v int) { s.Flush() }) // Each holds s.mu while it calls f; Flush locks it
//
// The function value is a closure or function of the package, whose
// locks are its lockset's, its captured variables named as the caller
// names them.
func (c *checker) checkCallbacks(call *ssa.Call) {
	for _, cb := range c.ls.Callbacks(call.Common()) {
		switch cb.Arg.(type) {
		case *ssa.MakeClosure, *ssa.Function:
		default:
			continue
		}
		for _, t := range c.ls.Takes(&ssa.CallCommon{Value: cb.Arg}) {
			if t.Key != cb.Held.Key || t.Read && cb.Held.Read {
				continue
			}
			callee := facts.ShortName(call.Call.StaticCallee().String())
			name := lockName(cb.Held)
			c.report(kinds.DoubleLock, call.Pos(), c.heldAt(t, "the function value locks %s here", name), "double lock through a function value: %s holds %s (locked at %s) when it calls the function value passed here, which locks it again (at %s); sync.Mutex is not reentrant, this blocks forever",
				callee, name, c.where(cb.Held), c.where(t))
			break
		}
	}
}
