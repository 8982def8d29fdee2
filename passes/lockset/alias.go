package lockset

import (
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/dataflow"
	"github.com/origo-dev/origo/passes/syncapi"
)

// storedAlias gives the mutex that call locks, held in s after it, the
// name of a field the function stored what reaches it into before:
// "r.cur = n.c; n.c.L.Lock()" locks r.cur.L too, and a method that
// unlocks r.cur.L later releases it. The store must come before the
// Lock on every path, into a field of a parameter or a package
// variable, and be the function's only store to that field.
func storedAlias(call *ssa.Call, s Set) Set {
	op, mu := syncapi.MutexOp(call.Common())
	if op != syncapi.Lock && op != syncapi.RLock {
		return s
	}
	k := Key(mu)
	h, ok := s.Find(k)
	if !ok || h.Alias != (facts.Key{}) {
		return s
	}
	fn := call.Parent()
	var alias facts.Key
	stores := make(map[facts.Key]int)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			to := Key(fa)
			if !to.Rooted() {
				continue
			}
			stores[to]++
			if alias != (facts.Key{}) || !dataflow.Precedes(st, call) {
				continue
			}
			from := Key(st.Val)
			if rest, ok := k.CutPrefix(from); ok {
				alias = to.Then(facts.Step{Op: facts.Load}).Extend(rest)
			}
		}
	}
	if alias == (facts.Key{}) || alias == k {
		return s
	}
	for to, n := range stores {
		if n > 1 {
			if _, ok := alias.CutPrefix(to); ok {
				return s
			}
		}
	}
	h.Alias = alias
	out := slices.Clone(s)
	i := slices.IndexFunc(out, func(x Held) bool { return x.Key == k })
	out[i] = h
	return out
}
