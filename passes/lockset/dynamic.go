package lockset

import (
	"github.com/origo-dev/origo/facts"
	"golang.org/x/tools/go/ssa"
)

// Effect returns what fn does to mutexes its callers can name, in fn's
// own names (keys rooted at its parameters): the locks it leaves held
// on every return, whatever its boolean arguments, and those it may
// release. It is for a call whose callee only the pointer analysis
// finds (an interface method, a function value), which the locksets of
// Func count as neither: package shb applies it per callee, to the
// objects the call's arguments point to ("tx := b.BatchTx();
// tx.Lock()", with the Unlock in another function).
func (r *Result) Effect(fn *ssa.Function) (acquires []Held, releases []facts.Key) {
	if len(fn.Blocks) == 0 {
		eff, ok := r.imported[fn.String()]
		if !ok {
			return nil, nil
		}
		for _, h := range eff.fn.Acquires {
			if len(h.When) == 0 {
				acquires = append(acquires, Held{Key: eff.set.Key(h.Key), Read: h.Read})
			}
		}
		for _, h := range eff.fn.Releases {
			releases = append(releases, eff.set.Key(h.Key))
		}
		return acquires, releases
	}
	fi, ok := r.funcs[fn]
	if !ok {
		fi = r.scratch().info(fn)
	}
	for _, h := range fi.acquires {
		if h.Key.Rooted() {
			acquires = append(acquires, h)
		}
	}
	return acquires, keysOf(fi.releases)
}

// CallerUnlocks returns the keys, named from fn's parameters, of the
// locks fn may unlock without having locked them first: its caller's,
// which it was entered with. Unlike the releases of Effect, it counts
// those fn locks again before every return (a wait with the lock
// released): fn gives them back, but it was entered holding them.
func (r *Result) CallerUnlocks(fn *ssa.Function) []facts.Key {
	if len(fn.Blocks) == 0 {
		return nil
	}
	fi, ok := r.funcs[fn]
	if !ok {
		fi = r.scratch().info(fn)
	}
	return fi.callerUnlocks
}
