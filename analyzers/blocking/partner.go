package blocking

import (
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// A channel operation blocks forever when nothing can complete it: a
// nil channel, select {}, or a channel of the package's that no
// goroutine of the package's programs sends on (or closes, for a
// receive) or receives from (for an unbuffered send). The partners are
// the send, receive and close events of every trace.

// inCode stands for the goroutine of an operation found in the code
// rather than in a trace.
var inCode = new(shb.Trace)

// uses are the operations of the traces on one channel.
type uses struct {
	sends, recvs, closes []partnerOp
}

// partnerOp is an operation of goroutine t (inCode for code no trace
// follows) at a position.
type partnerOp struct {
	t  *shb.Trace
	at token.Pos
}

// add records an operation of goroutine t at pos.
func (u *uses) add(kind shb.Kind, t *shb.Trace, pos token.Pos) {
	op := partnerOp{t, pos}
	switch kind {
	case shb.Send:
		u.sends = append(u.sends, op)
	case shb.Recv:
		u.recvs = append(u.recvs, op)
	case shb.Close:
		u.closes = append(u.closes, op)
	}
}

// partnerless reports the channel operations that no operation of
// another goroutine can complete.
func (c *checker) partnerless() {
	escaped := c.escapedChannels()
	byChan := make(map[any]*uses)
	use := func(obj *pointer.Object) *uses {
		u := byChan[chanKey(obj)]
		if u == nil {
			u = new(uses)
			byChan[chanKey(obj)] = u
		}
		return u
	}
	for _, t := range c.hb.Traces {
		for i := range t.Events {
			ev := &t.Events[i]
			for _, obj := range c.channelsOf(t, ev) {
				use(obj).add(ev.Kind, t, instrPos(ev.Instr))
			}
		}
	}
	// The traces follow the goroutines from their roots; a method that
	// only code of another package calls (a Collector's Collect, an
	// RPC handler) is in none, but its operations complete others all
	// the same. They count as another goroutine's; one whose channel the
	// pointer analysis does not know counts for every channel of its
	// element type.
	c.unknown = make(map[opKey]bool)
	for _, op := range c.packageOps() {
		var objs []*pointer.Object
		for _, l := range c.pointsToAnywhere(op.ch) {
			objs = append(objs, l.Obj)
		}
		if !slices.ContainsFunc(objs, madeHere) && !isNil(op.ch) && !fromElsewhere(op.ch) {
			// A channel the analysis cannot name: a method that only
			// another package calls, on an object it did not see made.
			c.unknown[opKey{op.kind, elem(op.ch.Type()), sourceField(op.ch, 0)}] = true
		}
		for _, obj := range objs {
			use(obj).add(op.kind, inCode, op.instr.Pos())
		}
	}
	// judged tells whether obj is a channel whose every partner is in
	// view: made by the package, and reached by no package variable and
	// no code the analysis cannot see.
	judged := func(obj *pointer.Object) (*ssa.MakeChan, bool) {
		mc, ok := obj.Site.(*ssa.MakeChan)
		return mc, ok && mc.Parent() != nil && mc.Parent().Pkg == c.pkg && !escaped[obj]
	}
	c.judged = judged
	for _, t := range c.hb.Traces {
		for i := range t.Events {
			ev := &t.Events[i]
			if c.reported[ev.Instr] {
				continue
			}
			switch instr := ev.Instr.(type) {
			case *ssa.Send:
				if ev.Kind != shb.Send {
					continue
				}
				if isNil(instr.Chan) {
					c.report(kinds.SendBlocks, instr, instr.Pos(), c.startedAt(t), "send on nil channel blocks forever: %s never proceeds (%s)", c.goroutine(t), "a nil channel is never ready")
					continue
				}
				explain := c.why.at(instr.Pos())
				mc, objs, ok := c.allJudged(t, instr.Chan, judged)
				if !ok {
					if explain {
						c.why.note(instr.Pos(), c.opQuestion(t, ev), c.notJudged(t, instr.Chan))
					}
					continue
				}
				reported, early := c.sendBeforeReceivers(t, ev, mc, objs)
				if reported {
					continue
				}
				if !c.unbuffered(mc) {
					if explain {
						c.why.note(instr.Pos(), c.opQuestion(t, ev), firstOf(early, why(rules.Buffered, "%s (made at %s) has a buffer", c.chanName(instr.Chan), c.pos(mc.Pos()))))
					}
					continue
				}
				recv, received := anyOther(objs, byChan, t, func(u *uses) []partnerOp { return u.recvs })
				if !received && !c.unknownOp(mc, shb.Recv) {
					c.report(kinds.SendBlocks, instr, instr.Pos(), slices.Concat(c.startedAt(t), c.madeAt(mc)), "send blocks forever: %s sends on %s (made at %s, unbuffered), which no other goroutine receives from", c.goroutine(t), c.chanName(instr.Chan), c.pos(mc.Pos()))
				} else if explain {
					r := why(rules.Partner, "a receive, in code whose channel the analysis cannot name, may be on %s (of its element type, from a field it is stored in)", c.chanName(instr.Chan))
					if received {
						r = c.partnerAt("the receive", recv.t, recv.at)
					}
					c.why.note(instr.Pos(), c.opQuestion(t, ev), firstOf(early, r))
				}
			case *ssa.UnOp:
				if ev.Kind != shb.Recv || instr.Op != token.ARROW {
					continue
				}
				if isNil(instr.X) {
					c.report(kinds.ReceiveBlocks, instr, instr.Pos(), c.startedAt(t), "receive from nil channel blocks forever: %s never proceeds (%s)", c.goroutine(t), "a nil channel is never ready")
					continue
				}
				mc, objs, ok := c.allJudged(t, instr.X, judged)
				if !ok {
					if c.why.at(instr.Pos()) {
						c.why.note(instr.Pos(), c.opQuestion(t, ev), c.notJudged(t, instr.X))
					}
					continue
				}
				send, sentHere := anyOther(objs, byChan, nil, func(u *uses) []partnerOp { return u.sends })
				closer, closedHere := anyOther(objs, byChan, nil, func(u *uses) []partnerOp { return u.closes })
				sent := sentHere || c.unknownOp(mc, shb.Send)
				closed := closedHere || c.unknownOp(mc, shb.Close)
				switch {
				case !sent && !closed && c.blocksOnPurpose(instr):
					if c.why.at(instr.Pos()) {
						c.why.note(instr.Pos(), c.opQuestion(t, ev), why(rules.ServeForever, "%s receives from a channel made for it alone, and no go statement starts %s", instr.Parent().Name(), instr.Parent().Name()))
					}
				case !sent && !closed:
					c.report(kinds.ReceiveBlocks, instr, instr.Pos(), slices.Concat(c.startedAt(t), c.madeAt(mc)), "receive blocks forever: %s receives from %s (made at %s), which nothing sends on or closes", c.goroutine(t), c.chanName(instr.X), c.pos(mc.Pos()))
				case !closed && ranged(instr) && localChannel(mc):
					c.report(kinds.RangeBlocks, instr, instr.Pos(), slices.Concat(c.startedAt(t), c.madeAt(mc)), "range over channel blocks forever: %s ranges over %s (made at %s), which nothing closes: after the last send the loop waits forever", c.goroutine(t), c.chanName(instr.X), c.pos(mc.Pos()))
				case c.why.at(instr.Pos()):
					var r rules.Reason
					switch {
					case closedHere:
						r = c.partnerAt("the close", closer.t, closer.at)
					case closed:
						r = why(rules.Partner, "a close, in code whose channel the analysis cannot name, may be of %s", c.chanName(instr.X))
					case sentHere:
						r = c.partnerAt("the send", send.t, send.at)
					default:
						r = why(rules.Partner, "a send, in code whose channel the analysis cannot name, may be on %s", c.chanName(instr.X))
					}
					if ranged(instr) && !closed {
						r.Detail += " (whether a close ends the range is judged only for a channel that stays in its function and its goroutines)"
					}
					c.why.note(instr.Pos(), c.opQuestion(t, ev), r)
				}
			case *ssa.Select:
				if ev.Kind != shb.Recv && ev.Kind != shb.Send || !instr.Blocking {
					continue
				}
				if never, r := c.neverReady(t, instr, byChan, judged); never {
					c.report(kinds.SelectBlocks, instr, instr.Pos(), c.startedAt(t), "select blocks forever: %s selects on cases none of which can proceed: nothing sends on, receives from or closes their channels", c.goroutine(t))
				} else {
					c.why.note(instr.Pos(), c.opQuestion(t, ev), r)
				}
			}
		}
	}
	c.emptySelects()
}

// spawnedFuncs returns the functions that go statements start.
func (c *checker) spawnedFuncs() map[*ssa.Function]bool {
	if c.goEntries == nil {
		c.goEntries = make(map[*ssa.Function]bool)
		for _, o := range c.ptr.Origins {
			if o.Parent != nil {
				c.goEntries[o.Entry] = true
			}
		}
	}
	return c.goEntries
}

// blocksOnPurpose reports whether recv is <-make(chan T), a receive from
// a channel that nothing else can reach, in a function no go statement
// starts: like select {}, the idiom for waiting until the program is
// killed (serve-forever).
func (c *checker) blocksOnPurpose(recv *ssa.UnOp) bool {
	mc, ok := recv.X.(*ssa.MakeChan)
	return ok && len(*mc.Referrers()) == 1 && !c.spawnedFuncs()[recv.Parent()]
}

// emptySelects reports select {} in the function a go statement
// starts: the goroutine leaks. In func main, or in a function its
// caller calls to serve until the program is killed (httptest's Start
// under a debug flag), it is the idiom for blocking forever.
func (c *checker) emptySelects() {
	spawned := c.spawnedFuncs()
	for _, fn := range c.funcs {
		if !spawned[fn] && c.why == nil {
			continue // a function a caller may mean to block (serve until killed)
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				sel, ok := instr.(*ssa.Select)
				if !ok || !sel.Blocking || len(sel.States) != 0 {
					continue
				}
				if !spawned[fn] {
					c.why.note(sel.Pos(), fmt.Sprintf("select {} blocks forever? %s never returns", fn.Name()), why(rules.ServeForever, "no go statement starts %s", fn.Name()))
					continue
				}
				c.report(kinds.SelectBlocks, sel, sel.Pos(), nil, "select {} blocks forever: %s never returns; only func main may wait so", fn.Name())
			}
		}
	}
}

// An opKey is a kind of channel operation on channels of one element
// type, loaded from one struct field when field is not nil.
type opKey struct {
	kind  shb.Kind
	elem  string
	field *types.Var
}

// maxSourceDepth bounds the calls sourceField follows.
const maxSourceDepth = 3

// sourceField returns the struct field that the channel v is loaded
// from, through the package's functions that return it (r.recv.get()
// returning b.c): an operation on an unknown object's field can only
// be on a channel that the package stores into that field. Nil when v
// comes from elsewhere, or from several fields.
func sourceField(v ssa.Value, depth int) *types.Var {
	switch v := v.(type) {
	case *ssa.ChangeType:
		return sourceField(v.X, depth)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return fieldVar(v.X)
		}
	case *ssa.Call:
		fn := v.Call.StaticCallee()
		if fn == nil || len(fn.Blocks) == 0 || depth >= maxSourceDepth || fn.Signature.Results().Len() != 1 {
			return nil
		}
		var field *types.Var
		for _, b := range fn.Blocks {
			ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok {
				continue
			}
			f := sourceField(ret.Results[0], depth+1)
			if f == nil || field != nil && f != field {
				return nil
			}
			field = f
		}
		return field
	}
	return nil
}

// fieldVar returns the struct field that v is the address of, or nil.
func fieldVar(v ssa.Value) *types.Var {
	fa, ok := v.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	st, ok := fa.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	s, ok := st.Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= s.NumFields() {
		return nil
	}
	return s.Field(fa.Field)
}

// storedInFields returns, for each struct field, the make sites of the
// channels that the package's code stores into it.
func (c *checker) storedInFields() map[*types.Var]map[*ssa.MakeChan]bool {
	if c.fieldChans != nil {
		return c.fieldChans
	}
	c.fieldChans = make(map[*types.Var]map[*ssa.MakeChan]bool)
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				f := fieldVar(st.Addr)
				if f == nil || elem(f.Type()) == "" {
					continue
				}
				for _, l := range c.pointsToAnywhere(st.Val) {
					if mc, ok := l.Obj.Site.(*ssa.MakeChan); ok {
						if c.fieldChans[f] == nil {
							c.fieldChans[f] = make(map[*ssa.MakeChan]bool)
						}
						c.fieldChans[f][mc] = true
					}
				}
			}
		}
	}
	return c.fieldChans
}

// elem returns the element type of channel type t.
func elem(t types.Type) string {
	if ch, ok := t.Underlying().(*types.Chan); ok {
		return types.TypeString(ch.Elem(), nil)
	}
	return ""
}

// unknownOp reports whether code whose channel the analysis does not
// know performs an operation of one of kinds on channels of the type mc
// makes, which may be mc's: not when mc's channel stays in its function
// and the goroutines it starts, all of which the analysis follows, nor
// when the code loads its channel from a struct field that the package
// never stores mc's channels into.
func (c *checker) unknownOp(mc *ssa.MakeChan, kinds ...shb.Kind) bool {
	if localChannel(mc) {
		return false
	}
	for k := range c.unknown {
		if !slices.Contains(kinds, k.kind) || k.elem != elem(mc.Type()) {
			continue
		}
		if k.field == nil || c.storedInFields()[k.field][mc] {
			return true
		}
	}
	return false
}

// fromElsewhere reports whether channel v is what a call of another
// package's function returns (ctx.Done(), time.After(d)): a channel of
// its own, since one of the package's channels that reached it was
// given to it and is judged no more (see escapedChannels).
func fromElsewhere(v ssa.Value) bool {
	if ct, ok := v.(*ssa.ChangeType); ok {
		v = ct.X
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	if call.Call.IsInvoke() {
		m := call.Call.Method
		return m.Pkg() != nil && m.Pkg() != call.Parent().Pkg.Pkg
	}
	fn := call.Call.StaticCallee()
	return fn != nil && fn.Pkg != nil && fn.Pkg != call.Parent().Pkg
}

// madeHere reports whether obj is a channel that a make of the
// package's code made.
func madeHere(obj *pointer.Object) bool {
	_, ok := obj.Site.(*ssa.MakeChan)
	return ok
}

// chanOp is a channel operation of the package's code.
type chanOp struct {
	kind  shb.Kind
	ch    ssa.Value
	instr ssa.Instruction
}

// packageOps returns the channel operations of the package's functions:
// sends, receives, select cases and closes.
func (c *checker) packageOps() []chanOp {
	var ops []chanOp
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.Send:
					ops = append(ops, chanOp{shb.Send, x.Chan, x})
				case *ssa.UnOp:
					if x.Op == token.ARROW {
						ops = append(ops, chanOp{shb.Recv, x.X, x})
					}
				case *ssa.Select:
					for _, st := range x.States {
						k := shb.Recv
						if st.Dir == types.SendOnly {
							k = shb.Send
						}
						ops = append(ops, chanOp{k, st.Chan, x})
					}
				case ssa.CallInstruction: // defer close(done) too
					if b, ok := x.Common().Value.(*ssa.Builtin); ok && b.Name() == "close" {
						ops = append(ops, chanOp{shb.Close, x.Common().Args[0], x})
					}
				}
			}
		}
	}
	return ops
}

// goroutine names the goroutine of trace t.
func (c *checker) goroutine(t *shb.Trace) string {
	return t.Origin.Describe(c.pass.Fset)
}

// channelsOf returns the channels that event ev of trace t, a send,
// receive or close, may operate on: the object the walk found, the
// members of the set it found, or what the channel operand points to.
func (c *checker) channelsOf(t *shb.Trace, ev *shb.Event) []*pointer.Object {
	if ev.Kind != shb.Send && ev.Kind != shb.Recv && ev.Kind != shb.Close {
		return nil
	}
	if ev.Obj >= 0 {
		return c.hb.Objects(ev.Obj)
	}
	var objs []*pointer.Object
	for _, v := range shb.ChanOperands(ev) {
		for _, l := range c.ptr.PointsToIn(t.Origin, v) {
			objs = append(objs, l.Obj)
		}
	}
	return objs
}

// allJudged returns the channels that ch may be in t's goroutine when
// judged accepts every one, and the allocation of the first.
func (c *checker) allJudged(t *shb.Trace, ch ssa.Value, judged func(*pointer.Object) (*ssa.MakeChan, bool)) (*ssa.MakeChan, []*pointer.Object, bool) {
	locs := c.ptr.PointsToIn(t.Origin, ch)
	if len(locs) == 0 {
		return nil, nil, false
	}
	var first *ssa.MakeChan
	var objs []*pointer.Object
	for _, l := range locs {
		mc, ok := judged(l.Obj)
		if !ok {
			return nil, nil, false
		}
		if first == nil {
			first = mc
		}
		objs = append(objs, l.Obj)
	}
	return first, objs, true
}

// chanKey is what the partners of a channel are found by: the place
// that makes it. The pointer analysis tells apart the channels one make
// gives in different goroutines and constructor calls, but a call it
// resolves to too many callees (a fake of a test reached through an
// interface) may then see a channel that no partner names: the partners
// of any channel made there count.
func chanKey(obj *pointer.Object) any {
	if obj.Site != nil {
		return obj.Site
	}
	return obj
}

// anyOther returns an operation, of a trace other than not, of the kind
// that which selects on one of objs, and whether there is one.
func anyOther(objs []*pointer.Object, byChan map[any]*uses, not *shb.Trace, which func(*uses) []partnerOp) (partnerOp, bool) {
	for _, obj := range objs {
		if u := byChan[chanKey(obj)]; u != nil {
			if i := slices.IndexFunc(which(u), func(op partnerOp) bool { return op.t != not }); i >= 0 {
				return which(u)[i], true
			}
		}
	}
	return partnerOp{}, false
}

// instrPos is where instr is; NoPos for none.
func instrPos(instr ssa.Instruction) token.Pos {
	if instr == nil {
		return token.NoPos
	}
	return instr.Pos()
}

// neverReady reports whether no case of the blocking select sel in t's
// goroutine can ever proceed: each is on a nil channel, or on channels
// of the package's that nothing completes. When one can, it says why.
func (c *checker) neverReady(t *shb.Trace, sel *ssa.Select, byChan map[any]*uses, judged func(*pointer.Object) (*ssa.MakeChan, bool)) (bool, rules.Reason) {
	if len(sel.States) == 0 {
		return false, rules.None // select {}: see emptySelects
	}
	explain := c.why.at(sel.Pos())
	// proceeds says, when -why asks, why case st may proceed.
	proceeds := func(st *ssa.SelectState, r func() rules.Reason) (bool, rules.Reason) {
		if !explain {
			return false, rules.None
		}
		r1 := r()
		dir := "receiving from"
		if st.Dir == types.SendOnly {
			dir = "sending on"
		}
		r1.Detail = fmt.Sprintf("the case %s %s: %s", dir, c.chanName(st.Chan), r1.Detail)
		return false, r1
	}
	for _, st := range sel.States {
		if isNil(st.Chan) {
			continue
		}
		mc, objs, ok := c.allJudged(t, st.Chan, judged)
		if !ok {
			return proceeds(st, func() rules.Reason { return c.notJudged(t, st.Chan) })
		}
		if st.Dir == types.SendOnly {
			if !c.unbuffered(mc) {
				return proceeds(st, func() rules.Reason { return why(rules.Buffered, "it has a buffer (made at %s)", c.pos(mc.Pos())) })
			}
			if op, ok := anyOther(objs, byChan, t, func(u *uses) []partnerOp { return u.recvs }); ok {
				return proceeds(st, func() rules.Reason { return c.partnerAt("the receive", op.t, op.at) })
			}
			if c.unknownOp(mc, shb.Recv) {
				return proceeds(st, func() rules.Reason {
					return why(rules.Partner, "a receive, in code whose channel the analysis cannot name, may be on it")
				})
			}
			continue
		}
		if op, ok := anyOther(objs, byChan, nil, func(u *uses) []partnerOp { return append(slices.Clip(u.sends), u.closes...) }); ok {
			return proceeds(st, func() rules.Reason { return c.partnerAt("the send or close", op.t, op.at) })
		}
		if c.unknownOp(mc, shb.Send, shb.Close) {
			return proceeds(st, func() rules.Reason {
				return why(rules.Partner, "a send or close, in code whose channel the analysis cannot name, may be on it")
			})
		}
	}
	return true, rules.None
}

// ranged reports whether recv is the receive of a range loop over a
// channel (v, ok := <-ch; if !ok break): only a close ends the loop.
func ranged(recv *ssa.UnOp) bool {
	if !recv.CommaOk {
		return false
	}
	for _, r := range *recv.Referrers() {
		ex, ok := r.(*ssa.Extract)
		if !ok || ex.Index != 1 {
			continue
		}
		for _, rr := range *ex.Referrers() {
			if _, ok := rr.(*ssa.If); ok && ex.Block() == recv.Block() {
				return true
			}
		}
	}
	return false
}

// localChannel reports whether the channel mc makes lives in its
// function and the goroutines it starts: it is used by channel
// operations, captured by closures or given to go statements, and
// never stored in memory or passed to a call, so that once the
// function and those goroutines are done with it, nothing can close
// it.
func localChannel(mc *ssa.MakeChan) bool {
	return localValue(mc, 0)
}

func localValue(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.Send:
			if r.X == v {
				return false // sent as a value
			}
		case *ssa.MakeClosure:
			if !calledOnly(r) {
				return false // the closure goes where the analysis may not follow
			}
		case *ssa.UnOp, *ssa.Select, *ssa.DebugRef:
		case *ssa.ChangeType:
			if !localValue(r, depth+1) {
				return false
			}
		case *ssa.Go:
		case *ssa.Call:
			if _, ok := r.Call.Value.(*ssa.Builtin); !ok {
				return false
			}
		case *ssa.Store:
			cell, ok := r.Addr.(*ssa.Alloc)
			if !ok || r.Val != v || !localCell(cell, depth) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// localCell reports whether a variable's cell is only loaded, captured
// and stored, and what is loaded from it stays local.
func localCell(cell *ssa.Alloc, depth int) bool {
	for _, r := range *cell.Referrers() {
		switch r := r.(type) {
		case *ssa.UnOp:
			if r.Op != token.MUL || !localValue(r, depth+1) {
				return false
			}
		case *ssa.MakeClosure:
			if !calledOnly(r) {
				return false
			}
		case *ssa.Store, *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// calledOnly reports whether closure mc is only called or started as a
// goroutine where it is made, not stored or handed to other code.
func calledOnly(mc *ssa.MakeClosure) bool {
	for _, r := range *mc.Referrers() {
		switch r := r.(type) {
		case ssa.CallInstruction:
			if r.Common().Value != mc || slices.Contains(r.Common().Args, ssa.Value(mc)) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// escapedChannels returns the channels that code the analysis cannot
// see may operate on: reached from a package variable, or given to a
// function of another package or one it cannot resolve.
func (c *checker) escapedChannels() map[*pointer.Object]bool {
	escaped := maps.Clone(c.globalObjects())
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					for _, l := range c.passedOut(call, isChan) {
						escaped[l.Obj] = true
					}
				}
			}
		}
	}
	return escaped
}

// inPackage reports whether call calls a function of the package with
// a body, or a builtin: by name, a closure it makes, or a function value
// (not an interface method) that the pointer analysis resolves, in every
// goroutine that makes the call, to such functions only.
func (c *checker) inPackage(site ssa.CallInstruction) bool {
	call := site.Common()
	switch v := call.Value.(type) {
	case *ssa.Builtin:
		return true
	case *ssa.Function:
		return v.Pkg == c.pkg && v.Blocks != nil
	case *ssa.MakeClosure:
		return true
	}
	if call.IsInvoke() || c.ptr == nil {
		return false
	}
	resolved := false
	for _, o := range c.ptr.OriginsOf(site.Parent()) {
		callees := c.ptr.Callees(o, site)
		if len(callees) == 0 || slices.ContainsFunc(callees, func(fn *ssa.Function) bool { return fn.Pkg != c.pkg || fn.Blocks == nil }) {
			return false
		}
		resolved = true
	}
	return resolved
}
