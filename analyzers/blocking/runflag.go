package blocking

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/rules"
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
	field := trueField(send)
	if field == nil || len(recvFuncs) == 0 {
		return nil, nil
	}
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for i, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok || storedField(st.Addr) != field {
					continue
				}
				k, ok := st.Val.(*ssa.Const)
				if !ok || k.Value == nil || k.Value.Kind() != constant.Bool {
					return nil, nil // a value the analysis does not follow
				}
				if !constant.BoolVal(k.Value) {
					continue // a stop: the flag reads false after it
				}
				s := startAfter(b.Instrs[i+1:], recvFuncs)
				if s == nil {
					return nil, nil
				}
				if store == nil {
					store, start = st, s
				}
			}
		}
	}
	return store, start
}

// startAfter returns the first go statement or call in instrs of one of
// fns, or nil.
func startAfter(instrs []ssa.Instruction, fns []*ssa.Function) ssa.Instruction {
	for _, instr := range instrs {
		call, ok := instr.(ssa.CallInstruction)
		if !ok {
			continue
		}
		if _, isDefer := instr.(*ssa.Defer); isDefer {
			continue
		}
		if fn := call.Common().StaticCallee(); fn != nil && slices.Contains(fns, fn) {
			return instr
		}
	}
	return nil
}

// trueField returns the bool field whose load, tested by a branch that
// dominates instr's block, reads true wherever instr runs (if c.running
// { ... }, or the else of if !c.running); nil when there is none.
func trueField(instr ssa.Instruction) *types.Var {
	b := instr.Block()
	if b == nil {
		return nil
	}
	for a := b; a != nil; a = a.Idom() {
		p := a.Idom()
		if p == nil || len(p.Succs) != 2 {
			continue
		}
		iff, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		var want bool // the value of the condition where b runs
		switch {
		case p.Succs[0].Dominates(b) && !p.Succs[1].Dominates(b):
			want = true
		case p.Succs[1].Dominates(b) && !p.Succs[0].Dominates(b):
			want = false
		default:
			continue
		}
		cond := iff.Cond
		for {
			not, ok := cond.(*ssa.UnOp)
			if !ok || not.Op != token.NOT {
				break
			}
			cond, want = not.X, !want
		}
		load, ok := cond.(*ssa.UnOp)
		if !ok || load.Op != token.MUL || !want {
			continue
		}
		if f := storedField(load.X); f != nil {
			return f
		}
	}
	return nil
}

// storedField returns the field that addr is the address of (&x.f), or
// nil.
func storedField(addr ssa.Value) *types.Var {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return nil
	}
	return st.Field(fa.Field)
}

// startedFlagReason is startedFlag's reason, or rules.None.
func (c *checker) startedFlagReason(send ssa.Instruction, recvFuncs []*ssa.Function) rules.Reason {
	store, start := c.startedFlag(send, recvFuncs)
	if store == nil {
		return rules.None
	}
	return why(rules.RunningFlag, "the send runs only where %s reads true, and the store of true at %s is followed by the start of the receiver at %s", storedField(store.(*ssa.Store).Addr).Name(), c.pos(store.Pos()), c.pos(start.Pos()))
}

// stoppedFlag returns the store of false that shows that send, made
// only where a bool field reads true and holding a mutex, comes before
// its receiving loop leaves, when the loop leaves once it receives from
// the channel stop: every store into the field holds that mutex (or is
// made on an object its function has just allocated, not shared yet),
// and every store of false follows a send on stop in its block. Nil when
// it does not.
func (c *checker) stoppedFlag(send ssa.Instruction, stop ssa.Value) ssa.Instruction {
	field, stopField := trueField(send), chanField(stop)
	if field == nil || stopField == nil || c.ls == nil {
		return nil
	}
	held := c.ls.Before(send)
	var stopped ssa.Instruction
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for i, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok || storedField(st.Addr) != field || fieldOfNew(st.Addr) {
					continue
				}
				if !holdsOneOf(c.ls.Before(st), held) {
					return nil
				}
				k, ok := st.Val.(*ssa.Const)
				if !ok || k.Value == nil || k.Value.Kind() != constant.Bool {
					return nil
				}
				if constant.BoolVal(k.Value) {
					continue
				}
				if !slices.ContainsFunc(b.Instrs[:i], func(x ssa.Instruction) bool {
					s, ok := x.(*ssa.Send)
					return ok && chanField(s.Chan) == stopField
				}) {
					return nil
				}
				if stopped == nil {
					stopped = st
				}
			}
		}
	}
	return stopped
}

// holdsOneOf reports whether the lockset at a store holds one of the
// mutexes held, by the same key (c.mu in Stop and in Schedule).
func holdsOneOf(at, held lockset.Set) bool {
	for _, h := range held {
		if x, ok := at.Find(h.Key); ok && !x.Read && !h.Read {
			return true
		}
	}
	return false
}

// fieldOfNew reports whether addr is a field of an object its function
// allocates itself (&Cron{running: false}): set before anyone else
// reaches it.
func fieldOfNew(addr ssa.Value) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	_, alloc := fa.X.(*ssa.Alloc)
	return alloc
}

// chanField returns the field a channel is loaded from (c.stop), or nil.
func chanField(v ssa.Value) *types.Var {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	return storedField(load.X)
}
