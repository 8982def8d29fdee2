package shb

import (
	"slices"

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
