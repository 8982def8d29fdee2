package blocking

import (
	"fmt"
	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/facts"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/origo-dev/origo/analyzers/internal/blocks"
	"github.com/origo-dev/origo/passes/rules"
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
				if mc, ok := instr.(*ssa.MakeChan); ok {
					if c.unbuffered(mc) {
						c.leak(fn, mc)
					} else if c.why != nil {
						c.bufferedResult(mc)
					}
					c.senderQuits(fn, mc)
				}
			}
		}
	}
}

// resultChan is what leak finds about one channel: the receives of its
// function, the go statements it is given to, and the sends of those
// goroutines.
type resultChan struct {
	recvs  []ssa.Instruction // plain receives and select receives
	caseAt []edge            // for each select receive, the edge taken when it happened
	dead   []edge            // the edges of the cases of those selects that never proceed
	spawns []*ssa.Go         // the go statements given the channel
	sends  []*ssa.Send       // the goroutines' plain sends
	// importedSends are the go statements that start a function of
	// another package that sends on the channel (its effect shows it).
	importedSends []*ssa.Go
	guarded       bool          // a goroutine sends in a select too
	selects       []*ssa.Select // those selects
	answeredOn    []ssa.Value   // the channels found to answer otherwise (see answersOtherwise)
	closed        bool          // a goroutine closes the channel too
	closes        bool          // the function that makes it closes it
}

func (c *checker) leak(fn *ssa.Function, mc *ssa.MakeChan) {
	rc := new(resultChan)
	if !c.ownUses(mc, rc, 0) || len(rc.recvs) == 0 || len(rc.spawns) == 0 {
		return
	}
	q := ""
	if c.why != nil {
		q = c.leakQuestion(fn, mc)
	}
	if rc.guarded {
		for _, sel := range rc.selects {
			if c.why.at(sel.Pos()) {
				c.why.note(sel.Pos(), q, why(rules.OtherCase, "the goroutine sends its result in a select whose other case lets it leave"))
			}
		}
		return
	}
	if len(rc.sends)+len(rc.importedSends) == 0 {
		return
	}
	if c.waitsFirst(fn, mc, rc) {
		return
	}
	// The paths that receive: through a block of a plain receive, or
	// along the edge a select takes for a receive case (its body may be
	// the block every case goes to). base holds the receives and the
	// cases never taken alone, answered those and the cases that hear
	// the goroutines answer otherwise: -why tells by them which rule
	// kept a path from leaving without receiving.
	recv, base, answered := newReceipts(), newReceipts(), newReceipts()
	for _, b := range fn.Blocks {
		if failsTest(b) {
			recv.blocks[b] = true // a test that failed may leave a goroutine behind
		}
	}
	for _, e := range rc.dead {
		recv.edges[e], base.edges[e], answered.edges[e] = true, true, true // never taken
	}
	// A case on another channel that only the goroutines close or send
	// on, with no send of the result after that, hears from them too:
	// they answered that way instead (close(found); return).
	for _, r := range rc.recvs {
		sel, ok := r.(*ssa.Select)
		if !ok {
			continue
		}
		for j, st := range sel.States {
			if st.Dir != types.SendOnly && c.answersOtherwise(st.Chan, rc) {
				if e := caseEdge(sel, j); e.to != nil {
					recv.edges[e], answered.edges[e] = true, true
					if !slices.Contains(rc.caseAt, e) {
						rc.answeredOn = append(rc.answeredOn, st.Chan)
					}
				}
			}
		}
	}
	got := newReceipts() // the receives alone
	inLoop := false
	for i, r := range rc.recvs {
		b := r.Block()
		if e := rc.caseAt[i]; e.to != nil {
			recv.edges[e], got.edges[e], base.edges[e], answered.edges[e] = true, true, true, true
			b = e.from
		} else {
			recv.blocks[b], got.blocks[b], base.blocks[b], answered.blocks[b] = true, true, true, true
		}
		inLoop = inLoop || blocks.OnCycle(b)
	}
	explain := slices.ContainsFunc(rc.sendsAt(), func(s ssa.Instruction) bool { return c.why.at(s.Pos()) })
	// received says which rule kept every path from spawn from leaving
	// (returning, or making the channel anew at remake) without
	// receiving.
	received := func(spawn *ssa.Go, remake *ssa.BasicBlock) rules.Reason {
		if !explain {
			return rules.None
		}
		if ret, again := exitWithout(spawn, base, remake); ret == nil && !again {
			return why(rules.EveryPath, "%s receives from %s on every path after the go statement at %s", fn.Name(), c.chanName(mc), c.pos(spawn.Pos()))
		}
		if ret, again := exitWithout(spawn, answered, remake); ret == nil && !again {
			names := make([]string, len(rc.answeredOn))
			for i, ch := range rc.answeredOn {
				names[i] = c.chanName(ch)
			}
			return why(rules.AnsweredOtherwise, "the paths of %s that do not receive from %s take the goroutine's answer on %s, after which it sends no result", fn.Name(), c.chanName(mc), strings.Join(names, ", "))
		}
		return why(rules.FailedTest, "the paths of %s that do not receive from %s go through a test's failure or skip", fn.Name(), c.chanName(mc))
	}
	verdict := rules.None
	defer func() {
		for _, s := range rc.sendsAt() {
			if verdict.Rule != "" && !c.reported[s] {
				c.why.note(s.Pos(), q, verdict)
			}
		}
	}()
	// A channel made anew in each iteration of the loop that starts its
	// goroutine is that iteration's: the next iteration that makes
	// another abandons it, as a return does.
	perIteration := blocks.OnCycle(mc.Block())
	for _, spawn := range rc.spawns {
		if perIteration && !onCycle(spawn.Block(), receipts{blocks: map[*ssa.BasicBlock]bool{mc.Block(): true}}) {
			ret, again := exitWithout(spawn, recv, mc.Block())
			if ret == nil && !again {
				verdict = heavier(verdict, received(spawn, mc.Block()))
				continue
			}
			where := "start the next iteration without receiving it"
			rel := slices.Concat(c.madeAt(mc), c.related(spawn.Pos(), "the goroutine that sends is started here"))
			if ret != nil {
				where = "return at " + c.pos(returnPos(ret)) + " without receiving it"
				rel = append(rel, c.related(returnPos(ret), "%s returns here without receiving", fn.Name())...)
			}
			for _, s := range rc.sendsAt() {
				c.report(kinds.SendBlocks, s, s.Pos(), rel, "send blocks forever when %s moves on early: %s sends on %s (made at %s in each iteration, unbuffered), and %s may %s; give the channel a buffer of one or select on a done channel",
					fn.Name(), c.sender(s, spawn, "the goroutine"), c.chanName(mc), c.pos(mc.Pos()), fn.Name(), where)
			}
			return
		}
		if inLoop {
			// As many receives as goroutines, or not: it depends on values.
			verdict = heavier(verdict, why(rules.Values, "%s receives from %s in a loop, taken to run once per send", fn.Name(), c.chanName(mc)))
			continue
		}
		if ret, _ := exitWithout(spawn, recv, nil); ret != nil {
			rel := slices.Concat(c.madeAt(mc), c.related(spawn.Pos(), "the goroutine that sends is started here"),
				c.related(returnPos(ret), "%s returns here without receiving", fn.Name()))
			for _, s := range rc.sendsAt() {
				c.report(kinds.SendBlocks, s, s.Pos(), rel, "send blocks forever when %s returns early: %s sends on %s (made at %s, unbuffered), and %s may return at %s without receiving it; give the channel a buffer of one or select on a done channel",
					fn.Name(), c.sender(s, spawn, "the goroutine"), c.chanName(mc), c.pos(mc.Pos()), fn.Name(), c.pos(returnPos(ret)))
			}
			return
		}
		if !inLoop && onCycle(spawn.Block(), recv) {
			rel := slices.Concat(c.madeAt(mc), c.related(spawn.Pos(), "the goroutines that send are started here, in a loop"),
				c.related(rc.recvs[0].Pos(), "the one receive"))
			for _, s := range rc.sendsAt() {
				c.report(kinds.SendBlocks, s, s.Pos(), rel, "send blocks forever: %s in a loop each send on %s (made at %s, unbuffered), and %s receives from it once, at %s: all but one block forever; give the channel a buffer of one per goroutine",
					c.sender(s, spawn, "the goroutines"), c.chanName(mc), c.pos(mc.Pos()), fn.Name(), c.pos(rc.recvs[0].Pos()))
			}
			return
		}
		verdict = heavier(verdict, received(spawn, nil))
	}
	// A goroutine that may send twice (on an error path, say) to a
	// function that receives once per goroutine leaves one send over.
	if inLoop || slices.ContainsFunc(rc.spawns, func(g *ssa.Go) bool { return blocks.OnCycle(g.Block()) }) {
		return
	}
	if rc.closed {
		// A send after the close panics rather than blocks.
		if _, second := twice(rc.sends); second != nil && explain {
			verdict = why(rules.ClosedSend, "a goroutine may send on %s twice, and closes it", c.chanName(mc))
		}
		return
	}
	if first, second := twice(rc.sends); second != nil {
		if most := mostReceipts(fn, got); most <= len(rc.spawns) {
			rel := slices.Concat(c.madeAt(mc), c.related(first.Pos(), "the first send"))
			c.report(kinds.SendBlocks, second, second.Pos(), rel, "send blocks forever: a goroutine may send on %s (made at %s, unbuffered) twice, at %s and then here, and %s receives from it at most %s, once per goroutine it starts: the last send has no receiver",
				c.chanName(mc), c.pos(mc.Pos()), c.pos(first.Pos()), fn.Name(), times(most))
		}
	}
}

// bufferedResult explains, for -why, the sends of goroutines on the
// channel mc makes with a buffer, for the function that starts them to
// receive: the classic leak (see leak), but the sends find room.
func (c *checker) bufferedResult(mc *ssa.MakeChan) {
	rc := new(resultChan)
	if !c.ownUses(mc, rc, 0) || len(rc.recvs) == 0 || len(rc.spawns) == 0 || len(rc.sends)+len(rc.importedSends) == 0 {
		return
	}
	for _, s := range rc.sendsAt() {
		c.why.note(s.Pos(), c.leakQuestion(mc.Parent(), mc), why(rules.Buffered, "%s (made at %s) has a buffer, where the result waits for its receiver", c.chanName(mc), c.pos(mc.Pos())))
	}
}

// leakQuestion words what leak asks of the sends on the channel mc makes
// in fn: does fn stay for their results.
func (c *checker) leakQuestion(fn *ssa.Function, mc *ssa.MakeChan) string {
	return fmt.Sprintf("send blocks forever once %s stops receiving? the goroutines it starts send their result on %s (made at %s)", fn.Name(), c.chanName(mc), c.pos(mc.Pos()))
}

func newReceipts() receipts {
	return receipts{blocks: make(map[*ssa.BasicBlock]bool), edges: make(map[edge]bool)}
}

// senderQuits reports the one plain receive of fn from the channel mc
// makes when its one sender, a goroutine fn starts once, may return
// without sending and without a word on any channel:
//
//	go func() {
//		v, err := fetch()
//		if err != nil {
//			return // the receive below waits forever
//		}
//		ch <- v
//	}()
//	v := <-ch
//
// Nothing else sends on or closes the channel (fn's own uses are its
// receive and the go statement). A path through a failed test's report
// does not count, nor one that sends on or closes another channel, or
// calls code that may (the receiver may have heard of the failure that
// way first).
func (c *checker) senderQuits(fn *ssa.Function, mc *ssa.MakeChan) {
	rc := new(resultChan)
	if !c.ownUses(mc, rc, 0) || len(rc.spawns) != 1 || len(rc.importedSends) > 0 || len(rc.sends) == 0 || len(rc.recvs) != 1 || rc.guarded || rc.closed || rc.closes {
		return
	}
	spawn, recv := rc.spawns[0], rc.recvs[0]
	if _, plain := recv.(*ssa.UnOp); !plain {
		return
	}
	q := ""
	if c.why.at(recv.Pos()) {
		q = fmt.Sprintf("receive blocks forever when its sender returns early? the goroutine started at %s is the one sender on %s (made at %s)", c.pos(spawn.Pos()), c.chanName(mc), c.pos(mc.Pos()))
	}
	if blocks.OnCycle(spawn.Block()) || blocks.OnCycle(recv.Block()) {
		c.why.note(recv.Pos(), q, why(rules.Values, "the go statement or the receive is in a loop: which sends each receive meets depends on how often each runs"))
		return
	}
	g := spawn.Call.StaticCallee() // the closure's function too
	if g == nil || g.Blocks == nil || slices.ContainsFunc(rc.sends, func(s *ssa.Send) bool { return s.Parent() != g }) {
		return
	}
	ret, r := c.quietReturn(g, "sends on "+c.chanName(mc), func(b *ssa.BasicBlock) bool {
		return slices.ContainsFunc(rc.sends, func(s *ssa.Send) bool { return s.Block() == b })
	})
	if ret == nil {
		c.why.note(recv.Pos(), q, r)
		return
	}
	rel := slices.Concat(c.madeAt(mc), c.related(spawn.Pos(), "the goroutine that sends is started here"),
		c.related(returnPos(ret), "it returns here without sending"))
	c.report(kinds.ReceiveBlocks, recv, recv.Pos(), rel, "receive blocks forever when the goroutine started at %s returns early: it may return at %s without sending on %s (made at %s), and nothing else sends on or closes it; send on every path (an error too) or close the channel",
		c.pos(spawn.Pos()), c.pos(returnPos(ret)), c.chanName(mc), c.pos(mc.Pos()))
}

// quietReturn returns a return of g that a path from its entry reaches
// through no block that does what is awaited (done: a send, a Done),
// reports a test failure, or may communicate otherwise (see speaks); nil
// when there is none, with the rule that stopped the paths (for -why:
// every-path when only done did; what says the awaited operation, for
// its words).
func (c *checker) quietReturn(g *ssa.Function, what string, done func(*ssa.BasicBlock) bool) (*ssa.Return, rules.Reason) {
	r := rules.None
	// because keeps the heavier of the rules that stopped a path (see
	// heavier), when -why may ask.
	because := func(rule rules.ID, format string, args ...any) {
		if c.why != nil {
			r = heavier(r, why(rule, format, args...))
		}
	}
	stop := func(b *ssa.BasicBlock) bool {
		switch {
		case done(b):
			because(rules.EveryPath, "%s %s on every path to a return", g.Name(), what)
		case failsTest(b):
			because(rules.FailedTest, "the paths of %s without it go through a test's failure or skip (at %s)", g.Name(), c.pos(blockPos(b)))
		case c.speaks(b, 0):
			because(rules.AnsweredOtherwise, "the paths of %s without it say something else first (at %s): a send, close, select, Done, Signal, go or defer statement, or a call that may make one", g.Name(), c.pos(blockPos(b)))
		default:
			return false
		}
		return true
	}
	entry := g.Blocks[0]
	if stop(entry) {
		return nil, r
	}
	seen := map[*ssa.BasicBlock]bool{entry: true}
	work := []*ssa.BasicBlock{entry}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		switch last := b.Instrs[len(b.Instrs)-1].(type) {
		case *ssa.Return:
			return last, rules.None
		case *ssa.Panic:
			because(rules.Panics, "the paths of %s without it panic (at %s)", g.Name(), c.pos(last.Pos()))
		}
		for _, s := range b.Succs {
			if !seen[s] && !stop(s) {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return nil, r
}

// blockPos is where block b is: its first instruction with a position,
// or its function's.
func blockPos(b *ssa.BasicBlock) token.Pos {
	for _, instr := range b.Instrs {
		if instr.Pos().IsValid() {
			return instr.Pos()
		}
	}
	return b.Parent().Pos()
}

// speaks reports whether block b may tell another goroutine something:
// a send, a select, a close, a WaitGroup or Cond call, a go or defer
// statement, a call of a function value or interface method, of a
// function of the package that does so itself (a few calls deep), or of
// another package's function given a channel, WaitGroup or Cond.
func (c *checker) speaks(b *ssa.BasicBlock, depth int) bool {
	for _, instr := range b.Instrs {
		switch instr := instr.(type) {
		case *ssa.Send, *ssa.Select, *ssa.Go, *ssa.Defer:
			return true
		case *ssa.Call:
			call := instr.Common()
			if op, _ := syncapi.WaitGroup(call); op != syncapi.NotWaitGroup {
				return true
			}
			if op, _ := syncapi.Cond(call); op != syncapi.NotCond {
				return true
			}
			if bi, ok := call.Value.(*ssa.Builtin); ok {
				if bi.Name() == "close" {
					return true
				}
				continue
			}
			fn := call.StaticCallee()
			switch {
			case fn == nil:
				return true
			case fn.Pkg == c.pkg && fn.Blocks != nil:
				if depth >= 3 || slices.ContainsFunc(fn.Blocks, func(b *ssa.BasicBlock) bool { return c.speaks(b, depth+1) }) {
					return true
				}
			case slices.ContainsFunc(call.Args, func(a ssa.Value) bool { return isChan(a.Type()) || syncType(a.Type()) }):
				return true
			}
		}
	}
	return false
}

// sendsAt returns where the goroutines send: their sends, and the go
// statements of those that run another package's function.
func (rc *resultChan) sendsAt() []ssa.Instruction {
	var out []ssa.Instruction
	for _, s := range rc.sends {
		out = append(out, s)
	}
	for _, g := range rc.importedSends {
		out = append(out, g)
	}
	return out
}

// sender names the goroutines that spawn starts, for a report at s: by
// where spawn is ("the goroutine started at f.go:12"), or, when the
// report is at spawn itself (another package's function sends), as
// started here, with that function.
func (c *checker) sender(s ssa.Instruction, spawn *ssa.Go, which string) string {
	if s == ssa.Instruction(spawn) {
		return fmt.Sprintf("%s started here (%s)", which, facts.ShortName(spawn.Call.StaticCallee().String()))
	}
	return fmt.Sprintf("%s started at %s", which, c.pos(spawn.Pos()))
}

// importedSends reports whether fn, a function of another package
// started with the channel as its parameter i, sends on it (and may close
// it) and does nothing else with it, as its effect shows.
func (c *checker) importedSends(fn *ssa.Function, i int, rc *resultChan) bool {
	if c.eff == nil || i >= 64 || c.eff.Contained(fn)&(1<<i) == 0 {
		return false
	}
	sends := 0
	for _, op := range c.eff.Imported(fn) {
		if j, ok := paramOf(op.Key); op.Sync == 0 || !ok || j != i {
			continue
		}
		switch op.Sync {
		case facts.SyncSend:
			sends++
		case facts.SyncClose:
			rc.closed = true
		default:
			return false
		}
	}
	return sends > 0
}

// times renders a count of receives: "once", "2 times".
func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

// twice returns two sends of sends that one goroutine may make one
// after the other: the second reachable from the first in their
// function, or one send in a loop (then both are it); nil when none.
func twice(sends []*ssa.Send) (first, second *ssa.Send) {
	for _, x := range sends {
		if blocks.OnCycle(x.Block()) {
			return x, x
		}
		for _, y := range sends {
			if x == y || x.Parent() != y.Parent() {
				continue
			}
			if x.Block() == y.Block() && slices.Index(x.Block().Instrs, ssa.Instruction(x)) < slices.Index(y.Block().Instrs, ssa.Instruction(y)) {
				return x, y
			}
			if x.Block() != y.Block() && blocks.Reaches(x.Block(), y.Block()) {
				return x, y
			}
		}
	}
	return nil, nil
}

// mostReceipts returns the most receives on one path of fn from its
// entry, none of which is in a loop.
func mostReceipts(fn *ssa.Function, got receipts) int {
	memo := make(map[*ssa.BasicBlock]int)
	onStack := make(map[*ssa.BasicBlock]bool)
	var best func(b *ssa.BasicBlock) int
	best = func(b *ssa.BasicBlock) int {
		if n, ok := memo[b]; ok {
			return n
		}
		if onStack[b] {
			return 0 // a loop, without receives
		}
		onStack[b] = true
		n := 0
		for _, s := range b.Succs {
			w := 0
			if got.through(b, s) {
				w = 1
			}
			n = max(n, w+best(s))
		}
		onStack[b] = false
		memo[b] = n
		return n
	}
	entry := fn.Blocks[0]
	n := best(entry)
	if got.blocks[entry] {
		n++
	}
	return n
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
			rc.caseAt = append(rc.caseAt, edge{})
		case *ssa.Select:
			for i, st := range r.States {
				if st.Chan != v {
					continue
				}
				if st.Dir == types.SendOnly {
					return false
				}
				e := caseEdge(r, i)
				if e.to == nil {
					return false
				}
				rc.recvs = append(rc.recvs, r)
				rc.caseAt = append(rc.caseAt, e)
				for j := range r.States {
					if j != i && deadCase(r, j) {
						rc.dead = append(rc.dead, caseEdge(r, j))
					}
				}
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
		case *ssa.Call:
			if b, ok := r.Call.Value.(*ssa.Builtin); !ok || b.Name() != "close" {
				return false
			}
			rc.closes = true
		case *ssa.Go:
			callee := r.Call.StaticCallee()
			i := slices.Index(r.Call.Args, v)
			if callee == nil || i < 0 || r.Call.IsInvoke() {
				return false
			}
			switch {
			case callee.Pkg == c.pkg && callee.Blocks != nil:
				if !goroutineSends(callee.Params[i], rc, 0) {
					return false
				}
			case c.importedSends(callee, i, rc):
				rc.importedSends = append(rc.importedSends, r)
			default:
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

// answersOtherwise reports whether channel x, made by the function
// that makes rc's (kept in a variable or not), is closed or sent on
// only by the goroutines that send rc's result, and received from
// where it is made, none of the goroutines sending its result after
// that.
func (c *checker) answersOtherwise(x ssa.Value, rc *resultChan) bool {
	var root ssa.Value
	switch x := x.(type) {
	case *ssa.MakeChan:
		root = x
	case *ssa.UnOp:
		cell, ok := x.X.(*ssa.Alloc)
		if !ok || x.Op != token.MUL {
			return false
		}
		root = cell
	default:
		return false
	}
	answered := false
	var visit func(v ssa.Value, goroutine bool, depth int) bool
	visit = func(v ssa.Value, goroutine bool, depth int) bool {
		if depth > 3 {
			return false
		}
		for _, r := range *v.Referrers() {
			switch r := r.(type) {
			case *ssa.UnOp:
				if r.Op == token.MUL {
					if !visit(r, goroutine, depth+1) {
						return false
					}
				} else if r.Op != token.ARROW || goroutine {
					return false
				}
			case *ssa.Store:
				if r.Addr != v {
					return false // the channel is stored away
				}
			case *ssa.Select:
				if goroutine || slices.ContainsFunc(r.States, func(st *ssa.SelectState) bool { return st.Chan == v && st.Dir == types.SendOnly }) {
					return false
				}
			case *ssa.MakeClosure:
				if goroutine || !slices.ContainsFunc(rc.spawns, func(g *ssa.Go) bool { return g.Call.Value == r }) {
					return false
				}
				i := slices.Index(r.Bindings, v)
				if i < 0 || !visit(r.Fn.(*ssa.Function).FreeVars[i], true, depth+1) {
					return false
				}
			case *ssa.Send:
				if !goroutine || r.Chan != v || sendsAfter(r, rc.sends) {
					return false
				}
				answered = true
			case ssa.CallInstruction:
				b, ok := r.Common().Value.(*ssa.Builtin)
				if !ok || b.Name() != "close" || !goroutine || sendsAfter(r, rc.sends) {
					return false
				}
				answered = true
			case *ssa.DebugRef:
			default:
				return false
			}
		}
		return true
	}
	return visit(root, false, 0) && answered
}

// sendsAfter reports whether one of sends may run after op.
func sendsAfter(op ssa.Instruction, sends []*ssa.Send) bool {
	for _, s := range sends {
		if s.Parent() != op.Parent() {
			return true
		}
		if s.Block() == op.Block() && slices.Index(op.Block().Instrs, ssa.Instruction(s)) > slices.Index(op.Block().Instrs, op) || blocks.Reaches(op.Block(), s.Block()) {
			return true
		}
	}
	return false
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
// on it, there or in a function of the package it passes it to, and to
// close it.
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
			rc.selects = append(rc.selects, r)
		case *ssa.UnOp:
			if r.Op != token.MUL || !goroutineSends(r, rc, depth+1) {
				return false // a receive, or a load of the variable
			}
		case *ssa.Call:
			if b, ok := r.Call.Value.(*ssa.Builtin); ok && b.Name() == "close" {
				rc.closed = true // after its send, a close completes no send
				continue
			}
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

// An edge is a step of control from a block to a successor.
type edge struct{ from, to *ssa.BasicBlock }

// receipts are where a function receives: blocks and edges.
type receipts struct {
	blocks map[*ssa.BasicBlock]bool
	edges  map[edge]bool
}

// through reports whether the step from b to s receives.
func (r receipts) through(b, s *ssa.BasicBlock) bool {
	return r.blocks[s] || r.edges[edge{b, s}]
}

// deadCase reports whether case i of select sel never proceeds: it is
// on a nil channel, or on a channel its function makes for this select
// alone (a, b := make(chan int), make(chan int); select { case a <- 1:
// case <-b: } cannot take the case of a).
func deadCase(sel *ssa.Select, i int) bool {
	ch := sel.States[i].Chan
	if isNil(ch) {
		return true
	}
	only := func(v ssa.Value, use ssa.Instruction) bool {
		refs := *v.Referrers()
		return len(refs) == 1 && refs[0] == use
	}
	var use ssa.Instruction = sel
	if load, ok := ch.(*ssa.UnOp); ok && load.Op == token.MUL {
		cell, ok := load.X.(*ssa.Alloc)
		if !ok || !only(load, sel) || len(*cell.Referrers()) != 2 {
			return false
		}
		for _, r := range *cell.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == cell {
				ch, use = st.Val, st
			}
		}
	}
	mc, ok := ch.(*ssa.MakeChan)
	return ok && sizeZero(mc) && only(mc, use)
}

// caseEdge returns the edge that control takes when case i of select
// sel is chosen: to the true branch of the test of its index.
func caseEdge(sel *ssa.Select, i int) edge {
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
					return edge{ifInstr.Block(), ifInstr.Block().Succs[0]}
				}
			}
		}
	}
	return edge{}
}

// exitWithout finds a path from spawn that leaves the channel without
// receiving from it: to a return of the function, which it returns, or,
// when remake is not nil, back to the block remake that makes the next
// iteration's channel (again). Nil and false when every path receives.
func exitWithout(spawn *ssa.Go, recv receipts, remake *ssa.BasicBlock) (ret *ssa.Return, again bool) {
	start := spawn.Block()
	if recv.blocks[start] {
		// A receive in the go statement's own block comes after it if
		// the block is no select case.
		return nil, false
	}
	seen := map[*ssa.BasicBlock]bool{start: true}
	work := []*ssa.BasicBlock{start}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			return ret, false
		}
		for _, s := range b.Succs {
			if recv.through(b, s) {
				continue
			}
			if s == remake {
				return nil, true
			}
			if !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return nil, false
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

// onCycle reports whether a path leads from b back to b without
// receiving.
func onCycle(b *ssa.BasicBlock, recv receipts) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	type step struct{ from, to *ssa.BasicBlock }
	var work []step
	for _, s := range b.Succs {
		work = append(work, step{b, s})
	}
	for len(work) > 0 {
		st := work[len(work)-1]
		work = work[:len(work)-1]
		if recv.through(st.from, st.to) {
			continue
		}
		if st.to == b {
			return true
		}
		if !seen[st.to] {
			seen[st.to] = true
			for _, s := range st.to.Succs {
				work = append(work, step{st.to, s})
			}
		}
	}
	return false
}
