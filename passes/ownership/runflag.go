package ownership

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/runflag"
	"golang.org/x/tools/go/ssa"
)

// A flag that records whether a loop runs (rule running-flag, see
// package runflag): Start sets running and starts go c.run() holding
// c.mu; Stop, holding c.mu, sends on the unbuffered c.stop, which run
// receives and returns, then clears running. Code that reads running
// false holding c.mu runs before the loop starts (its Unlock comes
// before Start's Lock, which comes before the go statement) or after
// it stopped (what the loop did before it received the stop comes
// before the send completes, which comes before the store of false):
// its accesses and the loop's are ordered, as a lock would order them.

// flagLoop is a question of flagKeepsApart: a flag, a mutex that
// guards it, and the loop's goroutine.
type flagLoop struct {
	field *types.Var
	mu    facts.Key
	loop  *pointer.Origin
}

// flagApart reports whether a, on the goroutine that runs the methods,
// runs only where a flag that records whether b's goroutine runs reads
// false (the access, or a call on its chain), holding the mutex that
// guards the flag, and b comes before that goroutine receives the stop.
func (q *Query) flagApart(a, b Exec) bool {
	loop := b.T.Origin
	if loop.Parent == nil || loop.Kind != facts.SpawnGo || a.T == b.T {
		return false
	}
	at := b.Acc.Instr // where b runs in the loop's own function
	if frames, ok := b.T.Frames(b.X); ok {
		for _, f := range frames {
			if f.Site != nil && f.Site.Parent() == loop.Entry {
				at = f.Site
				break
			}
		}
	}
	if at.Parent() != loop.Entry {
		return false
	}
	var chain []ssa.Instruction
	if frames, ok := a.T.Frames(a.X); ok {
		for _, f := range frames {
			if f.Site != nil {
				chain = append(chain, f.Site)
			}
		}
	}
	chain = append(chain, a.Acc.Instr)
	for _, instr := range chain {
		field := runflag.Guard(instr, false)
		if field == nil {
			continue
		}
		for _, h := range q.locks.Before(instr) {
			if h.Read {
				continue
			}
			if v := q.flagKeepsApart(field, h, loop); v.ok && !afterStop(v.stopped, at) {
				return true
			}
		}
	}
	return false
}

// flagVerdict is what flagKeepsApart finds: whether the flag keeps the
// loop apart, and the blocks where the loop's function goes on once it
// has received the stop.
type flagVerdict struct {
	ok      bool
	stopped []*ssa.BasicBlock
}

// flagKeepsApart reports whether field records whether the goroutine
// loop runs, under the mutex h: every store into it holds h, loop is
// started by a go statement right after a store of true, holding h, and
// every store of false follows, in its block, a send on an unbuffered
// channel that loop's function receives from.
func (q *Query) flagKeepsApart(field *types.Var, h lockset.Held, loop *pointer.Origin) flagVerdict {
	k := flagLoop{field, h.Key, loop}
	if v, ok := q.loopFlags[k]; ok {
		return v
	}
	v := q.findFlagKeepsApart(field, h, loop)
	if q.loopFlags == nil {
		q.loopFlags = make(map[flagLoop]flagVerdict)
	}
	q.loopFlags[k] = v
	return v
}

func (q *Query) findFlagKeepsApart(field *types.Var, h lockset.Held, loop *pointer.Origin) flagVerdict {
	stores, ok := runflag.Stores(q.funcs, field)
	if !ok {
		return flagVerdict{}
	}
	var stopped []*ssa.BasicBlock
	held := lockset.Set{h}
	started := false
	for _, st := range stores {
		if !runflag.HoldsOneOf(q.locks.Before(st.Instr), held) {
			return flagVerdict{}
		}
		if st.Value {
			g, ok := runflag.StartAfter(st.Instr, []*ssa.Function{loop.Entry}).(*ssa.Go)
			if ok && g.Pos() == loop.Site && runflag.HoldsOneOf(q.locks.Before(g), held) {
				started = true
			}
			continue
		}
		// The send just before the store of false tells the loop to stop.
		sent := runflag.SentBefore(st.Instr)
		if len(sent) == 0 || sent[len(sent)-1] == nil || !q.unbufferedField(sent[len(sent)-1]) {
			return flagVerdict{}
		}
		from := q.stopReceive(loop.Entry, sent[len(sent)-1])
		if from == nil {
			return flagVerdict{}
		}
		if !slices.Contains(stopped, from) {
			stopped = append(stopped, from)
		}
	}
	return flagVerdict{ok: started, stopped: stopped}
}

// unbufferedField reports whether every channel stored into field is
// made unbuffered: a send on it completes only once it is received.
func (q *Query) unbufferedField(field *types.Var) bool {
	found := false
	for _, fn := range q.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok || runflag.Field(st.Addr) != field {
					continue
				}
				mc, ok := st.Val.(*ssa.MakeChan)
				if !ok {
					return false
				}
				k, ok := mc.Size.(*ssa.Const)
				if !ok || k.Value == nil || k.Value.Kind() != constant.Int || constant.Sign(k.Value) != 0 {
					return false
				}
				found = true
			}
		}
	}
	return found
}

// stopReceive returns the block where fn goes on once it has received
// from the channel of field stop: a select case's block, or the block
// of a plain receive. Nil when fn does not receive from it.
func (q *Query) stopReceive(fn *ssa.Function, stop *types.Var) *ssa.BasicBlock {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.UnOp:
				if x.Op == token.ARROW && runflag.ChanField(x.X) == stop {
					return b
				}
			case *ssa.Select:
				for i, st := range x.States {
					if st.Dir == types.RecvOnly && runflag.ChanField(st.Chan) == stop {
						return selectCase(x, i)
					}
				}
			}
		}
	}
	return nil
}

// selectCase returns the block that runs case i of the select sel: the
// branch of the if that compares its index with i.
func selectCase(sel *ssa.Select, i int) *ssa.BasicBlock {
	for _, r := range *sel.Referrers() {
		ex, ok := r.(*ssa.Extract)
		if !ok || ex.Index != 0 {
			continue
		}
		for _, u := range *ex.Referrers() {
			eq, ok := u.(*ssa.BinOp)
			if !ok || eq.Op != token.EQL {
				continue
			}
			k, ok := eq.Y.(*ssa.Const)
			if !ok || k.Value == nil || k.Value.Kind() != constant.Int || constant.Compare(k.Value, token.NEQ, constant.MakeInt64(int64(i))) {
				continue
			}
			for _, v := range *eq.Referrers() {
				if iff, ok := v.(*ssa.If); ok {
					return iff.Block().Succs[0]
				}
			}
		}
	}
	return nil
}

// afterStop reports whether instr, in the loop's function, may run
// once the loop has received the stop: in one of the blocks where the
// receive of the stop goes on, or in a block they reach.
func afterStop(stopped []*ssa.BasicBlock, instr ssa.Instruction) bool {
	return slices.ContainsFunc(stopped, func(from *ssa.BasicBlock) bool {
		return from == instr.Block() || reaches(from, instr.Block(), nil)
	})
}
