package guardedby

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// An access is a use of a guarded field's address: a load, a store, or
// the address handed on (to a call, a variable), which counts as a read.
type access struct {
	at    ssa.Instruction
	write bool
	addr  bool // the address handed on
}

// accessesOf returns the accesses that the field address v is used for,
// through the fields and array elements inside it (s.stats.hits++).
func accessesOf(v ssa.Value, out []access) []access {
	refs := v.Referrers()
	if refs == nil {
		return out
	}
	for _, ref := range *refs {
		switch ref := ref.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if ref.Op == token.MUL {
				out = append(out, access{at: ref, write: mutatesContents(ref)})
			} else {
				out = append(out, access{at: ref, addr: true})
			}
		case *ssa.Store:
			out = append(out, access{at: ref, write: ref.Addr == v, addr: ref.Addr != v})
		case *ssa.FieldAddr:
			out = accessesOf(ref, out)
		case *ssa.IndexAddr:
			out = accessesOf(ref, out)
		default:
			out = append(out, access{at: ref, addr: true})
		}
	}
	return out
}

// mutatesContents reports whether the value that load reads from a
// field is a map or slice that is then written: s.m[k] = v, delete(s.m,
// k), s.items[i] = x write what the field holds, not only the field.
func mutatesContents(load *ssa.UnOp) bool {
	for _, ref := range *load.Referrers() {
		switch ref := ref.(type) {
		case *ssa.MapUpdate:
			if ref.Map == load {
				return true
			}
		case *ssa.Call:
			if b, ok := ref.Call.Value.(*ssa.Builtin); ok && b.Name() == "delete" && ref.Call.Args[0] == load {
				return true
			}
		case *ssa.IndexAddr:
			if _, slice := load.Type().Underlying().(*types.Slice); slice && ref.X == load {
				for _, r := range *ref.Referrers() {
					if st, ok := r.(*ssa.Store); ok && st.Addr == ref {
						return true
					}
				}
			}
		}
	}
	return false
}

// held returns the locks held just before instr in fn: those lockset
// finds there, those the function's annotation says its callers hold
// (until the function may have released them), and, in a function
// literal, those held where its function calls it or hands it to a call
// (see inheritedBy).
func (c *checker) held(fn *ssa.Function, instr ssa.Instruction) lockset.Set {
	s := c.locks.Func(fn).Before(instr)
	for _, h := range c.inheritedBy(fn) {
		if _, ok := s.Find(h.Key); !ok {
			s = s.With(h)
		}
	}
	if obj, ok := fn.Object().(*types.Func); ok {
		for _, m := range c.ann.funcs[obj] {
			key := m.key(facts.ParamKey(m.param))
			if _, ok := s.Find(key); ok || c.mayBeReleased(fn, key)[instr] {
				continue
			}
			s = s.With(lockset.Held{Key: key, Read: m.read})
		}
	}
	return s
}

// maxClosureDepth bounds the function literals, one inside another,
// whose callers' locks are followed.
const maxClosureDepth = 8

// inheritedBy returns the locks that a function literal holds on entry,
// named in its own terms: those its enclosing function holds at every
// use of it, when each use calls it there or hands it to a call (sort.Slice,
// once.Do, a ForEach helper) that is not a go statement nor a library
// function that runs it in another goroutine (time.AfterFunc, errgroup's
// Go), or defers it (see deferredHeld). A literal stored or returned
// holds nothing.
func (c *checker) inheritedBy(fn *ssa.Function) lockset.Set {
	if fn.Parent() == nil {
		return nil
	}
	if s, ok := c.inherited[fn]; ok {
		if s == nil {
			return nil // being computed: a literal that reaches itself
		}
		return *s
	}
	c.inherited[fn] = nil
	var s lockset.Set
	if depth(fn) <= maxClosureDepth {
		s = c.computeInherited(fn)
	}
	c.inherited[fn] = &s
	return s
}

func depth(fn *ssa.Function) int {
	n := 0
	for ; fn.Parent() != nil; fn = fn.Parent() {
		n++
	}
	return n
}

func (c *checker) computeInherited(fn *ssa.Function) lockset.Set {
	parent := fn.Parent()
	var out lockset.Set
	first := true
	var ops []*ssa.Value
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			var uses []ssa.Instruction
			var value ssa.Value
			var bindings []ssa.Value
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				value, bindings = mc, mc.Bindings
				uses = *mc.Referrers()
			} else {
				for _, op := range instr.Operands(ops[:0]) {
					if *op == ssa.Value(fn) {
						if _, isMC := instr.(*ssa.MakeClosure); !isMC {
							value, uses = fn, []ssa.Instruction{instr}
						}
					}
				}
			}
			if value == nil {
				continue
			}
			for _, use := range uses {
				var held lockset.Set
				switch use := use.(type) {
				case *ssa.Call:
					if !synchronous(use, value) {
						return nil
					}
					held = c.held(parent, use)
				case *ssa.Defer:
					if use.Call.Value != value {
						return nil // handed to a deferred call: run when, by whom?
					}
					held = c.deferredHeld(parent, use)
				default:
					return nil
				}
				var args []ssa.Value // what the literal's parameters are, when called here
				if call, ok := use.(*ssa.Call); ok && call.Call.Value == value {
					args = call.Call.Args
				}
				s := rename(held, bindings, args)
				if first {
					out, first = s, false
				} else {
					out = meet(out, s)
				}
			}
		}
	}
	return out
}

// deferredHeld returns the locks that fn holds when its deferred call d
// runs: those held at each of its returns, but for those that another
// deferred call may release first, one not deferred before d (deferred
// calls run last first: "defer mu.Unlock()" before d runs after it).
func (c *checker) deferredHeld(fn *ssa.Function, d *ssa.Defer) lockset.Set {
	var out lockset.Set
	first := true
	var others []*ssa.Defer
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.RunDefers:
				if first {
					out, first = c.held(fn, instr), false
				} else {
					out = meet(out, c.held(fn, instr))
				}
			case *ssa.Defer:
				if instr != d {
					others = append(others, instr)
				}
			}
		}
	}
	for _, o := range others {
		if !deferredBefore(o, d) {
			out = out.Without(c.locks.Releases(o.Common()))
		}
	}
	return out
}

// deferredBefore reports whether the defer statement o runs before d
// on every path to d: earlier in its block, or in a block that
// dominates d's.
func deferredBefore(o, d *ssa.Defer) bool {
	if o.Block() != d.Block() {
		return o.Block().Dominates(d.Block())
	}
	for _, instr := range d.Block().Instrs {
		switch instr {
		case ssa.Instruction(o):
			return true
		case ssa.Instruction(d):
			return false
		}
	}
	return false
}

// synchronous reports whether call runs the function value v before it
// returns, as far as one can tell: it calls v, or hands it to a function
// that is not known to start a goroutine with it.
func synchronous(call *ssa.Call, v ssa.Value) bool {
	common := call.Common()
	if common.Value == v {
		return true
	}
	if callee := common.StaticCallee(); callee != nil {
		if _, spawns := syncapi.Spawn(callee); spawns {
			return false
		}
	}
	return true
}

// rename renames the locks s held in a function into the terms of its
// function literal whose free variables are bindings: a lock reached
// from binding i is reached from free variable i; one reached from what
// binding i holds (a loaded captured variable, or the parameter a
// captured parameter's variable holds) is reached from a load of free
// variable i; and, where the function calls the literal with args, one
// reached from argument i is reached from parameter i. Package
// variables keep their names; the function's other locks cannot be
// named in the literal.
func rename(s lockset.Set, bindings, args []ssa.Value) lockset.Set {
	type mapping struct{ from, to facts.Key }
	var maps []mapping
	for i, a := range args {
		maps = append(maps, mapping{lockset.Key(a), facts.ParamKey(i)})
	}
	for i, b := range bindings {
		fv := facts.FreeVarKey(i)
		maps = append(maps, mapping{lockset.Key(b), fv})
		for _, ref := range *b.Referrers() {
			if ld, ok := ref.(*ssa.UnOp); ok && ld.Op == token.MUL && ld.X == b {
				maps = append(maps, mapping{lockset.Key(ld), fv.Then(facts.Step{Op: facts.Load})})
				break
			}
		}
	}
	var out lockset.Set
	for _, h := range s {
		if kind, _, _ := h.Key.Root(); kind == facts.Global {
			out = out.With(lockset.Held{Key: h.Key, Read: h.Read})
			continue
		}
		for _, m := range maps {
			if rest, ok := cutPrefix(h.Key, m.from); ok {
				out = out.With(lockset.Held{Key: m.to.Extend(rest), Read: h.Read})
				break
			}
		}
	}
	return out
}

// cutPrefix returns the steps of k past prefix, when k starts with it.
func cutPrefix(k, prefix facts.Key) (facts.Path, bool) {
	ak, ai, an := k.Root()
	bk, bi, bn := prefix.Root()
	if ak != bk || ai != bi || an != bn || !k.Bound() || !prefix.Bound() {
		return facts.Path{}, false
	}
	steps, pre := k.Path().Steps(), prefix.Path().Steps()
	if len(steps) < len(pre) || !slices.Equal(steps[:len(pre)], pre) {
		return facts.Path{}, false
	}
	var rest facts.Path
	for _, s := range steps[len(pre):] {
		rest = rest.Then(s)
	}
	return rest, true
}

// meet returns the locks held in both s and t, for reading when either
// holds it for reading.
func meet(s, t lockset.Set) lockset.Set {
	var out lockset.Set
	for _, h := range s {
		if g, ok := t.Find(h.Key); ok {
			h.Read = h.Read || g.Read
			out = out.With(h)
		}
	}
	return out
}

type releaseKey struct {
	fn  *ssa.Function
	key string
}

// mayBeReleased returns the instructions of fn that may run after a
// call that may release the mutex key (an Unlock, a helper that
// unlocks it): there its annotation no longer says it is held, and
// lockset says whether the function took it again.
func (c *checker) mayBeReleased(fn *ssa.Function, key facts.Key) map[ssa.Instruction]bool {
	rk := releaseKey{fn, key.String()}
	if m, ok := c.released[rk]; ok {
		return m
	}
	after := make(map[ssa.Instruction]bool)
	seen := make(map[*ssa.BasicBlock]bool)
	var work []*ssa.BasicBlock
	for _, b := range fn.Blocks {
		for i, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !slices.Contains(c.locks.Releases(call.Common()), key) {
				continue
			}
			for _, rest := range b.Instrs[i+1:] {
				after[rest] = true
			}
			work = append(work, b.Succs...)
		}
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		for _, instr := range b.Instrs {
			after[instr] = true
		}
		work = append(work, b.Succs...)
	}
	c.released[rk] = after
	return after
}
