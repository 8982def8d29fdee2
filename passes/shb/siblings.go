package shb

import (
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/pointer"
	"golang.org/x/tools/go/ssa"
)

// A sibling lock is a mutex that an access holds on the object it
// accesses: "r.mu.Lock(); r.n++" holds "the mutex at .mu of the object
// whose .n is written", whatever the pointer analysis resolves r.mu to
// (nothing, when r's object is one it cannot see made, or another
// abstract object in each goroutine). Two accesses of the same memory
// from bases of one type T, each by a path of fields with no loads, are
// in one T at run time: two Ts overlap only if they are the same. So
// they hold the same mutex at the same path from it, and exclude each
// other (RacerD's and checklocks' "guarded by" a field of the same
// object), even by different paths (r.t and r.t.ext).
//
// The locks of the function that makes the access count, and those its
// callers hold on a parameter's object, named from the parameter
// (bindCallerLocks): "r.mu.Lock(); r.setLocked()" guards setLocked's
// r.n. As for the locks of callers the walk resolves, a callee that
// unlocks its caller's mutex still holds it.
//
// The lock's path may load pointers (r.muPtr.Lock() is the mutex at
// .muPtr@): that assumes the pointer fields on the way are set before
// the object is shared and not reassigned, as lockset already does to
// match a Lock with its Unlock.

// heldAt is an instruction walked with a lockset held by its callers.
type heldAt struct {
	instr ssa.Instruction
	lits  string // what the call of its function fixes (see walker.lits)
	held  LocksetID
}

// siblingLocks returns the lockset of the sibling locks that access
// instr holds: own are the locks its function holds there, callers
// those of its callers (see bindCallerLocks).
func (ls *Locksets) siblingLocks(instr ssa.Instruction, lits string, own lockset.Set, callers LocksetID) LocksetID {
	k := heldAt{instr, lits, callers}
	if id, ok := ls.siblings[k]; ok {
		return id
	}
	id := ls.intern(siblingElems(instr, append(slices.Clone(own), ls.callerLocks(instr.Parent(), callers)...)))
	ls.siblings[k] = id
	return id
}

// callerLocks returns the locks of lockset id that callers of fn hold,
// named from fn's parameters.
func (ls *Locksets) callerLocks(fn *ssa.Function, id LocksetID) lockset.Set {
	var out lockset.Set
	for _, e := range ls.sets[id] {
		if sameFunc(e.callee, fn) {
			out = append(out, lockset.Held{Key: e.key, Read: e.read, Once: e.once, OnceDone: e.onceDone})
		}
	}
	return out
}

// capturedLoad reports whether base is a load of a variable that its
// function literal captures and only loads (x in func() { x.once.Do(
// ...); x.n++ }).
func capturedLoad(base ssa.Value) bool {
	load, ok := base.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	fv, ok := load.X.(*ssa.FreeVar)
	return ok && lockset.OnlyLoaded(fv)
}

// sameFunc reports whether a lockset's element names fn as its callee:
// elements are interned by the callee's name, and go/ssa may build a
// synthetic wrapper (a bound method's) once per function that makes
// the method value, all with one name and one body.
func sameFunc(callee, fn *ssa.Function) bool {
	return callee == fn || callee != nil && callee.Synthetic != "" && fn.Synthetic != "" && callee.String() == fn.String()
}

// bindCallerLocks returns held, the lockset at c, with the locks that
// callee's callers hold on its parameters' objects: those of c's
// function (own, and its callers' in held) that it reaches from an
// argument by fields, renamed from the parameter. The locks named from
// the caller's parameters go: no function inlined under the callee is
// the caller, which the walk does not enter twice.
func (ls *Locksets) bindCallerLocks(c ssa.CallInstruction, lits string, callee *ssa.Function, own lockset.Set, held LocksetID) LocksetID {
	k := heldAt{c, lits, held}
	if id, ok := ls.bound[k]; ok {
		return id
	}
	locks := append(slices.Clone(own), ls.callerLocks(c.Parent(), held)...)
	elems := slices.DeleteFunc(slices.Clone(ls.sets[held]), func(e lockElem) bool { return e.callee != nil })
	if args := c.Common().Args; !c.Common().IsInvoke() && len(args) == len(callee.Params) {
		for i, arg := range args {
			elems = append(elems, boundTo(callee, i, lockset.Key(arg), locks)...)
		}
	}
	id := ls.intern(elems)
	ls.bound[k] = id
	return id
}

// boundTo returns the locks among locks that the argument named arg
// reaches by fields, named from callee's parameter i.
func boundTo(callee *ssa.Function, i int, arg facts.Key, locks lockset.Set) []lockElem {
	prefix := arg.Path().Steps()
	if slices.ContainsFunc(prefix, func(s facts.Step) bool { return s.Op != facts.FieldAddr }) {
		return nil // no object of its own: a loaded or indexed argument
	}
	var elems []lockElem
	for _, h := range locks {
		steps := h.Key.Path().Steps()
		if !h.Key.Bound() || !sameRoot(h.Key, arg) || len(steps) < len(prefix) || !slices.Equal(steps[:len(prefix)], prefix) {
			continue
		}
		key := facts.ParamKey(i)
		for _, s := range steps[len(prefix):] {
			key = key.Then(s)
		}
		if objectPath(key.Path()) {
			elems = append(elems, lockElem{callee: callee, key: key, read: h.Read, once: h.Once, onceDone: h.OnceDone})
		}
	}
	return elems
}

// siblingElems returns the sibling locks of access instr among held.
func siblingElems(instr ssa.Instruction, held lockset.Set) []lockElem {
	addr := pointer.Addr(instr)
	if f := sliceField(instr, addr); f != nil {
		addr = f
	}
	if addr == nil {
		addr = mapField(instr)
	}
	if addr == nil {
		return nil
	}
	base, chain := fieldBase(addr)
	root := lockset.Key(base)
	captured := capturedLoad(base)
	if !root.Path().IsEmpty() && !captured {
		return nil // a loaded base: another load of it may see another object
	}
	var elems []lockElem
	for _, h := range held {
		if !h.Key.Bound() || !sameRoot(h.Key, root) || !objectPath(h.Key.Path()) {
			continue
		}
		steps := h.Key.Path().Steps()
		if captured {
			// Only the Once of the object a literal captures (see
			// onceOfBinding), whose maker stores the variable once.
			if !h.Once && !h.OnceDone || len(steps) == 0 || steps[0].Op != facts.Load {
				continue
			}
			steps = steps[1:]
		}
		t, path := innermost(base.Type(), chain, steps)
		elems = append(elems, lockElem{sibling: types.TypeString(t, nil) + " " + path, read: h.Read, once: h.Once, onceDone: h.OnceDone})
	}
	return elems
}

// mapField returns, for an access to the contents of a map that the
// access loads from a field (r.m[k] = v, delete(r.m, k), range r.m),
// the address of that field. A map kept in a field is taken to be its
// object's own, made for it and shared with no other object of its
// type, so that its contents are guarded like the field itself by a
// mutex of the same object ("r.mu.Lock(); r.m[k] = v").
func mapField(instr ssa.Instruction) ssa.Value {
	var m ssa.Value
	switch instr := instr.(type) {
	case *ssa.MapUpdate:
		m = instr.Map
	case *ssa.Lookup:
		m = instr.X
	case *ssa.Next:
		if r, ok := instr.Iter.(*ssa.Range); ok && !instr.IsString {
			m = r.X
		}
	case *ssa.Call:
		if b, ok := instr.Call.Value.(*ssa.Builtin); ok && len(instr.Call.Args) > 0 {
			switch b.Name() {
			case "delete", "clear", "len":
				m = instr.Call.Args[0]
			}
		}
	}
	if m == nil {
		return nil
	}
	if _, ok := m.Type().Underlying().(*types.Map); !ok {
		return nil
	}
	return loadedField(m)
}

// sliceField returns, for an access to an element of a slice that the
// access loads from a field (r.s[i] = v, r.s[i].f, append(r.s, v),
// copy(r.s, v)), the address of that field: like a map, a slice kept
// in a field is taken to be its object's own, its array guarded like
// the field itself by a mutex of the same object ("r.cond.L.Lock();
// r.results = append(r.results, v)"), where the pointer analysis may
// not resolve that mutex to an object to guard the array by. A slice
// handed out of the object (return r.s) is read by its receiver through
// no field, and guarded by nothing it holds.
func sliceField(instr ssa.Instruction, addr ssa.Value) ssa.Value {
	var sl ssa.Value
	if addr != nil {
		base, _ := fieldBase(addr)
		ia, ok := base.(*ssa.IndexAddr)
		if !ok {
			return nil
		}
		sl = ia.X
	} else if c, ok := instr.(*ssa.Call); ok {
		if b, ok := c.Call.Value.(*ssa.Builtin); ok && (b.Name() == "append" || b.Name() == "copy") && len(c.Call.Args) > 0 {
			sl = c.Call.Args[0]
		}
	}
	if sl == nil {
		return nil
	}
	if _, ok := sl.Type().Underlying().(*types.Slice); !ok {
		return nil
	}
	return loadedField(sl)
}

// loadedField returns the address of the field that v is loaded from
// (r.m, r.s), or nil: the field whose container mapField and sliceField
// take the access to be on.
func loadedField(v ssa.Value) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	if _, ok := load.X.(*ssa.FieldAddr); !ok {
		return nil
	}
	return load.X
}

// innermost returns the type of the innermost object, along the field
// chain of an access from a base of type t, that holds the mutex at
// path lock from the base, and the mutex's path from it: s.r.n and
// s.r.mu are r.n and r.mu, from any *T's r, so that the accesses of
// one T's fields hold the same sibling lock however they reach the T.
func innermost(t types.Type, chain []*ssa.FieldAddr, lock []facts.Step) (types.Type, string) {
	n := 0
	for n < len(chain) && n < len(lock) && lock[n] == (facts.Step{Op: facts.FieldAddr, Index: chain[n].Field}) {
		t = chain[n].Type()
		n++
	}
	return t, pathString(lock[n:])
}

// fieldBase returns the value that addr is a chain of field addresses
// from, and the chain, outermost field first.
func fieldBase(addr ssa.Value) (ssa.Value, []*ssa.FieldAddr) {
	var chain []*ssa.FieldAddr
	for {
		fa, ok := addr.(*ssa.FieldAddr)
		if !ok {
			slices.Reverse(chain)
			return addr, chain
		}
		chain = append(chain, fa)
		addr = fa.X
	}
}

func sameRoot(a, b facts.Key) bool {
	ak, ai, an := a.Root()
	bk, bi, bn := b.Root()
	return ak == bk && ai == bi && an == bn
}

// objectPath reports whether a mutex at path p from a base is one
// mutex of the base's object: fields and the pointers they hold, no
// element of an array or slice, which an index chooses.
func objectPath(p facts.Path) bool {
	for _, s := range p.Steps() {
		if s.Op != facts.FieldAddr && s.Op != facts.Load {
			return false
		}
	}
	return true
}

// pathString renders steps, for a sibling lock's key.
func pathString(steps []facts.Step) string {
	var b strings.Builder
	for _, s := range steps {
		if s.Op == facts.Load {
			b.WriteString("@")
			continue
		}
		b.WriteString("." + strconv.Itoa(s.Index))
	}
	return b.String()
}
