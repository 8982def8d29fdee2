package shb

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/passes/dataflow"
	"github.com/origo-dev/origo/passes/internal/loops"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// objects numbers the abstract locations that synchronization objects
// and locks are, and caches what the walkers ask of every function.
type objects struct {
	ptr  *pointer.Result
	ids  map[pointer.Location]int32
	locs []pointer.Location
	pts  map[ptsKey][]int32
	// groups numbers the sets of objects taken as one (see group).
	groups  map[string]int32
	isGroup map[int32]bool
	members map[int32][]int32 // by set: its objects
	tokens  map[int32]bool    // by object: see token, once asked
	comps   map[*ssa.Function][]int
	rpo     map[*ssa.Function][]*ssa.BasicBlock
	sels    map[*ssa.Function]*selectInfo

	observe map[*ssa.Function]map[*ssa.BasicBlock][]*observeSite
	siteIDs map[*observeSite]int32
	sites   []*observeSite
}

// selectInfo maps the select statements of a function to the blocks that
// run only when a given case was chosen.
type selectInfo struct {
	bodies  map[*ssa.BasicBlock]selectCase
	cases   map[*ssa.Select][]*ssa.BasicBlock // by case index; nil when unknown
	targets map[*ssa.Select][]*ssa.BasicBlock // where each case goes, its body or the code after the select
	onlyWay map[*ssa.Select][]bool            // by case index: see onlyWayOn
	never   map[*ssa.Select][]bool            // by case index: see neverReady
}

type selectCase struct {
	sel    *ssa.Select
	index  int
	region *caseRegion // nil when the body orders all that follows it
}

// caseRegion is what the receive of a select case with a body orders
// in its function: the blocks that only that body leads to (every path
// from the select to them passes through the body, or through another
// case's body that fails the test), and whether the function can return
// only through them (tail), so that its caller's events after the call
// follow the receive too. Blocks that another case reaches as well, the
// code after the select when two cases go on to it, are not ordered
// after the receive: that case may have been chosen instead.
type caseRegion struct {
	in   []bool // by block index
	tail bool
}

type ptsKey struct {
	o *pointer.Origin
	v ssa.Value
}

func newObjects(ptr *pointer.Result) *objects {
	return &objects{
		ptr:     ptr,
		ids:     make(map[pointer.Location]int32),
		pts:     make(map[ptsKey][]int32),
		groups:  make(map[string]int32),
		isGroup: make(map[int32]bool),
		members: make(map[int32][]int32),
		tokens:  make(map[int32]bool),
		comps:   make(map[*ssa.Function][]int),
		rpo:     make(map[*ssa.Function][]*ssa.BasicBlock),
		sels:    make(map[*ssa.Function]*selectInfo),

		observe: make(map[*ssa.Function]map[*ssa.BasicBlock][]*observeSite),
		siteIDs: make(map[*observeSite]int32),
	}
}

// id returns the number of a location.
func (s *objects) id(loc pointer.Location) int32 {
	if id, ok := s.ids[loc]; ok {
		return id
	}
	id := int32(len(s.locs))
	s.ids[loc] = id
	s.locs = append(s.locs, loc)
	return id
}

// pointsTo returns the numbers of the locations v may point to in o.
func (s *objects) pointsTo(o *pointer.Origin, v ssa.Value) []int32 {
	k := ptsKey{o, v}
	if ids, ok := s.pts[k]; ok {
		return ids
	}
	var ids []int32
	for _, loc := range s.ptr.UnboxedIn(o, v) {
		ids = append(ids, s.id(loc))
	}
	s.pts[k] = ids
	return ids
}

// of returns the one location v points to in o, or -1 when it may
// point to several or none: an edge needs the same object on both sides.
func (s *objects) of(o *pointer.Origin, v ssa.Value) int32 {
	if ids := s.pointsTo(o, v); len(ids) == 1 {
		return ids[0]
	}
	return -1
}

// maxGroup bounds the channels or WaitGroups that one expression may
// name for them to be taken together as one object (see group).
const maxGroup = 8

// group returns the one location v points to in o or, when v may be one
// of a few channels or WaitGroups (le.doneC where several lessors were
// made, in different tests or contexts), a number for that set taken as
// one object: the close of le.doneC in the goroutine and the receive
// from le.doneC in Stop name the same set, and order as one channel
// would, as an abstract object already stands for every channel made at
// its place. An operation on one member alone names another object and
// links with none of the set's. -1 when v points to none, or to more
// than maxGroup.
func (s *objects) group(o *pointer.Origin, v ssa.Value) int32 {
	return s.groupOf(s.pointsTo(o, v))
}

// groupOf returns the number of the set of locations ids, taken as one
// object (see group).
func (s *objects) groupOf(ids []int32) int32 {
	switch {
	case len(ids) == 1:
		return ids[0]
	case len(ids) == 0 || len(ids) > maxGroup:
		return -1
	}
	members := slices.Sorted(slices.Values(ids))
	key := fmt.Sprint(members)
	if id, ok := s.groups[key]; ok {
		return id
	}
	// The set stands at its first member's location, for its name; its
	// capacity is unknown (see capacity).
	id := int32(len(s.locs))
	s.locs = append(s.locs, s.locs[members[0]])
	s.groups[key] = id
	s.isGroup[id] = true
	s.members[id] = members
	return id
}

// loopCopies returns the allocation that the locations ids are the
// iteration copies of (see pointer's iteration tags: one allocation in
// a loop, one context, told apart by tag only), or nil.
func (s *objects) loopCopies(ids []int32) ssa.Instruction {
	if len(ids) < 2 {
		return nil
	}
	first := s.locs[ids[0]]
	tags := make(map[int]bool)
	for _, id := range ids {
		loc := s.locs[id]
		if loc.Obj.Site == nil || loc.Obj.Site != first.Obj.Site || loc.Obj.Ctx != first.Obj.Ctx || loc.Path() != first.Path() || tags[loc.Obj.Tag] {
			return nil
		}
		tags[loc.Obj.Tag] = true
	}
	instr, _ := first.Obj.Site.(ssa.Instruction)
	return instr
}

func (s *objects) components(fn *ssa.Function) []int {
	c, ok := s.comps[fn]
	if !ok {
		c = loops.Components(fn)
		s.comps[fn] = c
	}
	return c
}

func (s *objects) order(fn *ssa.Function) []*ssa.BasicBlock {
	o, ok := s.rpo[fn]
	if !ok {
		o = loops.Order(fn)
		s.rpo[fn] = o
	}
	return o
}

// selects finds the body of each case of fn's select statements: go/ssa
// tests the chosen index against each case in turn ("if t1 == 2 goto
// body"); a body is the true branch when nothing else jumps to it.
func (s *objects) selects(fn *ssa.Function) *selectInfo {
	if info, ok := s.sels[fn]; ok {
		return info
	}
	info := &selectInfo{bodies: make(map[*ssa.BasicBlock]selectCase), cases: make(map[*ssa.Select][]*ssa.BasicBlock), targets: make(map[*ssa.Select][]*ssa.BasicBlock), onlyWay: make(map[*ssa.Select][]bool), never: make(map[*ssa.Select][]bool)}
	s.sels[fn] = info
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok {
				continue
			}
			cases := make([]*ssa.BasicBlock, len(sel.States))
			targets := make([]*ssa.BasicBlock, len(sel.States))
			for _, ref := range *sel.Referrers() {
				ext, ok := ref.(*ssa.Extract)
				if !ok || ext.Index != 0 {
					continue
				}
				for _, use := range *ext.Referrers() {
					body, i, ok := caseBody(use, ext)
					if ok && i < len(cases) {
						targets[i] = body
					}
					if ok && i < len(cases) && len(body.Preds) == 1 {
						cases[i] = body
						info.bodies[body] = selectCase{sel, i, regionOf(sel, body)}
					}
				}
			}
			info.cases[sel] = cases
			info.targets[sel] = targets
			never := make([]bool, len(sel.States))
			for i, st := range sel.States {
				never[i] = st.Dir == types.RecvOnly && neverReady(st.Chan)
			}
			info.never[sel] = never
			only := make([]bool, len(sel.States))
			for i := range only {
				only[i] = info.findOnlyWayOn(sel, i)
			}
			info.onlyWay[sel] = only
		}
	}
	return info
}

// onlyWayOn reports whether case i of the blocking select sel, which
// has no body of its own (go/ssa sends it straight to the code after the
// select, which another path reaches too), is the only way from the
// select to that code: no other case gets there (each returns, panics
// or fails the test, or goes back to the select to choose again). A
// send case on a semaphore channel that is the only way on is taken for
// sure where the code goes on: select { case sem <- token: case
// <-ctx.Done(): return }.
func (info *selectInfo) onlyWayOn(sel *ssa.Select, i int) bool {
	only := info.onlyWay[sel]
	return i < len(only) && only[i]
}

// findOnlyWayOn finds onlyWayOn's answer, once per case when selects
// looks at the function.
func (info *selectInfo) findOnlyWayOn(sel *ssa.Select, i int) bool {
	cases, targets := info.cases[sel], info.targets[sel]
	if !sel.Blocking || sel.States[i].Dir != types.SendOnly || targets == nil || targets[i] == nil || cases[i] != nil {
		return false
	}
	after := targets[i]
	seen := map[*ssa.BasicBlock]bool{sel.Block(): true}
	var work []*ssa.BasicBlock
	for j, to := range targets {
		if j == i || info.neverChosen(sel, j) {
			continue
		}
		if to == nil || to == after {
			return false // it goes on to the code after the select too
		}
		if !seen[to] {
			seen[to] = true
			work = append(work, to)
		}
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b == after {
			return false
		}
		if failsTest(b) {
			continue
		}
		for _, s := range b.Succs {
			if !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return true
}

// neverChosen reports whether case i of sel receives from a channel
// that is never ready (neverReady): the select never chooses it.
func (info *selectInfo) neverChosen(sel *ssa.Select, i int) bool {
	never := info.never[sel]
	return i < len(never) && never[i]
}

// neverReady reports whether a receive from ch can never complete: ch
// is made by one make in the function or one enclosing it, kept in a
// variable (one that function literals capture, too) that nothing
// stores anything else into, and no code but receives can reach it: no
// send, no close, no call it is passed to, no other variable or field
// it is stored in. Nothing sends on it and nothing closes it, so it is
// never ready (select { case mtx <- token: case <-aux: } with aux made
// for nothing takes the token).
func neverReady(ch ssa.Value) bool {
	seen := make(map[ssa.Value]bool)
	switch ch := ch.(type) {
	case *ssa.MakeChan:
		return onlyReceived(ch, seen)
	case *ssa.UnOp:
		if ch.Op != token.MUL {
			return false
		}
		cell := variableOf(ch.X, 0)
		if cell == nil {
			return false
		}
		made := 0
		return onlyLoaded(cell, &made, seen) && made == 1
	}
	return false
}

// variableOf returns the local variable (a go/ssa Alloc) that addr is,
// or that a function literal's captured addr stands for, or nil.
func variableOf(addr ssa.Value, depth int) *ssa.Alloc {
	switch addr := addr.(type) {
	case *ssa.Alloc:
		return addr
	case *ssa.FreeVar:
		if depth <= 4 {
			return variableOf(syncapi.Binding(addr), depth+1)
		}
	}
	return nil
}

// onlyLoaded reports whether the variable at addr (an Alloc, or the
// captured address a function literal has of it) is only stored into
// with a make(chan) that goes nowhere else (counted in made), and
// loaded for receives.
func onlyLoaded(addr ssa.Value, made *int, seen map[ssa.Value]bool) bool {
	if seen[addr] {
		return true
	}
	seen[addr] = true
	refs := addr.Referrers()
	if refs == nil {
		return false
	}
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			mc, ok := ref.Val.(*ssa.MakeChan)
			if ref.Addr != addr || !ok || len(*mc.Referrers()) != 1 {
				return false
			}
			*made++
		case *ssa.UnOp:
			if ref.Op != token.MUL || !onlyReceived(ref, seen) {
				return false
			}
		case *ssa.MakeClosure:
			if !bindsOnly(ref, addr, func(fv *ssa.FreeVar) bool { return onlyLoaded(fv, made, seen) }) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// bindsOnly reports whether every free variable of the literal mk binds
// to v passes ok.
func bindsOnly(mk *ssa.MakeClosure, v ssa.Value, ok func(*ssa.FreeVar) bool) bool {
	fn, isFn := mk.Fn.(*ssa.Function)
	if !isFn {
		return false
	}
	for k, b := range mk.Bindings {
		if b == v && (k >= len(fn.FreeVars) || !ok(fn.FreeVars[k])) {
			return false
		}
	}
	return true
}

// onlyReceived reports whether v, a channel, is only received from (by
// a receive or a select's receive case), also by the function literals
// it is bound to.
func onlyReceived(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if ref.Op != token.ARROW {
				return false
			}
		case *ssa.Select:
			for _, st := range ref.States {
				if st.Chan == v && st.Dir != types.RecvOnly {
					return false
				}
			}
		case *ssa.MakeClosure:
			if !bindsOnly(ref, v, func(fv *ssa.FreeVar) bool { return onlyReceived(fv, seen) }) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// regionOf returns the region of the case of sel whose body is body, or
// nil when the body orders everything after it: no block after it is
// reached another way, and the function returns only through it.
func regionOf(sel *ssa.Select, body *ssa.BasicBlock) *caseRegion {
	fn := sel.Parent()
	// without: what the select leads to when another case is chosen;
	// a body that fails the test goes nowhere that matters.
	without := make([]bool, len(fn.Blocks))
	work := []*ssa.BasicBlock{sel.Block()}
	without[sel.Block().Index] = true
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if b != sel.Block() && failsTest(b) {
			continue
		}
		for _, s := range b.Succs {
			if s != body && !without[s.Index] {
				without[s.Index] = true
				work = append(work, s)
			}
		}
	}
	r := &caseRegion{in: make([]bool, len(fn.Blocks))}
	shared := false
	work = append(work, body)
	r.in[body.Index] = true
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range b.Succs {
			if without[s.Index] {
				shared = true
			} else if !r.in[s.Index] {
				r.in[s.Index] = true
				work = append(work, s)
			}
		}
	}
	r.tail = true
	for _, b := range fn.Blocks {
		if without[b.Index] && len(b.Succs) == 0 && !failsTest(b) {
			if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
				r.tail = false // the function returns without the body too
			}
		}
	}
	if !shared && r.tail {
		return nil
	}
	return r
}

// passingCase returns the one case of a blocking select that a passing
// test takes, when every other case has a body that fails the test
// (t.Error, t.Fatal, t.FailNow, ..., or a panic) and that one has no body
// of its own: -1 otherwise. A test that waits for its goroutine with
// "select { case <-done: case <-time.After(d): t.Fatal(...) }" has joined
// it on every run that passes, and a failed test's races are not the
// ones that matter, so the receive orders as a plain receive would. A
// case that is never chosen (neverChosen) counts for nothing.
func passingCase(info *selectInfo, sel *ssa.Select, bodies []*ssa.BasicBlock) int {
	if !sel.Blocking || bodies == nil {
		return -1
	}
	passing := -1
	for i, body := range bodies {
		switch {
		case info.neverChosen(sel, i):
		case body != nil && failsTest(body):
		case body == nil && passing < 0:
			passing = i
		default:
			return -1
		}
	}
	return passing
}

// failsTest reports whether block b fails or ends the test
// (syncapi.FailsTest), or panics.
func failsTest(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		switch instr := instr.(type) {
		case *ssa.Panic:
			return true
		case ssa.CallInstruction:
			if syncapi.FailsTest(instr.Common()) {
				return true
			}
		}
	}
	return false
}

// caseBody matches "t = index == i; if t goto body" and returns body and i.
func caseBody(use ssa.Instruction, index ssa.Value) (*ssa.BasicBlock, int, bool) {
	eq, ok := use.(*ssa.BinOp)
	if !ok || eq.Op != token.EQL || eq.X != index {
		return nil, 0, false
	}
	c, ok := eq.Y.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return nil, 0, false
	}
	i, ok := constant.Int64Val(c.Value)
	if !ok {
		return nil, 0, false
	}
	for _, ref := range *eq.Referrers() {
		if br, ok := ref.(*ssa.If); ok && br.Cond == eq {
			return br.Block().Succs[0], int(i), true
		}
	}
	return nil, 0, false
}

// capacity returns the buffer size a channel obj was made with, when it
// is a constant.
func (s *objects) capacity(obj int32) (int64, bool) {
	if s.isGroup[obj] {
		return 0, false // its members may be used one by one elsewhere
	}
	// A channel of the library's callers has the capacity every channel
	// the package stores in that field has.
	var n int64
	makes := s.makes(obj)
	for i, mc := range makes {
		c, ok := makeCapacity(mc)
		if !ok || i > 0 && c != n {
			return 0, false
		}
		n = c
	}
	return n, len(makes) > 0
}

// makeCapacity returns the constant capacity mc makes its channel with.
func makeCapacity(mc *ssa.MakeChan) (int64, bool) {
	c, ok := mc.Size.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(c.Value)
}

// token reports whether obj is a channel of one that holds a token
// while no one holds its lock: every channel it stands for is filled by
// the function that makes it (tok := make(chan struct{}, 1); tok <-
// struct{}{}), so a goroutine locks it by taking the token (<-c.tok)
// and unlocks it by putting the token back (c.tok <- struct{}{}).
func (s *objects) token(obj int32) bool {
	if t, ok := s.tokens[obj]; ok {
		return t
	}
	t := s.filledWhereMade(obj)
	s.tokens[obj] = t
	return t
}

func (s *objects) filledWhereMade(obj int32) bool {
	if s.isGroup[obj] {
		return s.everyMember(obj, s.token)
	}
	if !s.capacity1(obj) {
		return false
	}
	makes := s.makes(obj)
	for _, mc := range makes {
		if !filledFirst(mc) {
			return false
		}
	}
	return len(makes) > 0
}

// filledFirst reports whether the function that makes the channel mc
// sends on it before anything else gets it: every other use of the
// channel (a store, a composite literal, a call, a closure, a send of
// it) comes after a send on it, on every path. A channel handed over
// first and filled after (a notice its maker gives a waiter inside a
// struct, and sends on once the work is done) holds no token: each
// send is news, not a lock given back.
func filledFirst(mc *ssa.MakeChan) bool {
	var fills, uses []ssa.Instruction
	for _, instr := range *mc.Referrers() {
		switch instr := instr.(type) {
		case *ssa.Send:
			if instr.Chan == mc {
				fills = append(fills, instr)
				continue
			}
		case *ssa.DebugRef:
			continue
		}
		uses = append(uses, instr)
	}
	if len(fills) == 0 {
		return false
	}
	for _, u := range uses {
		if !slices.ContainsFunc(fills, func(f ssa.Instruction) bool { return dataflow.Precedes(f, u) }) {
			return false
		}
	}
	return true
}

// makes returns the makes that the channel obj stands for: its own, or
// for a channel of the library's callers, those the package stores in
// the field that holds it (pointer.Result.MadeFor).
func (s *objects) makes(obj int32) []*ssa.MakeChan {
	o := s.locs[obj].Obj
	if mc, ok := o.Site.(*ssa.MakeChan); ok {
		return []*ssa.MakeChan{mc}
	}
	return s.ptr.MadeFor(o)
}

// everyMember reports whether the set of channels obj has members and
// each of them is ok.
func (s *objects) everyMember(obj int32, ok func(int32) bool) bool {
	for _, m := range s.members[obj] {
		if !ok(m) {
			return false
		}
	}
	return len(s.members[obj]) > 0
}

// capacity1 reports whether obj is a channel made with a buffer of one,
// for a semaphore: a set of channels taken as one (see group) is, where
// every member is. Two goroutines that hold the set hold one of its
// channels each, which the set stands for as an abstract object stands
// for every channel made at its place.
func (s *objects) capacity1(obj int32) bool {
	if s.isGroup[obj] {
		return s.everyMember(obj, s.capacity1)
	}
	n, ok := s.capacity(obj)
	return ok && n == 1
}
