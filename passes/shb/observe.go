package shb

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/origo-dev/origo/passes/internal/loops"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// An atomic operation that observes the effect of another is
// synchronized after it (go.dev/ref/mem). Where a branch on the result
// of an atomic operation tells that it saw another goroutine's write,
// the blocks the branch dominates hold an observation: a lockset element
// that orders nothing by exclusion, but orders its events after what the
// writer did before the write (Order.Observed).

// observeRule is what a branch on an atomic operation's result tells
// about the writes the operation saw.
type observeRule uint8

const (
	// sawWrite: the value read is not the zero value the location
	// starts at (Load(&s) == 1, a CompareAndSwap(&s, 0, 1) that failed),
	// so some write was seen.
	sawWrite observeRule = iota + 1
	// sawAdds: the new value of an Add is the sum of the deltas of every
	// Add on the location, so every Add was seen (Add(&s, 1) == 2 with
	// two Adds of 1).
	sawAdds
	// sawCountdown: an Add of a negative delta brought the count to
	// zero (if atomic.AddInt32(&r.refs, -1) == 0 { r.free() }): a
	// count that reached zero is counted neither down nor up again (a
	// reference count's contract, a countdown's last goroutine), so
	// every other Add came before it.
	sawCountdown
	// wonFirst: a CompareAndSwap(&s, 0, n) that swapped, or a Swap(&s,
	// n) that returned zero, n a constant other than zero, where every
	// write of s stores such a constant: s starts at zero and never
	// becomes zero again, so one operation alone ever finds it there
	// (if !c.closed.CompareAndSwap(false, true) { return }; a Close that
	// runs once). It saw no write; the blocks it dominates run once.
	wonFirst
)

// observeSite is a branch on the result of an atomic call, or on a
// plain load of a location that a mutex guards (see guardedLoad).
type observeSite struct {
	call *ssa.Call
	load *ssa.UnOp // instead of call
	rule observeRule
	sum  int64 // for sawAdds: the new value the branch knows
}

// addr returns the address the site reads.
func (site *observeSite) addr() ssa.Value {
	if site.load != nil {
		return site.load.X
	}
	return site.call.Call.Args[0]
}

// observeKey is an observation: a site, numbered by objects.siteID, on
// the one location its call's address points to.
type observeKey struct{ site, obj int32 }

// observeSites returns, for each block of fn, the branches on an atomic
// result that dominate it and tell that the call saw a write.
func (s *objects) observeSites(fn *ssa.Function) map[*ssa.BasicBlock][]*observeSite {
	if m, ok := s.observe[fn]; ok {
		return m
	}
	var m map[*ssa.BasicBlock][]*observeSite
	for _, b := range fn.Blocks {
		br, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		for i, succ := range b.Succs {
			site := branchSite(br, i == 0)
			if site == nil || len(succ.Preds) != 1 {
				continue
			}
			if m == nil {
				m = make(map[*ssa.BasicBlock][]*observeSite)
			}
			for _, d := range fn.Blocks {
				if succ.Dominates(d) {
					m[d] = append(m[d], site)
				}
			}
		}
	}
	s.observe[fn] = m
	return m
}

// siteID numbers an observation site, for lockset elements.
func (s *objects) siteID(site *observeSite) int32 {
	if id, ok := s.siteIDs[site]; ok {
		return id
	}
	id := int32(len(s.sites))
	s.siteIDs[site] = id
	s.sites = append(s.sites, site)
	return id
}

// branchSite returns the observation that the successor of br taken
// when its condition is cond makes, or nil. It matches a condition that
// is an atomic call's result, its negation, or its comparison with a
// constant. A plain load counts only where a mutex orders it after the
// writes it may see (see Result.guardedWrites).
func branchSite(br *ssa.If, cond bool) *observeSite {
	v := br.Cond
	if not, ok := v.(*ssa.UnOp); ok && not.Op == token.NOT {
		v, cond = not.X, !cond
	}
	if site := countdownAtMostZero(v, cond); site != nil {
		return site
	}
	var k *ssa.Const
	equal := cond // on this branch, the result equals k (or differs from it)
	if cmp, ok := v.(*ssa.BinOp); ok && (cmp.Op == token.EQL || cmp.Op == token.NEQ) {
		if k, ok = cmp.Y.(*ssa.Const); ok {
			v = cmp.X
		} else if k, ok = cmp.X.(*ssa.Const); ok {
			v = cmp.Y
		} else {
			return nil
		}
		equal = cond == (cmp.Op == token.EQL)
	} else {
		k = ssa.NewConst(constant.MakeBool(true), v.Type())
	}
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if equal != isZero(k) {
			return &observeSite{load: load, rule: sawWrite}
		}
		return nil
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil
	}
	call = atomicResult(call)
	if call == nil {
		return nil
	}
	op := syncapi.Atomic(call.Call.StaticCallee())
	switch op {
	case syncapi.AtomicLoad, syncapi.AtomicSwap:
		// The result is the value read.
		if equal != isZero(k) {
			return &observeSite{call: call, rule: sawWrite}
		}
		if op == syncapi.AtomicSwap && nonZero(syncapi.AtomicOperand(op, &call.Call)) {
			return &observeSite{call: call, rule: wonFirst}
		}
	case syncapi.AtomicCompareAndSwap:
		// The result is whether the old value was there; a constant
		// old value tells what was read.
		old, ok := syncapi.AtomicOperand(op, &call.Call).(*ssa.Const)
		if !ok || k.Value == nil || k.Value.Kind() != constant.Bool {
			return nil
		}
		swapped := equal == constant.BoolVal(k.Value)
		if swapped != isZero(old) {
			return &observeSite{call: call, rule: sawWrite}
		}
		if swapped && nonZero(call.Call.Args[2]) {
			return &observeSite{call: call, rule: wonFirst}
		}
	case syncapi.AtomicAdd:
		n, ok := loops.IntConst(k)
		if !ok || !equal {
			return nil
		}
		if n == 0 && negative(syncapi.AtomicOperand(op, &call.Call)) {
			return &observeSite{call: call, rule: sawCountdown}
		}
		return &observeSite{call: call, rule: sawAdds, sum: n}
	}
	return nil
}

// countdownAtMostZero returns the countdown observation (sawCountdown)
// of a branch that compares the new value of an Add of a negative delta
// with a constant and knows it at most zero: the false branch of
// if n := r.refs.Add(-1); n > 0 { return }, the true one of n <= 0 or
// n < 1. A count that reached zero is counted neither down nor up again
// (sawCountdown's contract), so at most zero is zero: one Add alone got
// there. Nil for any other branch.
func countdownAtMostZero(v ssa.Value, cond bool) *observeSite {
	cmp, ok := v.(*ssa.BinOp)
	if !ok {
		return nil
	}
	x, op := cmp.X, cmp.Op
	k, ok := cmp.Y.(*ssa.Const)
	if !ok {
		if k, ok = cmp.X.(*ssa.Const); !ok {
			return nil
		}
		x, op = cmp.Y, swappedOrder[op] // k op y is y op' k
	}
	if !cond {
		op = negatedOrder[op]
	}
	n, ok := loops.IntConst(k)
	if !ok || !(op == token.LEQ && n == 0 || op == token.LSS && n == 1) {
		return nil
	}
	call, ok := x.(*ssa.Call)
	if !ok {
		return nil
	}
	if call = atomicResult(call); call == nil {
		return nil
	}
	if op := syncapi.Atomic(call.Call.StaticCallee()); op != syncapi.AtomicAdd || !negative(syncapi.AtomicOperand(op, &call.Call)) {
		return nil
	}
	return &observeSite{call: call, rule: sawCountdown}
}

// swappedOrder and negatedOrder map an ordering comparison to the one
// with its operands swapped, and to its negation (the other branch).
var (
	swappedOrder = map[token.Token]token.Token{token.LSS: token.GTR, token.GTR: token.LSS, token.LEQ: token.GEQ, token.GEQ: token.LEQ}
	negatedOrder = map[token.Token]token.Token{token.LSS: token.GEQ, token.GEQ: token.LSS, token.GTR: token.LEQ, token.LEQ: token.GTR}
)

// atomicResult returns the atomic call whose result call returns: call
// itself, or the one call of a function of one block that returns its
// result and does nothing else that matters (func (db *DB) setClosed()
// bool { return atomic.CompareAndSwapUint32(&db.closed, 0, 1) }); nil
// when there is none.
func atomicResult(call *ssa.Call) *ssa.Call {
	fn := call.Call.StaticCallee()
	if fn == nil {
		return nil
	}
	if syncapi.Atomic(fn) != syncapi.NotAtomic {
		return call
	}
	if len(fn.Blocks) != 1 {
		return nil
	}
	ret, ok := fn.Blocks[0].Instrs[len(fn.Blocks[0].Instrs)-1].(*ssa.Return)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	inner, ok := ret.Results[0].(*ssa.Call)
	if !ok || inner.Call.StaticCallee() == nil || syncapi.Atomic(inner.Call.StaticCallee()) == syncapi.NotAtomic {
		return nil
	}
	return inner
}

// nonZero reports whether v is a constant other than its type's zero.
func nonZero(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && !isZero(k)
}

// isZero reports whether k is the zero value of its type.
func isZero(k *ssa.Const) bool {
	if k.Value == nil {
		return true
	}
	switch k.Value.Kind() {
	case constant.Bool:
		return !constant.BoolVal(k.Value)
	case constant.Int, constant.Float:
		return constant.Sign(k.Value) == 0
	case constant.String:
		return constant.StringVal(k.Value) == ""
	}
	return false
}

// observations returns the lockset of the observations that the blocks
// around instr make, in the walker's origin.
func (w *walker) observations(instr ssa.Instruction) LocksetID {
	b := instr.Block()
	if b == nil {
		return 0
	}
	if id, ok := w.observed[b]; ok {
		return id
	}
	var elems []lockElem
	for _, site := range w.objs.observeSites(b.Parent())[b] {
		if obj := w.objs.of(w.o, site.addr()); obj >= 0 {
			elems = append(elems, lockElem{locs: []int32{obj}, observe: w.objs.siteID(site) + 1})
		}
	}
	id := w.locks.intern(elems)
	w.observed[b] = id
	return id
}

// writer sums up the atomic writes of one trace to an observed location.
type writer struct {
	t           *Trace
	first, last int32 // the first write (or the start of its loop) and the last
	atSite      bool  // every write is the observing call's own
}

// observedWrites are the atomic writes to an observation's location,
// when the rule holds for them.
type observedWrites struct {
	writers []writer
	valid   bool
}

// linkObservations works out, for every observation that some lockset
// holds, the writes that its location gets, all of them atomic calls of
// this package (so that it starts at zero and every write has an event).
func (res *Result) linkObservations(objs *objects) {
	var keys []observeKey
	for _, set := range res.Locks.sets {
		for _, e := range set {
			if e.observe > 0 {
				keys = append(keys, observeKey{e.observe - 1, e.locs[0]})
			}
		}
	}
	if len(keys) == 0 {
		return
	}
	writes := make(map[pointer.Location][]pointer.Access)
	loads := make(map[ssa.Instruction][]pointer.Access)
	for _, acc := range objs.ptr.Accesses() {
		if acc.Write {
			writes[acc.Loc] = append(writes[acc.Loc], acc)
		} else if _, ok := acc.Instr.(*ssa.UnOp); ok {
			loads[acc.Instr] = append(loads[acc.Instr], acc)
		}
	}
	res.observed = make(map[observeKey]*observedWrites)
	for _, k := range keys {
		if _, ok := res.observed[k]; ok {
			continue
		}
		accs := writes[objs.locs[k.obj]]
		if site := objs.sites[k.site]; site.load != nil {
			res.observed[k] = res.guardedWrites(k, accs, loads[site.load])
			continue
		}
		res.observed[k] = res.writesTo(objs, k, accs)
	}
}

// writesTo sums up the writes accs of the location of observation k by
// trace, and checks its rule.
func (res *Result) writesTo(objs *objects, k observeKey, accs []pointer.Access) *observedWrites {
	site := objs.sites[k.site]
	ow := new(observedWrites)
	if site.rule == wonFirst {
		// Which values are stored is a fact of the code: the rule
		// claims no order, so it needs no write's event.
		for _, acc := range accs {
			if !acc.Atomic || acc.Imported != nil || !storesNonZero(acc.Instr) {
				return ow
			}
		}
		ow.valid = true
		return ow
	}
	byTrace := make(map[*Trace]int)
	sum := int64(0)
	for _, acc := range accs {
		t := res.byOrig[acc.Origin]
		if site.rule == sawCountdown && !acc.Atomic && acc.Imported == nil {
			continue // the count set before it is counted: not claimed seen
		}
		if !acc.Atomic || acc.Imported != nil || t == nil {
			return ow
		}
		if site.rule == sawCountdown && !isAdd(acc.Instr) {
			return ow
		}
		var ids []int32
		for _, id := range t.at[acc.Instr] {
			if ev := &t.Events[id]; ev.Obj == k.obj && (ev.Kind == AtomicWrite || ev.Kind == SpinWait) {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			return ow // a write the trace did not follow, or to several places
		}
		i, ok := byTrace[t]
		if !ok {
			i = len(ow.writers)
			byTrace[t] = i
			ow.writers = append(ow.writers, writer{t: t, first: int32(len(t.Events)), last: -1, atSite: true})
		}
		wr := &ow.writers[i]
		wr.first = min(wr.first, earliest(t, ids))
		wr.last = max(wr.last, ids[len(ids)-1])
		wr.atSite = wr.atSite && acc.Instr == site.call
		if site.rule == sawAdds {
			d, ok := positiveAdd(acc.Instr)
			if !ok || count(t, ids) >= many {
				return ow
			}
			sum += d * int64(len(ids))
		}
	}
	ow.valid = site.rule != sawAdds || sum == site.sum
	return ow
}

// guardedWrites sums up, for an observation on a plain load, the writes
// accs of its location that may have made the value it saw (not those
// of a zero constant), by trace: valid when each is a plain write of
// this package's code that holds a mutex, held (or read-held) at each
// load of the site too. The read then sees a value written in an
// earlier critical section, and Unlock happens before the next Lock: a
// flag polled under a lock ("mu.Lock(); for !done { mu.Unlock();
// sleep(); mu.Lock() }").
func (res *Result) guardedWrites(k observeKey, accs, loads []pointer.Access) *observedWrites {
	ow := new(observedWrites)
	var common map[int32]bool // the mutexes every write holds
	byTrace := make(map[*Trace]int)
	for _, acc := range accs {
		t := res.byOrig[acc.Origin]
		if acc.Atomic || acc.Imported != nil || t == nil {
			return ow
		}
		if st, ok := acc.Instr.(*ssa.Store); ok {
			if c, ok := st.Val.(*ssa.Const); ok && isZero(c) {
				continue // cannot be what the load saw
			}
		} else {
			return ow
		}
		var ids []int32
		for _, id := range t.at[acc.Instr] {
			ev := &t.Events[id]
			if ev.Kind != Access {
				continue
			}
			ids = append(ids, id)
			held := res.writeLocks(res.AccessLocks(t, id, acc))
			if common == nil {
				common = held
			} else {
				for o := range common {
					if !held[o] {
						delete(common, o)
					}
				}
			}
		}
		if len(ids) == 0 || len(common) == 0 {
			return ow
		}
		i, ok := byTrace[t]
		if !ok {
			i = len(ow.writers)
			byTrace[t] = i
			ow.writers = append(ow.writers, writer{t: t, first: int32(len(t.Events)), last: -1})
		}
		wr := &ow.writers[i]
		wr.first = min(wr.first, earliest(t, ids))
		wr.last = max(wr.last, ids[len(ids)-1])
	}
	if len(loads) == 0 || len(ow.writers) == 0 {
		return ow
	}
	for _, acc := range loads {
		t := res.byOrig[acc.Origin]
		if t == nil || len(t.at[acc.Instr]) == 0 {
			return ow
		}
		for _, id := range t.at[acc.Instr] {
			if t.Events[id].Kind != Access {
				continue
			}
			if !res.holdsAny(res.AccessLocks(t, id, acc), common) {
				return ow
			}
		}
	}
	ow.valid = true
	return ow
}

// writeLocks returns the mutexes of lockset id held for writing, by
// their one location.
func (res *Result) writeLocks(id LocksetID) map[int32]bool {
	m := make(map[int32]bool)
	for _, e := range res.Locks.sets[id] {
		if e.observe == 0 && !e.once && !e.read && e.sibling == "" && e.callee == nil && len(e.locs) == 1 {
			m[e.locs[0]] = true
		}
	}
	return m
}

// holdsAny reports whether lockset id holds one of the mutexes in m, for
// reading or writing.
func (res *Result) holdsAny(id LocksetID, m map[int32]bool) bool {
	for _, e := range res.Locks.sets[id] {
		if e.observe == 0 && !e.once && e.sibling == "" && e.callee == nil && len(e.locs) == 1 && m[e.locs[0]] {
			return true
		}
	}
	return false
}

// positiveAdd returns the positive constant delta of an atomic Add call:
// with only such Adds, the value reaches their sum after the last one.
func positiveAdd(instr ssa.Instruction) (int64, bool) {
	if !isAdd(instr) {
		return 0, false
	}
	d, ok := loops.IntConst(syncapi.AtomicOperand(syncapi.AtomicAdd, instr.(ssa.CallInstruction).Common()))
	return d, ok && d > 0
}

// negative reports whether v is a constant delta that counts down: a
// negative one, or, for an unsigned count, one that wraps around to
// subtract (AddUint32(&n, ^uint32(0)) subtracts one).
func negative(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
		return false
	}
	if constant.Sign(k.Value) < 0 {
		return true
	}
	b, ok := k.Type().Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsUnsigned == 0 {
		return false
	}
	bits := map[types.BasicKind]uint{types.Uint32: 32, types.Uint64: 64, types.Uint: 64, types.Uintptr: 64}[b.Kind()]
	if bits == 0 {
		return false
	}
	// Past half the range: x + d wraps to x - (2^bits - d).
	half := constant.Shift(constant.MakeUint64(1), token.SHL, bits-1)
	return constant.Compare(k.Value, token.GEQ, half)
}

// lastOfCount reports whether the locksets a and b each hold an
// observation that a countdown reached zero (see sawCountdown), or that
// an operation was the first to write a flag (see wonFirst), on one
// location: only one Add brings a count to zero, and only one operation
// finds the flag at zero, so the blocks such branches dominate run in
// one goroutine, once for each count: for obj, the object raced on,
// when it is the count's own (c.buf beside c.closed) or made together
// with it (see madeTogether).
func (res *Result) lastOfCount(a, b LocksetID, obj *pointer.Object) bool {
	for _, x := range res.Locks.sets[a] {
		if !res.runsOnce(x) || !madeTogether(res.objs.locs[x.locs[0]].Obj, obj) {
			continue
		}
		for _, y := range res.Locks.sets[b] {
			if res.runsOnce(y) && y.locs[0] == x.locs[0] {
				return true
			}
		}
	}
	return false
}

// madeTogether reports whether objects x and y are one, or are made
// in one block of one function in one context: each making of one
// makes one of the other, so that a block that runs once for each
// count x runs once for each y (left and total, locals of the function
// whose workers count down). A count made apart from what the block
// touches (each connection's flag, one pool for them all) tells
// nothing of it.
func madeTogether(x, y *pointer.Object) bool {
	if x == y {
		return true
	}
	ix, ok := x.Site.(ssa.Instruction)
	if !ok {
		return false
	}
	iy, ok := y.Site.(ssa.Instruction)
	return ok && x.Ctx == y.Ctx && x.Tag == y.Tag && ix.Block() == iy.Block()
}

// runsOnce reports whether lockset element e is an observation that a
// countdown reached zero, or that a flag was first set, whose rule holds
// (see writesTo).
func (res *Result) runsOnce(e lockElem) bool {
	if e.observe == 0 {
		return false
	}
	if rule := res.objs.sites[e.observe-1].rule; rule != sawCountdown && rule != wonFirst {
		return false
	}
	ow := res.observed[observeKey{e.observe - 1, e.locs[0]}]
	return ow != nil && ow.valid
}

// storesNonZero reports whether instr, an atomic write, stores a
// constant other than zero: a Store or Swap of one, or a CompareAndSwap
// to one.
func storesNonZero(instr ssa.Instruction) bool {
	c, ok := instr.(ssa.CallInstruction)
	if !ok || c.Common().StaticCallee() == nil {
		return false
	}
	common := c.Common()
	switch syncapi.Atomic(common.StaticCallee()) {
	case syncapi.AtomicWrite: // a Store, or an And or Or
		return strings.HasPrefix(common.StaticCallee().Name(), "Store") && len(common.Args) == 2 && nonZero(common.Args[1])
	case syncapi.AtomicSwap:
		return len(common.Args) == 2 && nonZero(common.Args[1])
	case syncapi.AtomicCompareAndSwap:
		return len(common.Args) == 3 && nonZero(common.Args[2])
	}
	return false
}

// isAdd reports whether instr is an atomic Add call.
func isAdd(instr ssa.Instruction) bool {
	c, ok := instr.(ssa.CallInstruction)
	return ok && c.Common().StaticCallee() != nil && syncapi.Atomic(c.Common().StaticCallee()) == syncapi.AtomicAdd
}

// Observed reports whether an event holding lockset held in trace a
// runs after one of a's atomic operations saw a write that event y of
// trace b happens before: y precedes, in b's trace or through edges, a
// write the operation must have seen. With sawAdds every other trace's
// last Add is seen; with sawWrite, some write of the one other trace that
// writes (not started in a loop) is, so its first.
func (o *Order) Observed(held LocksetID, a, b *Trace, y int32) bool {
	for _, e := range o.r.Locks.sets[held] {
		if e.observe == 0 {
			continue
		}
		ow := o.r.observed[observeKey{e.observe - 1, e.locs[0]}]
		if ow == nil || !ow.valid {
			continue
		}
		for _, w := range o.seen(ow, o.r.objs.sites[e.observe-1].rule, a) {
			if o.before(b, y, w) {
				return true
			}
		}
	}
	return false
}

// seen returns the writes, as events, that an observation in trace a
// must have seen.
func (o *Order) seen(ow *observedWrites, rule observeRule, a *Trace) []ref {
	var out []ref
	if rule == wonFirst {
		return nil // it saw the zero the location starts at: no write
	}
	for _, w := range ow.writers {
		if w.t == a {
			if rule == sawWrite && (!w.atSite || a.Origin.Multi) {
				return nil // the value may be a's own, or a copy's of a's goroutine
			}
			continue
		}
		if rule == sawAdds || rule == sawCountdown {
			out = append(out, ref{w.t, w.last})
		} else {
			out = append(out, ref{w.t, w.first})
		}
	}
	if rule == sawWrite && (len(out) != 1 || out[0].t.Origin.Multi) {
		return nil
	}
	return out
}

// before reports whether event y of trace b happens before event w.
func (o *Order) before(b *Trace, y int32, w ref) bool {
	if b != w.t {
		return o.HappensBefore(b, y, w.t, w.id, false)
	}
	last := y
	if ev := &b.Events[y]; ev.Loop >= 0 {
		last = b.Loops[ev.Loop].End
	}
	return last < w.id
}
