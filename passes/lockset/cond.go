package lockset

import (
	"cmp"
	"go/constant"
	"go/token"
	"slices"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/dataflow"
	"golang.org/x/tools/go/ssa"
)

// A lit says that a boolean parameter of a function (by index, the
// receiver first) has a value.
type lit struct {
	param int
	val   bool
}

// A cond is a conjunction of lits on the boolean parameters of a
// function, sorted by parameter, at most one per parameter: an effect so
// conditioned happens only in calls that pass each parameter its lit's
// value ("if needLock { mu.Lock() }"). nil is always.
type cond []lit

// and returns the conjunction of c and d; ok is false when they
// contradict each other (no call satisfies both).
func (c cond) and(d cond) (_ cond, ok bool) {
	if len(d) == 0 {
		return c, true
	}
	if len(c) == 0 {
		return d, true
	}
	out := slices.Clone(c)
	for _, l := range d {
		i, found := slices.BinarySearchFunc(out, l.param, func(x lit, p int) int { return cmp.Compare(x.param, p) })
		switch {
		case !found:
			out = slices.Insert(out, i, l)
		case out[i].val != l.val:
			return nil, false
		}
	}
	return out, true
}

// implies reports whether c implies d: every lit of d is one of c's.
func (c cond) implies(d cond) bool {
	for _, l := range d {
		if !slices.Contains(c, l) {
			return false
		}
	}
	return true
}

// guards says, for each block of a function, the condition on the
// function's boolean parameters under which it runs: the block is
// reached only when each parameter of when has that value, because the
// ifs on the parameter (or its negation) that lead to it take no other
// branch. Dead blocks run under no values (an if that tests again a
// parameter already tested the other way).
type guards struct {
	when []cond // by block index; nil when no if tests a parameter
	dead []bool
}

// guardsOf computes the guards of fn's blocks: for each boolean
// parameter an if tests, the blocks reachable from the entry when it is
// true and when it is false.
func guardsOf(fn *ssa.Function) guards {
	var params []*ssa.Parameter
	for _, b := range fn.Blocks {
		if p := testedParam(b); p != nil && !slices.Contains(params, p) {
			params = append(params, p)
		}
	}
	if len(params) == 0 || len(fn.Blocks) == 0 {
		return guards{}
	}
	slices.SortFunc(params, func(x, y *ssa.Parameter) int {
		return cmp.Compare(slices.Index(fn.Params, x), slices.Index(fn.Params, y))
	})
	all := reachable(fn, nil, false)
	g := guards{when: make([]cond, len(fn.Blocks)), dead: make([]bool, len(fn.Blocks))}
	for _, p := range params {
		i := slices.Index(fn.Params, p)
		ifTrue, ifFalse := reachable(fn, p, true), reachable(fn, p, false)
		for _, b := range fn.Blocks {
			switch {
			case !all[b.Index]:
			case !ifTrue[b.Index] && !ifFalse[b.Index]:
				g.dead[b.Index] = true
			case !ifTrue[b.Index]:
				g.when[b.Index] = append(g.when[b.Index], lit{i, false})
			case !ifFalse[b.Index]:
				g.when[b.Index] = append(g.when[b.Index], lit{i, true})
			}
		}
	}
	return g
}

// at returns the condition under which block b runs, and false when it
// never does.
func (g guards) at(b *ssa.BasicBlock) (cond, bool) {
	if g.when == nil || b.Index >= len(g.when) {
		return nil, true
	}
	return g.when[b.Index], !g.dead[b.Index]
}

// reachable returns, by block index, the blocks of fn reachable from its
// entry when parameter p has value v: an if on p (or its negation) takes
// only the branch v selects. With p nil every branch is taken.
func reachable(fn *ssa.Function, p *ssa.Parameter, v bool) []bool {
	return dataflow.Reachable(fn, func(cond ssa.Value) (bool, bool) {
		if q, pos := boolParamOf(cond); p != nil && q == p {
			return v == pos, true
		}
		return false, false
	})
}

// testedParam returns the parameter that the if ending b tests, if any.
func testedParam(b *ssa.BasicBlock) *ssa.Parameter {
	if len(b.Instrs) == 0 {
		return nil
	}
	ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return nil
	}
	p, _ := boolParamOf(ifInstr.Cond)
	return p
}

// boolParamOf returns the parameter of its own function that the
// boolean x is, or whose negation it is (pos false): p, !p, !!p, or a
// load of the variable that holds a captured parameter.
func boolParamOf(x ssa.Value) (p *ssa.Parameter, pos bool) {
	v, pos := boolVar(x)
	if p, ok := v.(*ssa.Parameter); ok {
		return p, pos
	}
	return nil, false
}

// boolVar returns the parameter or free variable of its own function
// that the boolean x is, or whose negation it is (pos false): p, !p,
// !!p, a load of the variable that holds a captured parameter, or (a
// *ssa.FreeVar) a load of a free variable that its function only loads.
func boolVar(x ssa.Value) (v ssa.Value, pos bool) {
	pos = true
	for {
		switch v := x.(type) {
		case *ssa.Parameter:
			return v, pos
		case *ssa.UnOp:
			switch v.Op {
			case token.NOT:
				x, pos = v.X, !pos
				continue
			case token.MUL:
				if q, ok := Spilled(v.X); ok {
					if q, ok := q.(*ssa.Parameter); ok {
						return q, pos
					}
				}
				if fv, ok := v.X.(*ssa.FreeVar); ok && OnlyLoaded(fv) {
					return fv, pos
				}
			}
		}
		return nil, false
	}
}

// bindCond renames the condition c of a callee's effect into the
// caller's terms at call: a lit on a parameter the call passes a
// constant is dropped when the constant satisfies it, and the whole
// effect when it does not (ok false); a lit on a parameter the call
// passes one of the caller's parameters (or its negation) becomes a lit
// on that; any other argument may have either value, and its lit is
// dropped.
func bindCond(call *ssa.CallCommon, c cond) (_ cond, ok bool) {
	var out cond
	for _, l := range c {
		if l.param >= len(call.Args) {
			continue
		}
		arg := call.Args[l.param]
		if k, isConst := arg.(*ssa.Const); isConst {
			if k.Value != nil && k.Value.Kind() == constant.Bool && constant.BoolVal(k.Value) != l.val {
				return nil, false
			}
			continue
		}
		p, pos := boolParamOf(arg)
		if p == nil {
			continue
		}
		if out, ok = out.and(cond{{slices.Index(p.Parent().Params, p), l.val == pos}}); !ok {
			return nil, false
		}
	}
	return out, true
}

// atCall keeps, of a callee's entries, those whose condition can hold at
// call, each under its condition in the caller's terms (see bindCond)
// and here, the condition of the call's block; when gives an entry's
// condition.
func atCall[T any](call *ssa.CallCommon, here cond, entries []T, when func(*T) *cond) []T {
	out := entries[:0]
	for _, e := range entries {
		c, ok := bindCond(call, *when(&e))
		if ok {
			c, ok = c.and(here)
		}
		if ok {
			*when(&e) = c
			out = append(out, e)
		}
	}
	return out
}

// condHeld is a lock a function may take, under a condition on its
// parameters.
type condHeld struct {
	Held
	when cond
}

// condKey is a lock a function may release, under a condition on its
// parameters.
type condKey struct {
	key  facts.Key
	when cond
}

// maxConds bounds the conditional entries of one lock in a summary:
// past it, an entry is added unconditionally.
const maxConds = 8

// addTake adds t to the locks a function may take, sorted by key. An
// entry that one already there covers (as often, under a condition that
// implies the other's, and not a Lock where it has an RLock) is not
// added; with the same condition, a Lock replaces an RLock.
func addTake(takes []condHeld, t condHeld) []condHeld {
	lo, hi := keyRange(takes, func(x condHeld) facts.Key { return x.Key }, t.Key)
	for i := lo; i < hi; i++ {
		x := takes[i]
		if slices.Equal(x.when, t.when) {
			if x.Read && !t.Read {
				takes = slices.Clone(takes)
				takes[i] = t
			}
			return takes
		}
		if t.when.implies(x.when) && (!x.Read || t.Read) {
			return takes
		}
	}
	if hi-lo >= maxConds {
		t.when = nil
	}
	return slices.Insert(slices.Clip(takes), hi, t)
}

// addRelease adds r to the locks a function may release, sorted by key,
// unless one there already covers it.
func addRelease(rels []condKey, r condKey) []condKey {
	lo, hi := keyRange(rels, func(x condKey) facts.Key { return x.key }, r.key)
	for i := lo; i < hi; i++ {
		if r.when.implies(rels[i].when) {
			return rels
		}
	}
	if hi-lo >= maxConds {
		r.when = nil
	}
	return slices.Insert(slices.Clip(rels), hi, r)
}

// keyRange returns the range of the entries of xs, sorted by key, with
// key k.
func keyRange[T any](xs []T, key func(T) facts.Key, k facts.Key) (lo, hi int) {
	lo, _ = slices.BinarySearchFunc(xs, k, func(x T, k facts.Key) int { return key(x).Compare(k) })
	hi = lo
	for hi < len(xs) && key(xs[hi]) == k {
		hi++
	}
	return lo, hi
}

// keysOf returns the keys of rels, each once.
func keysOf(rels []condKey) []facts.Key {
	var keys []facts.Key
	for _, r := range rels {
		if !slices.Contains(keys, r.key) {
			keys = append(keys, r.key)
		}
	}
	return keys
}
