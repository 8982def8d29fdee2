package blocking

import (
	"slices"

	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/runflag"
	"golang.org/x/tools/go/ssa"
)

// A flag that records whether a loop runs (rule running-flag). A type
// that runs a loop on a goroutine of its own records that it does in a
// bool field, set true right before the loop starts, set false right
// after the loop is told to stop, and tested by the methods that talk
// to the loop:
//
//	func (c *Cron) Start() {
//		c.mu.Lock(); defer c.mu.Unlock()
//		c.running = true
//		go c.run()
//	}
//
//	func (c *Cron) Stop() {
//		c.mu.Lock(); defer c.mu.Unlock()
//		if c.running {
//			c.stop <- struct{}{} // run returns once it receives it
//			c.running = false
//		}
//	}
//
//	func (c *Cron) Schedule(e *Entry) {
//		c.mu.Lock(); defer c.mu.Unlock()
//		if !c.running {
//			c.entries = append(c.entries, e)
//		} else {
//			c.add <- e // run receives it
//		}
//	}
//
// Where the flag reads true some goroutine has stored true into it, and
// every such store is followed, in its block, by the start of the
// function that receives (go c.run()) or by a call of it on the storing
// goroutine (Run's c.run()): the send is made once its receiver has
// started, or is about to. And where every store of false follows, in
// its block and holding the mutex the send holds, the send that makes
// the loop leave, a send that holds that mutex and reads true comes
// before the loop was told to stop: its receiver is still there.

// startedFlag returns the store of true and the start that follows it
// that show that send, made only where a bool field reads true, is made
// once a function that receives from its channel has started: every
// store of true into that field is followed in its block by a go
// statement or a call of one of recvFuncs (the functions whose receives
// complete it). It returns nil when the send is not so guarded, or some
// store of true is not followed by such a start.
func (c *checker) startedFlag(send ssa.Instruction, recvFuncs []*ssa.Function) (store, start ssa.Instruction) {
	field := runflag.Guard(send, true)
	if field == nil || len(recvFuncs) == 0 {
		return nil, nil
	}
	stores, ok := runflag.Stores(c.funcs, field)
	if !ok {
		return nil, nil
	}
	for _, st := range stores {
		if !st.Value {
			continue // a stop: the flag reads false after it
		}
		s := runflag.StartAfter(st.Instr, recvFuncs)
		if s == nil {
			return nil, nil
		}
		if store == nil {
			store, start = st.Instr, s
		}
	}
	return store, start
}

// startedFlagReason is startedFlag's reason, or rules.None.
func (c *checker) startedFlagReason(send ssa.Instruction, recvFuncs []*ssa.Function) rules.Reason {
	store, start := c.startedFlag(send, recvFuncs)
	if store == nil {
		return rules.None
	}
	return why(rules.RunningFlag, "the send runs only where %s reads true, and the store of true at %s is followed by the start of the receiver at %s", runflag.Field(store.(*ssa.Store).Addr).Name(), c.pos(store.Pos()), c.pos(start.Pos()))
}

// stoppedFlag returns the store of false that shows that send, made
// only where a bool field reads true and holding a mutex, comes before
// its receiving loop leaves, when the loop leaves once it receives from
// the channel stop: every store into the field holds that mutex (or is
// made on an object its function has just allocated, not shared yet),
// and every store of false follows a send on stop in its block. Nil when
// it does not.
func (c *checker) stoppedFlag(send ssa.Instruction, stop ssa.Value) *ssa.Store {
	field := runflag.Guard(send, true)
	stopField := runflag.ChanField(stop)
	if field == nil || stopField == nil || c.ls == nil {
		return nil
	}
	stores, ok := runflag.Stores(c.funcs, field)
	if !ok {
		return nil
	}
	held := c.ls.Before(send)
	var stopped *ssa.Store
	for _, st := range stores {
		if !runflag.HoldsOneOf(c.ls.Before(st.Instr), held) {
			return nil
		}
		if st.Value {
			continue
		}
		if !slices.Contains(runflag.SentBefore(st.Instr), stopField) {
			return nil
		}
		if stopped == nil {
			stopped = st.Instr
		}
	}
	return stopped
}
