package shb

import (
	"slices"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/pointer"
	"golang.org/x/tools/go/ssa"
)

// handOver notes the locks that the go statement g, walked in w's
// origin, transfers to the goroutines it starts (see
// lockset.Result.Transferred): the locks its function holds there that
// the goroutine releases without taking them. A goroutine started from
// several sites holds only what every one of them hands it.
func (w *walker) handOver(g *ssa.Go, spawned []*pointer.Origin) {
	set := w.ls.Transferred(g)
	id := w.locks.resolve(w.o, set, w.objs)
	for _, o := range spawned {
		if prev, ok := w.handed[o]; ok {
			id = w.locks.intersect(prev, id)
		}
		w.handed[o] = id
	}
}

// release ends the hold of the transferred locks that mu may be: the
// goroutine's events after its Unlock do not hold them.
func (w *walker) release(mu ssa.Value) {
	if w.transferred == 0 {
		return
	}
	w.transferred = w.locks.release(w.transferred, w.objs.pointsTo(w.o, mu))
}

// releaseImported ends the hold of the transferred locks that a call of
// a function of another package may release (see lockset.Result.Releases).
func (w *walker) releaseImported(c ssa.CallInstruction) {
	if w.transferred == 0 {
		return
	}
	for _, k := range w.ls.Releases(c.Common()) {
		if obj := w.keyObject(w.o, c.Common(), k); obj >= 0 {
			w.transferred = w.locks.release(w.transferred, []int32{obj})
		}
	}
}

// intersect returns the ID of the locks held in both a and b.
func (ls *Locksets) intersect(a, b LocksetID) LocksetID {
	if a == b {
		return a
	}
	var elems []lockElem
	for _, e := range ls.sets[a] {
		if slices.ContainsFunc(ls.sets[b], func(x lockElem) bool { return elemKey(x) == elemKey(e) }) {
			elems = append(elems, e)
		}
	}
	return ls.intern(elems)
}

// release returns the ID of lockset a without the mutexes that may be
// at one of locs.
func (ls *Locksets) release(a LocksetID, locs []int32) LocksetID {
	elems := slices.DeleteFunc(slices.Clone(ls.sets[a]), func(e lockElem) bool {
		return !e.once && overlaps(e.locs, locs)
	})
	if len(elems) == len(ls.sets[a]) {
		return a
	}
	return ls.intern(elems)
}

// dynamicLocks applies to the walker's held locks what the callees of
// c, a call that only the pointer analysis resolves, do to mutexes their
// callers can name (lockset.Result.Effect), which the caller's lockset
// does not count: the locks every callee leaves held are held from the
// return of c until an Unlock of them ("tx := b.BatchTx();
// tx.LockInsideApply()" in one method, "tw.tx.Unlock()" in another), and
// those any callee may release are no longer held. They are held with
// the transferred locks, which end the same way (see release).
func (w *walker) dynamicLocks(c ssa.CallInstruction, callees []*ssa.Function) {
	call := c.Common()
	var left []lockElem // held after every callee
	for i, fn := range callees {
		eff := w.lockEffect(fn)
		acquires, releases := eff.acquires, eff.releases
		for _, k := range releases {
			if obj := w.argObject(call, fn, k); obj >= 0 && w.transferred != 0 {
				w.transferred = w.locks.release(w.transferred, []int32{obj})
			}
		}
		var elems []lockElem
		for _, h := range acquires {
			if obj := w.argObject(call, fn, h.Key); obj >= 0 {
				elems = append(elems, lockElem{locs: []int32{obj}, read: h.Read})
			}
		}
		if i == 0 {
			left = elems
		} else {
			left = slices.DeleteFunc(left, func(e lockElem) bool {
				return !slices.ContainsFunc(elems, func(x lockElem) bool { return elemKey(x) == elemKey(e) })
			})
		}
	}
	if len(left) > 0 {
		w.transferred = w.locks.union(w.transferred, w.locks.intern(left))
	}
}

// argObject returns the one lock object that a key of fn, a dynamic
// callee of call, rooted at its parameters, names there: the receiver of
// an interface method call is its parameter 0, held in the interface
// value. -1 when it is not one.
func (w *walker) argObject(call *ssa.CallCommon, fn *ssa.Function, k facts.Key) int32 {
	root, i, _ := k.Root()
	if root != facts.Param || !k.Bound() {
		return -1
	}
	args := call.Args
	if call.IsInvoke() {
		args = append([]ssa.Value{call.Value}, args...)
	}
	if i >= len(args) {
		return -1
	}
	actual := args[i]
	var locs []pointer.Location
	if recv := fn.Signature.Recv(); call.IsInvoke() && i == 0 && recv != nil {
		locs = w.ptr.PointsToRecvPath(w.o, actual, recv.Type(), k.Path())
	} else {
		locs = w.ptr.PointsToPath(w.o, actual, k.Path())
	}
	if len(locs) != 1 {
		return -1
	}
	obj := w.objs.id(locs[0])
	if _, ok := w.locks.names[obj]; obj >= 0 && !ok {
		if name := ExprName(actual); name != "" {
			w.locks.names[obj] = name
		}
	}
	return obj
}

// holdsAny reports whether lockset id holds a mutex at one of locs.
func (ls *Locksets) holdsAny(id LocksetID, locs []int32) bool {
	for _, e := range ls.sets[id] {
		if !e.once && e.observe == 0 && e.sibling == "" && e.callee == nil && overlaps(e.locs, locs) {
			return true
		}
	}
	return false
}

// lockEffect is what a dynamic callee does to mutexes its callers name
// (lockset.Result.Effect), asked once per build.
type lockEffect struct {
	acquires []lockset.Held
	releases []facts.Key
}

func (w *walker) lockEffect(fn *ssa.Function) lockEffect {
	e, ok := w.lockEffects[fn]
	if !ok {
		e.acquires, e.releases = w.ls.Effect(fn)
		w.lockEffects[fn] = e
	}
	return e
}
