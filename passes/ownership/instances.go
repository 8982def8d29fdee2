package ownership

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/dataflow"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// This file tells apart the elements that the goroutines of one go
// statement in a loop write at their own index: the parallel-for,
//
//	results := make([]int, n)
//	for i := range n {
//		go func() { results[i] = f(i) }()
//	}
//
// The pointer analysis has one location for all elements of a slice, and
// gives the site two origins that stand for all its goroutines. Two of
// those goroutines touch different elements when both index, from the
// entry function itself, the same slice with the same per-goroutine
// value: a loop counter that the go statement's iteration binds (as an
// argument, or as a per-iteration variable the closure captures) and
// that never repeats between two runs of the go statement in one call
// of the function, on a slice that the call allocates once.

// spawn is an event that starts a goroutine: a trace and the event's ID.
type spawn struct {
	t  *shb.Trace
	id int32
}

// spawnsOf lists, for each origin, the events of every trace that start
// it, in the order of the traces and their events.
func spawnsOf(hb *shb.Result) map[*pointer.Origin][]spawn {
	spawns := make(map[*pointer.Origin][]spawn)
	for _, t := range hb.Traces {
		for _, ev := range t.Events {
			if ev.Kind == shb.Spawn {
				for _, o := range t.Spawned(ev.ID) {
					spawns[o] = append(spawns[o], spawn{t, ev.ID})
				}
			}
		}
	}
	return spawns
}

// spawnSites maps each origin to the go statement or call that starts
// it, when that is one instruction.
func spawnSites(spawns map[*pointer.Origin][]spawn) map[*pointer.Origin]ssa.CallInstruction {
	sites := make(map[*pointer.Origin]ssa.CallInstruction)
	for o, ss := range spawns {
		if call, ok := only(ss, func(s spawn) ssa.CallInstruction {
			call, _ := s.t.Events[s.id].Instr.(ssa.CallInstruction)
			return call
		}); ok {
			sites[o] = call
		}
	}
	return sites
}

// only returns the key that every spawn of ss has, and whether they all
// have one and ss is not empty.
func only[K comparable](ss []spawn, key func(spawn) K) (K, bool) {
	var k K
	for i, s := range ss {
		if ki := key(s); i == 0 {
			k = ki
		} else if ki != k {
			var zero K
			return zero, false
		}
	}
	return k, len(ss) > 0
}

// ownElements reports whether a and b are made by two goroutines that
// one go statement started and touch each its own element, at an index
// the statement's loop gives each goroutine once.
func (q *Query) ownElements(a, b pointer.Access) bool {
	oa, ob := a.Origin, b.Origin
	if !startsOne(oa) || !startsOne(ob) || oa.Entry != ob.Entry || a.Imported != nil || b.Imported != nil {
		return false
	}
	spawn := q.spawns[oa]
	if spawn == nil || q.spawns[ob] != spawn || q.reentered(oa) || q.reentered(ob) {
		return false
	}
	ia, ok := q.elementOf(a, spawn)
	if !ok {
		return false
	}
	ib, ok := q.elementOf(b, spawn)
	return ok && ia == ib
}

// startsOne reports whether each run of the site that started o starts
// one goroutine running o's entry once: a go statement, WaitGroup.Go,
// errgroup's Go; not a timer, which Reset runs again, nor a handler.
func startsOne(o *pointer.Origin) bool {
	switch o.Kind {
	case facts.SpawnGo, facts.SpawnWaitGroupGo, facts.SpawnErrgroupGo:
		return o.Parent != nil
	}
	return false
}

// element is how an access names its element: the entry's parameter or
// free variable that holds the slice (or array), and the one that holds
// the index.
type element struct{ slice, index ssa.Value }

// elementOf returns the element an access of the goroutine that spawn
// starts touches, when the slice is allocated once per call of the
// function holding spawn and the index is that statement's loop counter.
func (q *Query) elementOf(acc pointer.Access, spawn ssa.CallInstruction) (element, bool) {
	entry := acc.Origin.Entry
	addr := pointer.Addr(acc.Instr)
	if acc.Instr.Parent() != entry {
		addr = q.handedDown(addr, entry)
		if addr == nil {
			return element{}, false
		}
	}
	if ia := indexedElement(addr); ia != nil {
		slice, ok := q.oncePerCall(ia.X, entry, spawn)
		index, okIndex := q.loopCounter(ia.Index, entry, spawn)
		if ok && okIndex {
			return element{slice, index}, true
		}
	}
	return q.givenElement(baseOf(addr), entry, spawn)
}

// maxHandDown bounds the calls followed up by handedDown.
const maxHandDown = 3

// handedDown returns, for addr in a helper the entry calls, the address
// in the entry that it selects in: addr selects in a parameter of a
// function that the package calls at one place only, with the argument
// selecting in what its caller has, up to the entry (go func(id int) {
// work(&results[id]) }(i), work writing r.n). Nil when some function on
// the way is called elsewhere too, or the parameter is not what addr
// selects in.
func (q *Query) handedDown(addr ssa.Value, entry *ssa.Function) ssa.Value {
	for range maxHandDown {
		param, ok := baseOf(addr).(*ssa.Parameter)
		if !ok {
			return nil
		}
		fn := param.Parent()
		calls := q.fresh.callsOf(fn)
		if len(calls) != 1 {
			return nil
		}
		call, args, ok := boundArgs(calls[0], fn)
		if !ok {
			return nil
		}
		arg := args[slices.Index(fn.Params, param)]
		addr = rebase(addr, param, arg)
		if addr == nil {
			return nil
		}
		if call.Parent() == entry {
			return addr
		}
	}
	return nil
}

// rebase returns the selection addr makes in base, made in with instead:
// the argument's own address when addr is base itself, nil when addr
// selects through anything but fields and array elements (which would
// need new instructions).
func rebase(addr, base, with ssa.Value) ssa.Value {
	if addr == base {
		return with
	}
	switch addr.(type) {
	case *ssa.FieldAddr, *ssa.IndexAddr:
		// The selection is in the helper, the element's index in the
		// entry: what indexedElement reads of the entry is the argument.
		if baseOf(addr) == base {
			return with
		}
	}
	return nil
}

// givenElement returns the element that the go statement gives the
// goroutine a pointer to, when base is that parameter: go f(&s[i]),
// go s[i].run(), with s allocated once per call and i the loop counter.
func (q *Query) givenElement(base ssa.Value, entry *ssa.Function, spawn ssa.CallInstruction) (element, bool) {
	param, ok := base.(*ssa.Parameter)
	if !ok {
		return element{}, false
	}
	ia, ok := binding(param, entry, spawn).(*ssa.IndexAddr)
	if !ok || !q.allocatedOnce(ia.X, spawn) && !q.allocatedOnce(q.loadedOnce(ia.X, spawn), spawn) {
		return element{}, false
	}
	header := q.counterValue(ia.Index)
	if header == nil || !q.countsEachRun(header, spawn) {
		return element{}, false
	}
	return element{param, param}, true
}

// baseOf returns the pointer that addr selects a field or array element
// of, through any number of selections.
func baseOf(addr ssa.Value) ssa.Value {
	for {
		switch v := addr.(type) {
		case *ssa.FieldAddr:
			addr = v.X
		case *ssa.IndexAddr:
			if _, ok := v.X.Type().Underlying().(*types.Slice); ok {
				return v
			}
			addr = v.X
		default:
			return addr
		}
	}
}

// indexedElement returns the indexing of a slice or array that addr is
// inside of: &s[i], &s[i].f, &s[i].a[k]; nil when addr goes through a
// pointer loaded from memory, which another element may share.
func indexedElement(addr ssa.Value) *ssa.IndexAddr {
	var last *ssa.IndexAddr
	for {
		switch v := addr.(type) {
		case *ssa.FieldAddr:
			addr = v.X
		case *ssa.IndexAddr:
			last = v
			if _, ok := v.X.Type().Underlying().(*types.Slice); ok {
				return v
			}
			addr = v.X
		default:
			return last
		}
	}
}

// binding returns what the go statement gives the entry for v: the
// argument of a parameter, the captured variable of a free variable.
func binding(v ssa.Value, entry *ssa.Function, spawn ssa.CallInstruction) ssa.Value {
	switch v := v.(type) {
	case *ssa.Parameter:
		if _, isGo := spawn.(*ssa.Go); !isGo || spawn.Common().IsInvoke() || spawn.Common().StaticCallee() != entry {
			return nil
		}
		for i, p := range entry.Params {
			if p == v && i < len(spawn.Common().Args) {
				return spawn.Common().Args[i]
			}
		}
	case *ssa.FreeVar:
		mc := closureOf(entry, spawn)
		if mc == nil {
			return nil
		}
		for i, fv := range entry.FreeVars {
			if fv == v && i < len(mc.Bindings) {
				return mc.Bindings[i]
			}
		}
	}
	return nil
}

// closureOf returns the closure of entry that spawn starts: the go
// statement's function, or the function given to WaitGroup.Go and the
// like.
func closureOf(entry *ssa.Function, spawn ssa.CallInstruction) *ssa.MakeClosure {
	common := spawn.Common()
	for _, v := range append([]ssa.Value{common.Value}, common.Args...) {
		if mc, ok := v.(*ssa.MakeClosure); ok && mc.Fn == entry {
			return mc
		}
	}
	return nil
}

// oncePerCall returns the entry's parameter or free variable that holds
// the indexed slice or array x, when the function that runs spawn
// allocates it once per call: two goroutines of one call index the same
// one, and goroutines of different calls different ones.
func (q *Query) oncePerCall(x ssa.Value, entry *ssa.Function, spawn ssa.CallInstruction) (ssa.Value, bool) {
	holder := x
	if load, ok := x.(*ssa.UnOp); ok && load.Op == token.MUL {
		holder = load.X // a captured slice variable
	}
	b := binding(holder, entry, spawn)
	if b == nil {
		return nil, false
	}
	if holder == x {
		return holder, q.allocatedOnce(b, spawn) || q.allocatedOnce(q.loadedOnce(b, spawn), spawn)
	}
	// x is loaded from the captured variable b: its one value.
	cell, ok := b.(*ssa.Alloc)
	if !ok || cell.Parent() != spawn.Parent() || q.hb.InLoop(cell.Block()) {
		return nil, false
	}
	v := lockset.SoleStore(cell)
	if v == nil {
		v = storedOnceBefore(cell, spawn)
	}
	return holder, v != nil && q.allocatedOnce(v, spawn)
}

// storedOnceBefore returns the value a variable holds where spawn runs and
// ever after, when the function stores it once, before spawn on every
// path to it, besides the zero value it may start with and what it
// stores back as it returns (a named result: chans = make(...), then
// return chans); else nil.
func storedOnceBefore(cell *ssa.Alloc, spawn ssa.CallInstruction) ssa.Value {
	var store *ssa.Store
	var zeros []*ssa.Store
	for _, r := range *cell.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != cell {
				return nil
			}
			if c, ok := r.Val.(*ssa.Const); ok && c.IsNil() {
				zeros = append(zeros, r)
				continue
			}
			if load, ok := r.Val.(*ssa.UnOp); ok && load.Op == token.MUL && load.X == cell {
				continue // it stores back what it holds: return chans
			}
			if store != nil {
				return nil
			}
			store = r
		default:
			if !readOnlyUse(r, cell) {
				return nil
			}
		}
	}
	if store == nil || !before(store, spawn) {
		return nil
	}
	for _, z := range zeros {
		if !before(z, store) {
			return nil
		}
	}
	return store.Val
}

// before reports whether a runs before b on every path to b in their
// function.
func before(a, b ssa.Instruction) bool {
	ab, bb := a.Block(), b.Block()
	if ab != bb {
		return ab.Dominates(bb)
	}
	return slices.Index(ab.Instrs, a) < slices.Index(ab.Instrs, b)
}

// loadedOnce returns what a variable holds when v loads a variable that
// is stored once, outside loops, before spawn; else nil.
func (q *Query) loadedOnce(v ssa.Value, spawn ssa.CallInstruction) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	cell, ok := load.X.(*ssa.Alloc)
	if !ok || cell.Parent() != spawn.Parent() || q.hb.InLoop(cell.Block()) {
		return nil
	}
	return lockset.SoleStore(cell)
}

// allocatedOnce reports whether v is a slice or array that the function
// running spawn allocates, outside any loop.
func (q *Query) allocatedOnce(v ssa.Value, spawn ssa.CallInstruction) bool {
	instr, ok := v.(ssa.Instruction)
	if !ok || instr.Parent() != spawn.Parent() || q.hb.InLoop(instr.Block()) {
		return false
	}
	switch v := v.(type) {
	case *ssa.MakeSlice:
		return true
	case *ssa.Slice: // make([]T, constant) is a slice of a new array
		return q.allocatedOnce(v.X, spawn)
	case *ssa.Alloc:
		_, isArray := v.Type().(*types.Pointer).Elem().Underlying().(*types.Array)
		return isArray
	}
	return false
}

// loopCounter returns the entry's parameter or free variable that holds
// the index, when the go statement gives each goroutine it starts in one
// call of its function a different value: a loop counter of the
// statement's iteration.
func (q *Query) loopCounter(index ssa.Value, entry *ssa.Function, spawn ssa.CallInstruction) (ssa.Value, bool) {
	holder := index
	load, loaded := index.(*ssa.UnOp)
	if loaded && load.Op == token.MUL {
		holder = load.X // a captured per-iteration variable
	}
	b := binding(holder, entry, spawn)
	if b == nil {
		return nil, false
	}
	var header *ssa.BasicBlock
	if holder == index {
		header = q.counterValue(b)
	} else {
		header = q.counterCell(b, spawn)
	}
	return holder, header != nil && q.countsEachRun(header, spawn)
}

// counterValue returns the loop header of the counter that v is, or
// loads from the loop's per-iteration variable; else nil.
func (q *Query) counterValue(v ssa.Value) *ssa.BasicBlock {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		return q.counterCell(load.X, load)
	}
	return counterLoop(v)
}

// counterCell returns the loop header of the counter that the
// per-iteration variable cell holds when use reads it; else nil.
func (q *Query) counterCell(cell ssa.Value, use ssa.Instruction) *ssa.BasicBlock {
	switch cell := cell.(type) {
	case *ssa.Alloc:
		return q.perIterationCounter(cell, use)
	case *ssa.Phi:
		return counterCells(cell)
	}
	return nil
}

// perIterationCounter returns the loop header of the counter that the
// per-iteration variable cell holds: cell is made anew in each
// iteration, stored once with the counter before use, and only read.
func (q *Query) perIterationCounter(cell *ssa.Alloc, use ssa.Instruction) *ssa.BasicBlock {
	v := lockset.SoleStore(cell)
	if v == nil {
		return nil
	}
	header := counterLoop(v)
	if header == nil || !header.Dominates(cell.Block()) {
		return nil
	}
	for _, r := range *cell.Referrers() {
		if st, ok := r.(*ssa.Store); ok && !pointer.Dominates(st, use) {
			return nil
		}
	}
	return header
}

// counterCells returns the loop header of a three-clause loop whose
// per-iteration variable the closure captures: go/ssa makes a new cell
// for each iteration, copies the last one's value in and steps it
//
//	cells = phi [entry: first, body: next]
//	next = new int (i); *next = *cells; *next = *next + k
//
// and the loop only reads the cell of the current iteration, so each
// cell keeps one value, and the values step one way.
func counterCells(cells *ssa.Phi) *ssa.BasicBlock {
	ptr, ok := cells.Type().Underlying().(*types.Pointer)
	if !ok || !wideInteger(ptr.Elem()) || !onlyRead(cells) {
		return nil
	}
	header := cells.Block()
	dir := 0
	for i, pred := range header.Preds {
		cell, ok := cells.Edges[i].(*ssa.Alloc)
		if !ok {
			return nil
		}
		if !header.Dominates(pred) {
			if !storedBefore(cell, header) {
				return nil
			}
			continue
		}
		step := steppedCopy(cell, cells)
		if step == 0 || dir*step < 0 {
			return nil
		}
		dir = step
	}
	if dir == 0 {
		return nil
	}
	return header
}

// onlyRead reports whether the cells a phi selects are only loaded,
// here and in the closures that capture them.
func onlyRead(cells *ssa.Phi) bool {
	for _, r := range *cells.Referrers() {
		if !readOnlyUse(r, cells) {
			return false
		}
	}
	return true
}

// readOnlyUse reports whether r, a referrer of the variable (or cells)
// v, only reads it: a load, a closure that captures it and only reads
// it, a debug reference.
func readOnlyUse(r ssa.Instruction, v ssa.Value) bool {
	switch r := r.(type) {
	case *ssa.UnOp:
		return r.Op == token.MUL
	case *ssa.MakeClosure:
		return lockset.ReadOnlyCapture(r, v)
	case *ssa.DebugRef:
		return true
	}
	return false
}

// storedBefore reports whether the loop variable's first cell is stored
// only where the loop at header cannot come back to.
func storedBefore(cell *ssa.Alloc, header *ssa.BasicBlock) bool {
	for _, r := range *cell.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != cell || reaches(header, r.Block(), nil) {
				return false
			}
		case *ssa.Phi, *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// steppedCopy returns the sign of k when cell is the next iteration's
// cell of the loop variable, the last one's value plus k (the post
// statement i++, i += k, i--); else 0.
func steppedCopy(cell *ssa.Alloc, cells *ssa.Phi) int {
	var stores []*ssa.Store
	for _, r := range *cell.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			stores = append(stores, r)
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return 0
			}
		case *ssa.Phi, *ssa.DebugRef:
		default:
			return 0
		}
	}
	if len(stores) != 2 || stores[0].Block() != stores[1].Block() || !pointer.Dominates(stores[0], stores[1]) {
		return 0
	}
	if copied, ok := stores[0].Val.(*ssa.UnOp); !ok || copied.Op != token.MUL || copied.X != cells {
		return 0
	}
	bin, ok := stores[1].Val.(*ssa.BinOp)
	if !ok {
		return 0
	}
	last, ok := bin.X.(*ssa.UnOp)
	if !ok || last.Op != token.MUL || last.X != cell {
		return 0
	}
	return stepSign(bin)
}

// counterLoop returns the header of the loop whose counter v is: a phi
// that each iteration steps by a constant in one direction, or that phi
// plus a constant (the index of a range over a slice); else nil.
func counterLoop(v ssa.Value) *ssa.BasicBlock {
	phi, ok := v.(*ssa.Phi)
	if !ok {
		var step int
		if phi, step = offsetOf(v); step == 0 {
			return nil // not a step: i/2 repeats
		}
	}
	if phi == nil || !wideInteger(phi.Type()) {
		return nil
	}
	header := phi.Block()
	dir := 0
	for i, pred := range header.Preds {
		if !header.Dominates(pred) {
			continue // the loop's entry
		}
		p, step := offsetOf(phi.Edges[i])
		if p != phi || step == 0 || dir*step < 0 {
			return nil
		}
		dir = step
	}
	if dir == 0 {
		return nil // no back edge: not a loop
	}
	return header
}

// offsetOf returns the phi and the sign of the constant when v is
// phi + k or phi - k.
func offsetOf(v ssa.Value) (*ssa.Phi, int) {
	bin, ok := v.(*ssa.BinOp)
	if !ok {
		return nil, 0
	}
	phi, ok := bin.X.(*ssa.Phi)
	if !ok {
		return nil, 0
	}
	return phi, stepSign(bin)
}

// stepSign returns the sign of the constant k that bin adds to its
// first operand, x + k or x - k; 0 for anything else.
func stepSign(bin *ssa.BinOp) int {
	k, ok := bin.Y.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
		return 0
	}
	switch bin.Op {
	case token.ADD:
		return constant.Sign(k.Value)
	case token.SUB:
		return -constant.Sign(k.Value)
	}
	return 0
}

// wideInteger reports whether a counter of type t cannot wrap around to
// a value it had within a loop of any practical length.
func wideInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return false
	}
	switch b.Kind() {
	case types.Int, types.Int64, types.Uint, types.Uint64, types.Uintptr, types.Int32, types.Uint32:
		return true
	}
	return false
}

// countsEachRun reports whether the counter of the loop at header steps
// between any two runs of spawn in one call of its function whose
// goroutines may run at once: every path from spawn back to itself goes
// through the header, and comes back to the header only over the loop's
// own back edges, never entering the loop anew (an outer loop would
// start the count over), unless the goroutines are joined before the
// loop is entered again (see joinedEachRun).
func (q *Query) countsEachRun(header *ssa.BasicBlock, spawn ssa.CallInstruction) bool {
	from := spawn.Block()
	if !header.Dominates(from) {
		return false
	}
	// Paths that avoid the header must not come back to spawn.
	if from != header && reaches(from, from, header) {
		return false
	}
	// No path may enter the loop from outside again.
	for _, pred := range header.Preds {
		if !header.Dominates(pred) && reaches(from, pred, nil) {
			return q.joinedEachRun(spawn)
		}
	}
	return true
}

// joinedEachRun reports whether the goroutines that spawn starts in a
// loop end before the loop's iteration does: each one's last access
// happens before an event of its spawner after the spawn and in the
// same run of the outermost loop around it (wg.Wait() after the inner
// loop that starts them). The next run of the loop, which starts the
// count of an inner loop over, then starts goroutines that cannot run
// at once with these.
func (q *Query) joinedEachRun(spawn ssa.CallInstruction) bool {
	if j, ok := q.joined[spawn]; ok {
		return j
	}
	joined, found := true, false
	for _, t := range q.hb.Traces {
		for _, ev := range t.Events {
			if ev.Kind != shb.Spawn || ev.Instr != spawn {
				continue
			}
			found = true
			if ev.Loop < 0 {
				joined = false
				break
			}
			for _, sp := range t.Spawned(ev.ID) {
				g := q.hb.TraceOf(sp)
				if g == nil {
					continue
				}
				last := lastAccess(g)
				if last < 0 {
					continue
				}
				// The join is the operation the edge lands after: in the
				// loop, after the spawn.
				at, ok := q.order.FirstAfter(g, last, t)
				if !ok || at-1 <= ev.ID || int(at-1) >= len(t.Events) || t.Events[at-1].Loop != ev.Loop {
					joined = false
				}
			}
		}
	}
	if q.joined == nil {
		q.joined = make(map[ssa.CallInstruction]bool)
	}
	q.joined[spawn] = joined && found
	return joined && found
}

// lastAccess returns the ID of the last access of trace t, or -1.
func lastAccess(t *shb.Trace) int32 {
	for id := len(t.Events) - 1; id >= 0; id-- {
		if t.Events[id].Kind == shb.Access {
			return int32(id)
		}
	}
	return -1
}

// reaches reports whether some path of one or more edges leads from
// block from to block to without going through block avoid.
func reaches(from, to, avoid *ssa.BasicBlock) bool { return dataflow.Reaches(from, to, avoid) }

// maxReentryWalk bounds the functions walked to show that a goroutine's
// entry is not run again inside the goroutine; past it, it may be.
const maxReentryWalk = 2000

// reentered reports whether the goroutine of origin o may run its entry
// function again, by a call or by a goroutine it starts (which the
// pointer analysis folds into o when it starts the same site): that run
// would index with another goroutine's value. Unknown past the bound.
func (q *Query) reentered(o *pointer.Origin) bool {
	if r, ok := q.reentry[o]; ok {
		return r
	}
	type run struct {
		o  *pointer.Origin
		fn *ssa.Function
	}
	seen := map[run]bool{{o, o.Entry}: true}
	work := []run{{o, o.Entry}}
	reenters := false
	for len(work) > 0 && !reenters {
		if len(seen) > maxReentryWalk {
			reenters = true
			break
		}
		r := work[len(work)-1]
		work = work[:len(work)-1]
		visit := func(next run) {
			if next.fn == o.Entry {
				reenters = true
			}
			if !seen[next] {
				seen[next] = true
				work = append(work, next)
			}
		}
		for _, b := range r.fn.Blocks {
			for _, instr := range b.Instrs {
				site, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				for _, fn := range q.ptr.Callees(r.o, site) {
					visit(run{r.o, fn})
				}
				for _, sp := range q.ptr.Spawned(r.o, site) {
					visit(run{sp, sp.Entry})
				}
			}
		}
	}
	q.reentry[o] = reenters
	return reenters
}
