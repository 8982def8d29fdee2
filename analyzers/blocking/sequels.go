package blocking

import (
	"fmt"
	"go/token"
	"slices"
	"strings"

	"github.com/origo-dev/origo/analyzers/deadlock"
	"github.com/origo-dev/origo/analyzers/internal/ignore"
	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// A goroutine blocked forever leaves others stuck: those waiting for
// what it would have done after (a send, a close, a Done, a Signal), and
// those waiting for a mutex it holds. The places where goroutines block
// forever are the reports of this analyzer and of the deadlock
// analyzer's; what they leave stuck is reported in turn, and followed
// again, a few rounds deep.

// maxSequelRounds bounds how far a chain of sequels is followed.
const maxSequelRounds = 4

// place is an event of a trace.
type place struct {
	t  *shb.Trace
	ev int32
}

// sequels reports the operations and Locks that goroutines blocked
// forever leave stuck.
func (c *checker) sequels(dl *deadlock.Result) {
	c.order = c.hb.NewOrder()
	s := &sequelState{
		dl:       dl,
		byChan:   make(map[any][]place),
		bySync:   make(map[[2]int32][]place),
		chans:    make(map[place][]*pointer.Object),
		untraced: make(map[any]map[shb.Kind]bool),
		holders:  make(map[token.Pos][]place),
		leftBy:   make(map[token.Pos][]*shb.Trace),
	}
	traced := make(map[ssa.Instruction]bool)
	for _, t := range c.hb.Traces {
		for i := range t.Events {
			ev := &t.Events[i]
			traced[ev.Instr] = true
			switch ev.Kind {
			case shb.Send, shb.Recv, shb.Close:
				p := place{t, ev.ID}
				s.chans[p] = c.channelsOf(t, ev)
				for _, obj := range s.chans[p] {
					s.byChan[chanKey(obj)] = append(s.byChan[chanKey(obj)], p)
				}
			case shb.WGDone, shb.CondSignal:
				if ev.Obj >= 0 {
					k := [2]int32{int32(ev.Kind), ev.Obj}
					s.bySync[k] = append(s.bySync[k], place{t, ev.ID})
				}
			}
		}
	}
	// An operation of the package's code that no trace makes (a method
	// only another package calls) may complete a channel's operations
	// without ever blocking first.
	for _, op := range c.packageOps() {
		if traced[op.instr] {
			continue
		}
		for _, l := range c.pointsToAnywhere(op.ch) {
			k := chanKey(l.Obj)
			if s.untraced[k] == nil {
				s.untraced[k] = make(map[shb.Kind]bool)
			}
			s.untraced[k][op.kind] = true
		}
	}
	if c.why != nil {
		s.dlIgnored = c.deadlockIgnored(dl)
	}
	c.goneReceivers(s)
	c.selfWaits(s)
	bounded := true // the rounds stopped at their bound, still finding sequels
	for range maxSequelRounds {
		s.stuck = c.stuckEvents(dl)
		n := len(c.reported)
		for _, t := range c.hb.Traces {
			if c.startedAfterStuck(s, t) {
				continue // the goroutine may never start
			}
			for i := range t.Events {
				ev := &t.Events[i]
				if ev.Instr == nil || c.reportedForAll(ev.Instr) || dl.Blocks(ev.Instr.Pos()) || s.stuckBefore(t, ev.ID) {
					continue
				}
				switch ev.Kind {
				case shb.Send, shb.Recv:
					c.channelSequel(s, t, ev)
				case shb.WGWait, shb.CondWait:
					c.waitSequel(s, t, ev)
				case shb.Acquire:
					c.lockSequel(s, t, ev)
				}
			}
		}
		if len(c.reported) == n {
			bounded = false
			break
		}
	}
	if bounded {
		c.why.boundSequels()
	}
}

// fileLine is a line of a file.
type fileLine struct {
	file string
	line int
}

// deadlockIgnored returns the lines where an //origo:ignore deadlock
// directive silenced a report of the deadlock analyzer, with the
// directive's position: what such a report leaves stuck goes with it.
func (c *checker) deadlockIgnored(dl *deadlock.Result) map[fileLine]token.Pos {
	lines := make(map[fileLine]token.Pos)
	if dl == nil || dl.Silenced == nil {
		return lines
	}
	for _, d := range ignore.Directives(c.pass) {
		if slices.Contains(d.Names, deadlock.Analyzer.Name) && dl.Silenced.Used(d.Comment.Pos()) {
			lines[fileLine{d.Target.Filename, d.Target.Line}] = d.Comment.Pos()
		}
	}
	return lines
}

// behindIgnored returns a place before p, in its goroutine's run, on a
// line whose deadlock report a directive silenced, and the directive.
func (c *checker) behindIgnored(s *sequelState, p place) (token.Pos, token.Pos, bool) {
	if len(s.dlIgnored) == 0 {
		return token.NoPos, token.NoPos, false
	}
	for z := range p.ev {
		e := &p.t.Events[z]
		if e.Instr == nil || p.t.Run(z) != p.t.Run(p.ev) || !e.Instr.Pos().IsValid() {
			continue
		}
		posn := c.pass.Fset.Position(e.Instr.Pos())
		if d, ok := s.dlIgnored[fileLine{posn.Filename, posn.Line}]; ok {
			return e.Instr.Pos(), d, true
		}
	}
	return token.NoPos, token.NoPos, false
}

// sequelCandidate reports whether one of partners may be left stuck by
// its goroutine before it gets there: past a place where that goroutine
// may block forever, or one whose report a directive silenced. Only
// such operations does -why explain as sequels.
func (c *checker) sequelCandidate(s *sequelState, partners []place) bool {
	return slices.ContainsFunc(partners, func(p place) bool {
		if _, _, ok := c.behindIgnored(s, p); ok {
			return true
		}
		return slices.ContainsFunc(s.stuck[p.t], func(x int32) bool { return x < p.ev && p.t.Run(x) == p.t.Run(p.ev) })
	})
}

// explainPartners notes, for -why, why each of partners that could
// complete event e of u does not block first (see blockedFirst): the
// question q, with the partner.
func (c *checker) explainPartners(s *sequelState, partners []place, u *shb.Trace, e int32, q string) {
	pos := u.Events[e].Instr.Pos()
	for _, p := range partners {
		at := instrPos(p.t.Events[p.ev].Instr)
		pq := fmt.Sprintf("%s: the one at %s (%s)", q, c.pos(at), c.goroutine(p.t))
		if p.t == u {
			c.why.noteSequel(pos, pq, why(rules.Partner, "its own goroutine gets there"))
			continue
		}
		_, blocked, r := c.blockedFirst(s, p, partners, u, e)
		if blocked {
			continue
		}
		if where, d, ok := c.behindIgnored(s, p); ok {
			r = why(rules.Ignored, "it comes after %s, where the directive at %s silenced the deadlock analyzer's report, and with it what that report leaves stuck", c.pos(where), c.pos(d))
		}
		c.why.noteSequel(pos, pq, r)
	}
}

// partners returns the operations of partnerKinds (what names them) on
// objs, in the order of byChan, each once: for channels with thousands
// of operations, the work of a minute (database/sql) when done for each
// of their operations in each round, so kept.
func (s *sequelState) partners(objs []*pointer.Object, partnerKinds []shb.Kind, what string) []place {
	var b strings.Builder
	b.WriteString(what)
	for _, obj := range objs {
		fmt.Fprintf(&b, " %p", chanKey(obj)) // a pointer: *pointer.Object or ssa.Value
	}
	memo := b.String()
	if ps, ok := s.partnersOf[memo]; ok {
		return ps
	}
	var partnerKind [256]bool
	for _, kind := range partnerKinds {
		partnerKind[kind] = true
	}
	var partners []place
	seen := make(map[place]bool)
	for _, obj := range objs {
		for _, p := range s.byChan[chanKey(obj)] {
			if partnerKind[p.t.Events[p.ev].Kind] && !seen[p] {
				seen[p] = true
				partners = append(partners, p)
			}
		}
	}
	partners = slices.Clip(partners)
	if s.partnersOf == nil {
		s.partnersOf = make(map[string][]place)
	}
	s.partnersOf[memo] = partners
	return partners
}

// sequelState is what sequels finds its partners by.
type sequelState struct {
	dl *deadlock.Result
	// stuck holds, by trace, the events where its goroutine may block
	// forever, in order.
	stuck map[*shb.Trace][]int32
	// byChan holds the sends, receives and closes of each channel, by
	// chanKey; bySync the Dones and Signals of each WaitGroup and Cond,
	// by kind and object.
	byChan map[any][]place
	bySync map[[2]int32][]place
	// partnersOf keeps what partners found, by operation and channels.
	partnersOf map[string][]place
	// chans holds the channels each send, receive and close may be on
	// (see channelsOf), asked once.
	chans map[place][]*pointer.Object
	// untraced holds the kinds of operation that code no trace follows
	// performs on each channel, by chanKey.
	untraced map[any]map[shb.Kind]bool
	// holders holds, for a Lock reported as a sequel, where the
	// goroutine holding the mutex blocks.
	holders map[token.Pos][]place
	// leftBy holds, for a send reported because its receiver may have
	// left, the receiving goroutines: the send blocks only once they
	// returned.
	leftBy map[token.Pos][]*shb.Trace
	// dlIgnored holds, for -why, the lines where a directive silenced a
	// report of the deadlock analyzer (see deadlockIgnored).
	dlIgnored map[fileLine]token.Pos
}

// stuckBefore reports whether t's goroutine may block forever before
// event ev, in the same run: ev may never come.
func (s *sequelState) stuckBefore(t *shb.Trace, ev int32) bool {
	for _, x := range s.stuck[t] {
		if x >= ev {
			break
		}
		if t.Run(x) == t.Run(ev) {
			return true
		}
	}
	return false
}

// reportedForAll reports whether instr has a report that says it blocks
// in every goroutine that runs it. A sequel's is about some goroutines
// (see checker.blockedIn): the others are judged still, to record the
// ones it blocks too.
func (c *checker) reportedForAll(instr ssa.Instruction) bool {
	_, some := c.blockedIn[instr.Pos()]
	return c.reported[instr] && !some
}

// startedAfterStuck reports whether the goroutine of t, or one of the
// goroutines that start it, is started after a place where its starter
// may block forever.
func (c *checker) startedAfterStuck(s *sequelState, t *shb.Trace) bool {
	for o := t.Origin; o.Parent != nil; o = o.Parent {
		parent := c.hb.TraceOf(o.Parent)
		child := c.hb.TraceOf(o)
		if parent == nil || child == nil {
			return false
		}
		if id, ok := c.spawnedBy(child, parent); ok && s.stuckBefore(parent, id) {
			return true
		}
	}
	return false
}

// stuckEvents returns, by trace, the events where the goroutine may
// block forever: a reported operation or Lock, or one inside a call
// reported as leading to one.
func (c *checker) stuckEvents(dl *deadlock.Result) map[*shb.Trace][]int32 {
	stuck := make(map[*shb.Trace][]int32)
	for _, t := range c.hb.Traces {
		blocked := func(pos token.Pos) bool {
			if in, ok := c.blockedIn[pos]; ok {
				return in[t]
			}
			return c.blockedAt[pos] || dl.BlocksIn(t, pos)
		}
		for _, ev := range t.Events {
			switch ev.Kind {
			case shb.Acquire, shb.Send, shb.Recv, shb.WGWait, shb.CondWait:
			default:
				continue
			}
			if ev.Instr == nil {
				continue
			}
			at := blocked(ev.Instr.Pos())
			if !at && !ev.Select {
				// A case of a select blocks only when the whole select is
				// reported; a call leading to a reported place does.
				frames, ok := t.Frames(ev.ID)
				at = ok && slices.ContainsFunc(frames, func(f pointer.Frame) bool { return f.Site != nil && blocked(f.Site.Pos()) })
			}
			if at {
				stuck[t] = append(stuck[t], ev.ID)
			}
		}
	}
	return stuck
}

// blockedFirst returns where the goroutine of p may block forever
// before it gets to p, while event e of u waits: a place where it is
// stuck whatever the others do, or only while another goroutine is at
// a place that e does not happen before (the other Lock of an inversion
// started after e's goroutine waits is never reached) and that comes
// before that goroutine's own partners of e (two goroutines that each
// would block on the mutex the other holds while it sends to e cannot
// both: one of them is at its send).
//
// When p's goroutine does not block first, it says why, for -why.
func (c *checker) blockedFirst(s *sequelState, p place, partners []place, u *shb.Trace, e int32) (int32, bool, rules.Reason) {
	reason := rules.None
	explain := c.why != nil
	for _, x := range s.stuck[p.t] {
		if x >= p.ev {
			break
		}
		if p.t.Run(x) != p.t.Run(p.ev) {
			continue
		}
		xAt := p.t.Events[x].Instr.Pos()
		if c.order.HappensBefore(p.t, x, u, e, false) {
			if explain {
				reason = firstOf(reason, why(rules.HappensBefore, "this one comes only once its goroutine is past %s, where it may block: %s", c.pos(xAt), c.order.Explain(c.pass.Fset, rules.HappensBefore, p.t, x, u, e)))
			}
			continue // e comes only once x is past
		}
		if c.receivedFrom(s, p.t, x, u, e) {
			if explain {
				reason = firstOf(reason, why(rules.HappensBefore, "this goroutine first receives what its goroutine sends at %s, where it may block: it gets here only once that send is past", c.pos(xAt)))
			}
			continue // e comes only once x is past
		}
		if slices.Contains(s.leftBy[xAt], u) {
			if explain {
				reason = firstOf(reason, why(rules.HappensBefore, "its goroutine may block at %s only once this goroutine has returned, its receiver gone", c.pos(xAt)))
			}
			continue // x blocks only once u has returned
		}
		needs := s.needs(xAt)
		if len(needs) == 0 || slices.ContainsFunc(needs, func(q place) bool {
			return !c.order.HappensBefore(u, e, q.t, q.ev, false) && !slices.ContainsFunc(partners, func(r place) bool {
				return r.t == q.t && r.ev <= q.ev && r.t.Run(r.ev) == q.t.Run(q.ev)
			})
		}) {
			return x, true, rules.None
		}
		if explain {
			reason = firstOf(reason, why(rules.HappensBefore, "its goroutine blocks at %s only while another is at %s, which comes only after this one, or is that goroutine's own way here", c.pos(xAt), c.pos(instrPos(needs[0].t.Events[needs[0].ev].Instr))))
		}
	}
	if explain && reason.Rule == "" {
		reason = why(rules.Partner, "it comes before any place where its goroutine may block forever")
	}
	return 0, false, reason
}

// receivedFrom reports whether x, a send of t, is on a channel that u
// receives from before e: e may come only once u has received what x
// sends (a request carrying the channel e answers on), which a select's
// receive does not order.
func (c *checker) receivedFrom(s *sequelState, t *shb.Trace, x int32, u *shb.Trace, e int32) bool {
	xe := &t.Events[x]
	if xe.Kind != shb.Send {
		return false
	}
	objs := s.chans[place{t, x}]
	for z := range e {
		ze := &u.Events[z]
		if ze.Kind == shb.Recv && (u.Run(z) == u.Run(e)) && s.sameChannel(place{u, z}, objs) {
			return true
		}
	}
	return false
}

// fedOnlyPast reports whether the goroutine at q must first receive
// what only u, after event e, can send: a plain receive before q whose
// every sender is u after e, or the stuck send x itself (which does not
// complete). Then q is never reached while u waits at e.
func (c *checker) fedOnlyPast(s *sequelState, q, x place, u *shb.Trace, e int32) bool {
	for z := range q.ev {
		ze := &q.t.Events[z]
		if ze.Kind != shb.Recv || ze.Select || q.t.Run(z) != q.t.Run(q.ev) {
			continue
		}
		objs := s.chans[place{q.t, z}]
		senders := 0
		fed := true
		for _, obj := range objs {
			for _, p := range s.byChan[chanKey(obj)] {
				if p.t.Events[p.ev].Kind != shb.Send && p.t.Events[p.ev].Kind != shb.Close || !s.sameChannel(p, objs) {
					continue
				}
				senders++
				// Copies of one goroutine (started in a loop) stand for
				// the same code: the analysis may give them one channel.
				if !(same(p.t, x.t) && p.ev == x.ev) && !(same(p.t, u) && p.ev > e) {
					fed = false
				}
			}
		}
		if fed && senders > 0 {
			return true
		}
	}
	return false
}

// same reports whether traces a and b are one goroutine or goroutines
// that one go statement starts with one function: instances of the same
// code, which the analysis may give the same channels.
func same(a, b *shb.Trace) bool {
	return a == b || a.Origin.Site == b.Origin.Site && a.Origin.Entry == b.Origin.Entry
}

// needs returns the places where other goroutines must be for one to
// block forever at pos: the deadlock analyzer's partners of its report,
// or the holder of the mutex of a Lock reported here as a sequel.
func (s *sequelState) needs(pos token.Pos) []place {
	var ps []place
	for _, q := range s.dl.Partners(pos) {
		ps = append(ps, place{q.Trace, q.Event})
	}
	return append(ps, s.holders[pos]...)
}

// allBlockedFirst returns, when every one of the partners that could
// complete event e of u is in another goroutine that may block forever
// before it, the first such partner and where its goroutine blocks;
// false when there is none, or one that nothing stops.
func (c *checker) allBlockedFirst(s *sequelState, partners []place, u *shb.Trace, e int32) (place, int32, bool) {
	var first place
	var at int32
	var left []*shb.Trace
	for i, p := range partners {
		if p.t == u {
			return place{}, 0, false
		}
		x, ok, _ := c.blockedFirst(s, p, partners, u, e)
		if !ok {
			return place{}, 0, false
		}
		if i == 0 {
			first, at = p, x
		}
		left = append(left, s.leftBy[p.t.Events[x].Instr.Pos()]...)
	}
	if len(partners) == 0 {
		return place{}, 0, false
	}
	// What those places wait for, e waits for too.
	pos := u.Events[e].Instr.Pos()
	for _, t := range left {
		if !slices.Contains(s.leftBy[pos], t) {
			s.leftBy[pos] = append(s.leftBy[pos], t)
		}
	}
	return first, at, true
}

// channelSequel reports a send or receive of u whose every partner,
// in the traces, comes after a place where its goroutine may block
// forever: a receive whose senders and closers are stuck before they
// send or close, a range over a channel whose closers are, a send on an
// unbuffered channel whose receivers are. Only channels the package
// makes and keeps in view are judged (see partnerless), and none that
// code no trace follows may complete.
func (c *checker) channelSequel(s *sequelState, u *shb.Trace, ev *shb.Event) {
	if ev.Select || c.judged == nil {
		return
	}
	var ch ssa.Value
	var partnerKinds []shb.Kind
	what := ""
	switch instr := ev.Instr.(type) {
	case *ssa.Send:
		ch, partnerKinds, what = instr.Chan, []shb.Kind{shb.Recv}, "send"
	case *ssa.UnOp:
		ch, partnerKinds, what = instr.X, []shb.Kind{shb.Send, shb.Close}, "receive"
		if ranged(instr) {
			partnerKinds, what = []shb.Kind{shb.Close}, "range"
		}
	default:
		return
	}
	if isNil(ch) {
		return
	}
	mc, objs, ok := c.allJudged(u, ch, c.judged)
	if !ok {
		return
	}
	untraced := false
	for _, obj := range objs {
		for _, kind := range partnerKinds {
			untraced = untraced || s.untraced[chanKey(obj)][kind]
		}
	}
	partners := s.partners(objs, partnerKinds, what)
	pos := ev.Instr.Pos()
	explain := c.why.at(pos) && c.sequelCandidate(s, partners)
	q := ""
	if explain {
		q = fmt.Sprintf("%s blocks forever? %s %s %s, and every goroutine that would complete it may block forever before it does", what, c.goroutine(u), map[string]string{"send": "sends on", "receive": "receives from", "range": "ranges over"}[what], c.chanName(ch))
	}
	switch {
	case what == "send" && !c.unbuffered(mc):
		if explain {
			c.why.noteSequel(pos, q, why(rules.Buffered, "%s (made at %s) has a buffer", c.chanName(ch), c.pos(mc.Pos())))
		}
		return
	case c.unknownOp(mc, partnerKinds...):
		if explain {
			c.why.noteSequel(pos, q, why(rules.Partner, "code whose channel the analysis cannot name may complete it"))
		}
		return
	case untraced:
		if explain {
			c.why.noteSequel(pos, q, why(rules.Partner, "code no goroutine of the package's programs reaches may complete it, whenever another package calls it"))
		}
		return
	}
	p, at, ok := c.allBlockedFirst(s, partners, u, ev.ID)
	if !ok {
		if explain {
			c.explainPartners(s, partners, u, ev.ID, q)
		}
		return
	}
	stuckAt := p.t.Events[at].Instr.Pos()
	c.blockedIn.Add(ev.Instr.Pos(), u)
	rel := slices.Concat(c.startedAt(u), c.madeAt(mc), c.related(stuckAt, "the goroutine that would complete it may block forever here"))
	by, where := c.goroutine(p.t), c.pos(stuckAt)
	switch what {
	case "send":
		c.reportSequel(stuckAt, kinds.SendBlocks, ev.Instr, ev.Instr.Pos(), rel, "send blocks forever: %s sends on %s (made at %s, unbuffered), but every goroutine that receives from it may block forever before it does: %s at %s (reported there)", c.goroutine(u), c.chanName(ch), c.pos(mc.Pos()), by, where)
	case "receive":
		c.reportSequel(stuckAt, kinds.ReceiveBlocks, ev.Instr, ev.Instr.Pos(), rel, "receive blocks forever: %s receives from %s (made at %s), but every goroutine that sends on or closes it may block forever before it does: %s at %s (reported there)", c.goroutine(u), c.chanName(ch), c.pos(mc.Pos()), by, where)
	case "range":
		c.reportSequel(stuckAt, kinds.RangeBlocks, ev.Instr, ev.Instr.Pos(), rel, "range over channel blocks forever: %s ranges over %s (made at %s), but every goroutine that closes it may block forever before it does: %s at %s (reported there)", c.goroutine(u), c.chanName(ch), c.pos(mc.Pos()), by, where)
	}
}

// waitSequel reports a WaitGroup.Wait whose every Done, or a Cond.Wait
// whose every Signal or Broadcast, comes after a place where its
// goroutine may block forever (a test's wg.Wait for workers that
// deadlock).
func (c *checker) waitSequel(s *sequelState, u *shb.Trace, ev *shb.Event) {
	if ev.Obj < 0 {
		return
	}
	kind, verb := shb.WGDone, "calls Done on"
	if ev.Kind == shb.CondWait {
		kind, verb = shb.CondSignal, "signals"
	}
	partners := s.bySync[[2]int32{int32(kind), ev.Obj}]
	p, at, ok := c.allBlockedFirst(s, partners, u, ev.ID)
	if !ok {
		if c.why.at(ev.Instr.Pos()) && c.sequelCandidate(s, partners) {
			what := "WaitGroup.Wait"
			if ev.Kind == shb.CondWait {
				what = "Cond.Wait"
			}
			c.explainPartners(s, partners, u, ev.ID, fmt.Sprintf("%s blocks forever? %s waits for %s, and every goroutine that %s it may block forever before it does", what, c.goroutine(u), syncName(ev), verb))
		}
		return
	}
	stuckAt := p.t.Events[at].Instr.Pos()
	c.blockedIn.Add(ev.Instr.Pos(), u)
	what, blocks := "WaitGroup.Wait", kinds.WaitGroupBlocks
	if ev.Kind == shb.CondWait {
		what, blocks = "Cond.Wait", kinds.CondWaitBlocks
	}
	c.reportSequel(stuckAt, blocks, ev.Instr, ev.Instr.Pos(), slices.Concat(c.startedAt(u), c.related(stuckAt, "the goroutine that would end the Wait may block forever here")),
		"%s blocks forever: %s waits for %s, and %s %s it only after %s, where it may block forever (reported there)",
		what, c.goroutine(u), syncName(ev), c.goroutine(p.t), verb, c.pos(stuckAt))
}

// lockSequel reports a Lock of a mutex that another goroutine holds
// where it may block forever, unless the Lock happens before that
// goroutine takes the mutex, or only after it gets past the place.
func (c *checker) lockSequel(s *sequelState, u *shb.Trace, ev *shb.Event) {
	if held, _ := c.hb.Locks.Holds(ev.Locks, ev.Obj); ev.Obj < 0 || held {
		return // a Lock of a mutex held already is the deadlock analyzer's
	}
	pos := ev.Instr.Pos()
	explain := c.why.at(pos)
	lockName := func() string {
		if name := c.hb.Locks.Name(ev.Obj); name != "" {
			return name
		}
		return "the mutex"
	}
	name := ""
	if explain {
		name = lockName()
	}
	for _, t := range c.hb.Traces {
		if t == u || !explain && !t.Origin.SameProgram(u.Origin) {
			continue // one goroutine, or two that never run in one program
		}
		for _, x := range s.stuck[t] {
			held, read := c.hb.Locks.Holds(t.Events[x].Locks, ev.Obj)
			if !held && t.Events[x].Kind != shb.CondWait {
				continue
			}
			// The Lock is a candidate: for -why, what rules it out.
			q := ""
			if explain {
				q = fmt.Sprintf("Lock blocks forever? %s locks %s, which %s may hold while it blocks forever at %s", c.goroutine(u), name, c.goroutine(t), c.pos(t.Events[x].Instr.Pos()))
			}
			switch {
			case t.Events[x].Kind == shb.CondWait:
				if held && explain {
					c.why.noteSequel(pos, q, why(rules.WaitUnlocks, "it blocks in Cond.Wait"))
				}
				continue // Wait releases the Cond's mutex while it waits
			case !t.Origin.SameProgram(u.Origin):
				c.why.noteSequel(pos, q, why(rules.OtherProgram, "%s", shb.ProgramsApart(c.pass.Fset, u.Origin, t.Origin)))
				continue
			case read && ev.Read:
				if explain {
					c.why.noteSequel(pos, q, why(rules.ReadLocks, "both read-lock %s", name))
				}
				continue
			case c.hb.SameTestRun(u, ev.ID, t, x):
				if explain {
					c.why.noteSequel(pos, q, why(rules.TestRunsOnce, "both are copies of one run of a parallel test"))
				}
				continue
			}
			a := x
			for z := x - 1; z >= 0; z-- {
				if e := t.Events[z]; e.Kind == shb.Acquire && e.Obj == ev.Obj && e.Instr != nil {
					a = z
					break
				}
			}
			if c.order.HappensBefore(u, ev.ID, t, a, false) {
				if explain {
					c.why.noteSequel(pos, q, why(rules.HappensBefore, "this Lock comes before the other goroutine takes %s at %s: %s", name, c.pos(t.Events[a].Instr.Pos()), c.order.Explain(c.pass.Fset, rules.HappensBefore, u, ev.ID, t, a)))
				}
				continue
			}
			if c.order.HappensBefore(t, x, u, ev.ID, false) {
				if explain {
					c.why.noteSequel(pos, q, why(rules.HappensBefore, "this Lock comes only once the other goroutine is past %s: %s", c.pos(t.Events[x].Instr.Pos()), c.order.Explain(c.pass.Fset, rules.HappensBefore, t, x, u, ev.ID)))
				}
				continue
			}
			needs := s.needs(t.Events[x].Instr.Pos())
			if len(needs) > 0 && !slices.ContainsFunc(needs, func(q place) bool {
				return !c.order.HappensBefore(u, ev.ID, q.t, q.ev, false) && !c.fedOnlyPast(s, q, place{t, x}, u, ev.ID)
			}) {
				if explain {
					c.why.noteSequel(pos, q, why(rules.HappensBefore, "the other goroutine blocks at %s only while another is at %s, which comes only after this Lock, or only once what it first receives is sent, which the blocked operation would do", c.pos(t.Events[x].Instr.Pos()), c.pos(instrPos(needs[0].t.Events[needs[0].ev].Instr))))
				}
				continue
			}
			stuckAt, lockedAt := t.Events[x].Instr.Pos(), t.Events[a].Instr.Pos()
			name := lockName()
			c.blockedIn.Add(ev.Instr.Pos(), u)
			locked := "locked at " + c.pos(lockedAt)
			if lockedAt == ev.Instr.Pos() {
				locked = "locked by this same Lock"
			}
			c.reportSequel(stuckAt, kinds.LockBlocks, ev.Instr, ev.Instr.Pos(), slices.Concat(c.startedAt(u), c.related(lockedAt, "%s locked here", name), c.related(stuckAt, "the goroutine holding it may block forever here")),
				"Lock blocks forever: %s locks %s, which %s holds while it may block forever at %s (reported there; %s)",
				c.goroutine(u), name, c.goroutine(t), c.pos(stuckAt), locked)
			s.holders[ev.Instr.Pos()] = append(s.holders[ev.Instr.Pos()], place{t, x})
			return
		}
	}
}

// syncName names the WaitGroup or Cond of a Wait event, or "it".
func syncName(ev *shb.Event) string {
	if call, ok := ev.Instr.(ssa.CallInstruction); ok {
		if args := call.Common().Args; len(args) > 0 {
			if name := shb.ExprName(args[0]); name != "" {
				return name
			}
		}
	}
	return "it"
}
