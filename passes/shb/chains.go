package shb

import (
	"go/types"
	"slices"

	"github.com/origo-dev/origo/passes/pointer"
	"golang.org/x/tools/go/ssa"
)

// The walk inlines calls into a trace; each event notes the chain of
// calls it was made in, from the function the origin runs, so that the
// race analysis can ask what an access touches there (see Trace.Frames):
// the pointer analysis merges, in a function called from several
// places, what each caller gives it (Init of the notifier one test made
// and of the one another test made), but tells apart the objects of a
// constructor by call site, and each caller's own values. An event that
// stands for several chains (an access merged with the same access of
// another chain, a call skipped as the same walk as an earlier one) has
// none.

// chainLink is one call of a chain: the chain of its caller, the call
// site and the function called.
type chainLink struct {
	parent int32
	site   ssa.CallInstruction
	fn     *ssa.Function
}

// link returns the number of the chain that l, a call from the walk's
// chain, makes.
func (w *walker) link(l chainLink) int32 {
	if id, ok := w.links[l]; ok {
		return id
	}
	id := int32(len(w.tr.chains))
	w.tr.chains = append(w.tr.chains, l)
	w.links[l] = id
	return id
}

// isChain reports whether chain id is the one that l makes. Chains
// are numbered once each, so the link tells: no number is needed.
func (w *walker) isChain(id int32, l chainLink) bool {
	return id >= 0 && w.tr.chains[id] == l
}

// Frames returns the chain of calls that event id was made in, from the
// function the trace's origin runs; false when the event stands for
// several chains (see AllFrames) or its chain is not known.
func (t *Trace) Frames(id int32) ([]pointer.Frame, bool) {
	ev := &t.Events[id]
	if ev.Chain < 0 || ev.Several {
		return nil, false
	}
	return t.frames(ev.Chain), true
}

// A call skipped as the same walk as an earlier one, from another chain,
// makes the events of that walk stand for both chains; so does an access
// merged with the same access of another chain. The walk keeps, for
// each, the other chains, up to maxAlso: the walk's region and the
// calls that skipped it (the chain of each event there is the region's
// base chain, or a chain that goes on from it, which goes on the same
// way from the skipping call), or the other chains of a merged event.

// maxAlso bounds the other chains kept for a region or an event; past
// it, the events' chains are not known.
const maxAlso = 16

// maxAllFrames bounds the chains AllFrames returns for one event.
const maxAllFrames = 64

// region is a walk that calls from other chains skipped: its events,
// made in base or chains that go on from it, stand as well for the
// chains that go on the same way from each of alts.
type region struct {
	base     int32
	alts     []int32
	overflow bool // more than maxAlso: the events' chains are not known
}

// skipped records that the call l, from another chain than st's walk,
// skipped that walk, and returns the walk's region.
func (w *walker) skipped(st walkState, l chainLink) int32 {
	r := int32(len(w.tr.regions))
	w.tr.regions = append(w.tr.regions, region{base: st.chain, alts: []int32{w.link(l)}})
	if w.tr.regionsOf == nil {
		w.tr.regionsOf = make(map[int32][]int32)
	}
	w.tr.regionsOf[st.chain] = append(w.tr.regionsOf[st.chain], r)
	for id := st.from; id < st.to && int(id) < len(w.tr.Events); id++ {
		w.tr.Events[id].Several = true
	}
	return r
}

// skippedAgain records that the call l skipped the walk of region r too.
func (w *walker) skippedAgain(r int32, l chainLink) {
	reg := &w.tr.regions[r]
	if reg.overflow || w.isChain(reg.base, l) || slices.ContainsFunc(reg.alts, func(a int32) bool { return w.isChain(a, l) }) {
		return
	}
	if len(reg.alts) >= maxAlso {
		reg.overflow = true
		return
	}
	reg.alts = append(reg.alts, w.link(l))
}

// alsoIn records that ev, an access, stands for chain c too.
func (w *walker) alsoIn(ev *Event, c int32) {
	if ev.Chain < 0 {
		return
	}
	if c < 0 {
		ev.Chain = -1
		return
	}
	ev.Several = true
	also := w.tr.alsoAt[ev.ID]
	if slices.Contains(also, c) {
		return
	}
	if len(also) >= maxAlso {
		ev.Chain = -1
		delete(w.tr.alsoAt, ev.ID)
		return
	}
	if w.tr.alsoAt == nil {
		w.tr.alsoAt = make(map[int32][]int32)
	}
	w.tr.alsoAt[ev.ID] = append(also, c)
}

// AllFrames returns every chain of calls that event id may stand for, as
// Frames does for one; false when they are not known or more than
// maxAllFrames. A chain that goes through the base of a skipped walk
// stands as well for the one that goes on the same way from each call
// that skipped it, whether or not the event was made in that walk (its
// chain may have been walked more than once): more chains than the
// event's, never fewer.
func (t *Trace) AllFrames(id int32) ([][]pointer.Frame, bool) {
	ev := &t.Events[id]
	if ev.Chain < 0 {
		return nil, false
	}
	if !ev.Several {
		return [][]pointer.Frame{t.frames(ev.Chain)}, true
	}
	type rebased struct {
		prefix int32           // a numbered chain
		suffix []pointer.Frame // the calls that go on from it
	}
	work := []rebased{{prefix: ev.Chain}}
	for _, c := range t.alsoAt[id] {
		work = append(work, rebased{prefix: c})
	}
	var all [][]pointer.Frame
	for len(work) > 0 {
		if len(all) >= maxAllFrames {
			return nil, false
		}
		r := work[0]
		work = work[1:]
		frames := t.frames(r.prefix)
		all = append(all, append(slices.Clip(frames), r.suffix...))
		for a, depth := r.prefix, len(frames); a >= 0; a, depth = t.chains[a].parent, depth-1 {
			for _, reg := range t.regionsOf[a] {
				if t.regions[reg].overflow {
					return nil, false
				}
				for _, alt := range t.regions[reg].alts {
					work = append(work, rebased{alt, append(slices.Clone(frames[depth:]), r.suffix...)})
				}
			}
		}
	}
	return all, true
}

// frames returns chain c, from its first call.
func (t *Trace) frames(c int32) []pointer.Frame {
	var frames []pointer.Frame
	for ; c >= 0; c = t.chains[c].parent {
		l := t.chains[c]
		frames = append(frames, pointer.Frame{Site: l.site, Fn: l.fn})
	}
	slices.Reverse(frames)
	return frames
}

// callees returns the functions that the dynamic call c may call in the
// chain being walked: of those the pointer analysis finds in the origin,
// the ones that the function value may be there, followed back through
// the chain's parameters (withRetry(op) calls the op its caller passed,
// not every op given to withRetry anywhere).
func (w *walker) callees(c ssa.CallInstruction) []*ssa.Function {
	all := w.ptr.Callees(w.o, c)
	common := c.Common()
	if len(all) == 0 || w.chain < 0 {
		return all
	}
	if common.IsInvoke() {
		return w.methodsAlong(c, all)
	}
	if fn := common.StaticCallee(); fn != nil {
		if len(fn.Blocks) > 0 {
			return all
		}
		return w.callbacks(c, all)
	}
	if len(all) < 2 || !givenByChain(common.Value) {
		return all // made here: the analysis of this function is as precise
	}
	frames, ok := w.framesAt(c)
	if !ok {
		return all
	}
	fns, ok := w.funcsAlong(frames, common.Value)
	if !ok {
		return all
	}
	return w.narrowedTo(all, slices.DeleteFunc(slices.Clone(all), func(fn *ssa.Function) bool {
		return !slices.Contains(fns, fn)
	}))
}

// methodsAlong returns the methods among all, the callees the pointer
// analysis finds for c, a call of an interface's method, that the chain
// being walked may call: those of the dynamic types the interface value
// may hold there, followed back through the chain's parameters
// (transact(t) calls the run method of the transaction its caller
// passed, not that of every transaction given to transact anywhere).
func (w *walker) methodsAlong(c ssa.CallInstruction, all []*ssa.Function) []*ssa.Function {
	v := c.Common().Value
	if len(all) < 2 || !givenByChain(v) {
		return all // made here: the analysis of this function is as precise
	}
	frames, ok := w.framesAt(c)
	if !ok {
		return all
	}
	locs, ok := w.ptr.CalleesAlong(w.o, frames, v)
	if !ok || len(locs) == 0 {
		return all
	}
	var dyn []types.Type
	for _, l := range locs {
		t := l.Obj.DynamicType()
		if t == nil {
			return all // boxed elsewhere, or not a box: not known here
		}
		dyn = append(dyn, t)
	}
	return w.narrowedTo(all, slices.DeleteFunc(slices.Clone(all), func(fn *ssa.Function) bool {
		recv := fn.Signature.Recv()
		return recv != nil && !slices.ContainsFunc(dyn, func(t types.Type) bool { return types.Identical(t, recv.Type()) })
	}))
}

// callbacks returns the functions among all, the callees the pointer
// analysis finds for c, a call of another package's function, that it
// may call back in the chain being walked. Such a function calls the
// functions its caller passes it (tr.Ascend(nil, iter)); one passed on
// from the chain's parameters is the one the chain passed (Save's
// btreeAscend(keys, func...) calls Save's literal, not every literal
// given to btreeAscend anywhere). Callees that no argument gives are
// kept.
func (w *walker) callbacks(c ssa.CallInstruction, all []*ssa.Function) []*ssa.Function {
	frames, ok := w.framesAt(c)
	if !ok {
		return all
	}
	var given, along []*ssa.Function
	for _, arg := range c.Common().Args {
		if _, ok := arg.Type().Underlying().(*types.Signature); !ok || !givenByChain(arg) {
			continue // made here: the analysis of this function is as precise
		}
		fns, ok := w.funcsAlong(frames, arg)
		if !ok {
			return all
		}
		along = append(along, fns...)
		for _, l := range w.ptr.PointsToIn(w.o, arg) {
			if fn := l.Obj.Func(); fn != nil {
				given = append(given, fn)
			}
		}
	}
	if len(given) == 0 {
		return all
	}
	return w.narrowedTo(all, slices.DeleteFunc(slices.Clone(all), func(fn *ssa.Function) bool {
		return slices.Contains(given, fn) && !slices.Contains(along, fn)
	}))
}

// givenByChain reports whether v, a function or interface value, is
// one its function's callers gave it, or reached from one through
// fields and loads (t.runFunc of a receiver t): the chain then tells
// more than the analysis of the function alone (see
// pointer.PointsToAlong).
func givenByChain(v ssa.Value) bool { return pointer.GivenRoot(v) }

// framesAt returns the chain being walked, when its last function is
// the one that makes call c.
func (w *walker) framesAt(c ssa.CallInstruction) ([]pointer.Frame, bool) {
	frames := w.tr.frames(w.chain)
	return frames, len(frames) > 0 && frames[len(frames)-1].Fn == c.Parent()
}

// funcsAlong returns the functions that v, a value of the last function
// of frames, may be where the chain passed it; false when that is not
// known, or v may be something other than a function there.
func (w *walker) funcsAlong(frames []pointer.Frame, v ssa.Value) ([]*ssa.Function, bool) {
	locs, ok := w.ptr.CalleesAlong(w.o, frames, v)
	if !ok {
		return nil, false
	}
	var fns []*ssa.Function
	for _, l := range locs {
		fn := l.Obj.Func()
		if fn == nil {
			return nil, false // not only functions: not known here
		}
		if !slices.Contains(fns, fn) {
			fns = append(fns, fn)
		}
	}
	return fns, true
}

// narrowedTo returns out, the callees among all that the chain being
// walked may call, and counts the narrowing; all when out is empty.
func (w *walker) narrowedTo(all, out []*ssa.Function) []*ssa.Function {
	if len(out) == 0 {
		return all
	}
	if len(out) < len(all) {
		w.narrowed++
	}
	return out
}

// spawned returns the origins that site c starts in the chain being
// walked: a constructor that starts a goroutine starts, at each of its
// call sites, the origin of that call (see pointer.Origin.Sites), and
// a go statement on a pointer starts the origins of the objects it may
// point to in the chain (see pointer.Origin.Recv); each starts after
// that call, not after the first of them anywhere. Outside a known
// chain, every origin the site may start.
func (w *walker) spawned(c ssa.CallInstruction) []*pointer.Origin {
	all := w.ptr.Spawned(w.o, c)
	if w.chain < 0 || !slices.ContainsFunc(all, func(o *pointer.Origin) bool { return o.Sites[0] != nil || o.Recv != nil }) {
		return all
	}
	frames := w.tr.frames(w.chain)
	n := len(frames)
	if n == 0 || frames[n-1].Fn != c.Parent() {
		return all
	}
	var recvs []pointer.Location
	if v, _ := pointer.SplitValue(c); v != nil && slices.ContainsFunc(all, func(o *pointer.Origin) bool { return o.Recv != nil }) {
		recvs, _ = w.ptr.PointsToAlong(w.o, frames, v)
	}
	var out []*pointer.Origin
	for _, o := range all {
		if o.Sites[0] != nil && (o.Sites[0] != frames[n-1].Site || o.Sites[1] != nil && (n < 2 || o.Sites[1] != frames[n-2].Site)) {
			continue
		}
		if o.Recv != nil && len(recvs) > 0 && !slices.Contains(recvs, *o.Recv) {
			continue
		}
		out = append(out, o)
	}
	if len(out) == 0 {
		return all
	}
	return out
}

// syncObj returns the channel or WaitGroup that v names (see
// objects.group) in the chain being walked: where the origin's
// points-to set has several, those its callers pass along the chain
// (Stop's le.doneC, called by the test that made le, is that lessor's,
// the one its runLoop closes). wide is the set the event also links as
// (see linkWide), or -1: the set it was narrowed from, or, in an origin
// with twins (see pointer.Origin.Twin), what v names in any of them,
// the set it named before the twins were told apart.
func (w *walker) syncObj(v ssa.Value) (obj, wide int32) {
	k := chainValue{w.chain, v}
	if n, ok := w.narrowedObjs[k]; ok {
		return n[0], n[1]
	}
	ids := w.objs.pointsTo(w.o, v)
	obj, wide = w.objs.groupOf(ids), -1
	if len(ids) > 1 && w.chain >= 0 {
		frames := w.tr.frames(w.chain)
		if n := len(frames); n > 0 && frames[n-1].Fn == valueParent(v) {
			if locs, ok := w.ptr.PointsToAlong(w.o, frames, v); ok && len(locs) > 0 && len(locs) < len(ids) {
				var along []int32
				for _, l := range locs {
					along = append(along, w.objs.id(l))
				}
				if sub := w.objs.groupOf(along); sub >= 0 && subset(along, ids) {
					obj, wide = sub, obj
				}
			}
		}
	}
	if len(w.twins) > 1 && len(ids) > 0 {
		all := slices.Clone(ids)
		for _, t := range w.twins {
			for _, id := range w.objs.pointsTo(t, v) {
				if !slices.Contains(all, id) {
					all = append(all, id)
				}
			}
		}
		if len(all) > len(ids) {
			if g := w.objs.groupOf(all); g >= 0 {
				wide = g
			}
		}
	}
	if wide == obj {
		wide = -1
	}
	w.narrowedObjs[k] = [2]int32{obj, wide}
	return obj, wide
}

// twinsOf groups the origins with their twins (see pointer.Origin.Twin);
// an origin with none has none listed.
func twinsOf(origins []*pointer.Origin) map[*pointer.Origin][]*pointer.Origin {
	out := make(map[*pointer.Origin][]*pointer.Origin)
	for i, o := range origins {
		for _, p := range origins[i+1:] {
			if o.Twin(p) {
				if out[o] == nil {
					out[o] = []*pointer.Origin{o}
				}
				if out[p] == nil {
					out[p] = []*pointer.Origin{p}
				}
				out[o] = append(out[o], p)
				out[p] = append(out[p], o)
			}
		}
	}
	return out
}

// addSync adds a synchronization event on an object narrowed from wide
// (see syncObj).
func (w *walker) addSync(ev Event, wide int32, locks LocksetID, loop int32) int32 {
	id := w.add(ev, locks, loop)
	if wide >= 0 {
		if w.tr.wide == nil {
			w.tr.wide = make(map[int32]int32)
		}
		w.tr.wide[id] = wide
	}
	return id
}

// chainValue is a value in a chain of a trace.
type chainValue struct {
	chain int32
	v     ssa.Value
}

// valueParent returns the function of v, or nil.
func valueParent(v ssa.Value) *ssa.Function {
	if instr, ok := v.(ssa.Instruction); ok {
		return instr.Parent()
	}
	if p, ok := v.(*ssa.Parameter); ok {
		return p.Parent()
	}
	if fv, ok := v.(*ssa.FreeVar); ok {
		return fv.Parent()
	}
	return nil
}

// subset reports whether every element of a is in b.
func subset(a, b []int32) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}
