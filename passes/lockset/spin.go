package lockset

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/syncapi"
)

// A spin flag is a word used as a lock through sync/atomic alone: every
// write of it in the package is a CompareAndSwap from one constant (free)
// to another (held), or a Store of free. The goroutine whose CompareAndSwap
// succeeded is the only one that holds it until it stores free again, as a
// TryLock that returned true ("if atomic.CompareAndSwapUint32(&s.running,
// 0, 1) { ...; atomic.StoreUint32(&s.running, 0) }", or s.busy of type
// atomic.Bool: "if s.busy.CompareAndSwap(false, true)"); a loop that
// retries the swap until it succeeds is a spin lock's Lock. A flag that is
// never stored free again is held forever by the one winner: the code of
// its branch runs once. Only an unexported field or package variable,
// whose every access is in the package, can be such a flag, and only when
// no access of it but those atomic calls and plain loads takes its
// address (a store, a composite literal that sets it, or its address
// passed on to any other function or kept disqualify it).
//
// Held.Spin marks the locks so held. They order and exclude accesses as
// a mutex does, for the race analysis; they are not mutexes for the
// deadlock analysis (a flag left set by a return is a stuck flag, not a
// mutex left locked, and a swap that fails does not block), nor exported
// in facts: a spin flag is its package's own.
type spinFlag struct {
	free, held constant.Value
}

// findSpins returns the package's spin flags, by the field or package
// variable that holds each.
func findSpins(funcs []*ssa.Function) map[types.Object]spinFlag {
	type seen struct {
		flag     spinFlag
		cas, bad bool
	}
	flags := make(map[types.Object]*seen)
	mark := func(obj types.Object) *seen {
		s := flags[obj]
		if s == nil {
			s = new(seen)
			flags[obj] = s
		}
		return s
	}
	var ops []*ssa.Value
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.FieldAddr:
					continue // its uses are judged here
				case *ssa.UnOp:
					if instr.Op == token.MUL {
						continue // a plain load
					}
				case ssa.CallInstruction:
					if obj, op := spinCall(instr.Common()); obj != nil {
						s := mark(obj)
						switch op.kind {
						case spinCAS:
							if s.flag.free == nil {
								s.flag = spinFlag{op.free, op.held}
							} else if !constant.Compare(s.flag.free, token.EQL, op.free) || !constant.Compare(s.flag.held, token.EQL, op.held) {
								s.bad = true
							}
							s.cas = true
						case spinStore:
							continue // checked against free below
						case spinRead:
							continue
						default:
							s.bad = true
						}
						continue
					}
				}
				// Any other use of a flag's address disqualifies it.
				for _, op := range instr.Operands(ops[:0]) {
					if obj := flagObject(*op); obj != nil {
						mark(obj).bad = true
					}
				}
			}
		}
	}
	// Stores of free, checked once the free value is known.
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if obj, op := spinCall(call.Common()); obj != nil && op.kind == spinStore {
					if s := flags[obj]; s.flag.free == nil || !constant.Compare(s.flag.free, token.EQL, op.free) {
						s.bad = true
					}
				}
			}
		}
	}
	var out map[types.Object]spinFlag
	for obj, s := range flags {
		if s.bad || !s.cas || obj.Exported() {
			continue
		}
		if out == nil {
			out = make(map[types.Object]spinFlag)
		}
		out[obj] = s.flag
	}
	return out
}

type spinKind uint8

const (
	spinOther spinKind = iota // an atomic write that is no spin flag's
	spinCAS
	spinStore
	spinRead
)

type spinOp struct {
	kind       spinKind
	free, held constant.Value // the CAS's old and new, the Store's value as free
}

// spinCall classifies a call of sync/atomic on a field or package
// variable: the object it operates on and what it does.
func spinCall(call *ssa.CallCommon) (types.Object, spinOp) {
	fn := call.StaticCallee()
	if fn == nil || len(call.Args) == 0 {
		return nil, spinOp{}
	}
	op := syncapi.Atomic(fn)
	if op == syncapi.NotAtomic {
		return nil, spinOp{}
	}
	obj := flagObject(call.Args[0])
	if obj == nil {
		return nil, spinOp{}
	}
	switch op {
	case syncapi.AtomicLoad:
		return obj, spinOp{kind: spinRead}
	case syncapi.AtomicCompareAndSwap:
		if len(call.Args) == 3 {
			old, oldOK := constOf(call.Args[1])
			nu, newOK := constOf(call.Args[2])
			if oldOK && newOK && !constant.Compare(old, token.EQL, nu) {
				return obj, spinOp{kind: spinCAS, free: old, held: nu}
			}
		}
	case syncapi.AtomicWrite:
		if strings.HasPrefix(fn.Name(), "Store") && len(call.Args) == 2 {
			if v, ok := constOf(call.Args[1]); ok {
				return obj, spinOp{kind: spinStore, free: v}
			}
		}
	}
	return obj, spinOp{kind: spinOther}
}

// flagObject returns the field or package variable whose address v is,
// or nil.
func flagObject(v ssa.Value) types.Object {
	switch v := v.(type) {
	case *ssa.FieldAddr:
		st, ok := v.X.Type().Underlying().(*types.Pointer)
		if !ok {
			return nil
		}
		s, ok := st.Elem().Underlying().(*types.Struct)
		if !ok || v.Field >= s.NumFields() {
			return nil
		}
		return s.Field(v.Field)
	case *ssa.Global:
		return v.Object()
	}
	return nil
}

// constOf returns the constant v is (a bool, an integer), converted or not.
func constOf(v ssa.Value) (constant.Value, bool) {
	if c, ok := v.(*ssa.Convert); ok {
		v = c.X
	}
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil {
		return nil, false
	}
	switch c.Value.Kind() {
	case constant.Bool, constant.Int:
		return c.Value, true
	}
	return nil, false
}

// lockOp is syncapi.MutexOp, and a spin flag's CompareAndSwap as a
// TryLock, its Store of free as an Unlock (see spinFlag).
func (r *Result) lockOp(call *ssa.CallCommon) (syncapi.LockOp, ssa.Value, bool) {
	if op, mu := syncapi.MutexOp(call); op != syncapi.NoLockOp {
		return op, mu, false
	}
	if len(r.spins) == 0 {
		return syncapi.NoLockOp, nil, false
	}
	obj, op := spinCall(call)
	if obj == nil {
		return syncapi.NoLockOp, nil, false
	}
	if _, ok := r.spins[obj]; !ok {
		return syncapi.NoLockOp, nil, false
	}
	switch op.kind {
	case spinCAS:
		return syncapi.TryLock, call.Args[0], true
	case spinStore:
		return syncapi.Unlock, call.Args[0], true
	}
	return syncapi.NoLockOp, nil, false
}

// spinReleases are the stores of free to a spin flag in the functions
// solved, and the static call sites of each function, for checking that
// every such store is made by the flag's holder (see unheldSpins).
type spinReleases struct {
	stores  []ssa.CallInstruction
	sites   map[*ssa.Function][]ssa.CallInstruction
	taken   map[*ssa.Function]bool // used as a value: callers unknown
	invoked map[string]bool        // method names called through an interface
}

// unheldSpins returns the spin flags some store of which may be made by a
// goroutine that does not hold the flag (a Reopen that clears a flag
// another goroutine won): such a flag orders nothing, as an Unlock by
// whoever did not Lock would not. A store is the holder's where the flag
// is held there, or, in a function no importer can call whose every call
// (and go statement) in the package holds it, three calls up at most.
func (sv *solver) unheldSpins(all []*ssa.Function) map[types.Object]bool {
	rel := spinReleases{sites: make(map[*ssa.Function][]ssa.CallInstruction), taken: make(map[*ssa.Function]bool), invoked: make(map[string]bool)}
	var ops []*ssa.Value
	for _, fn := range all {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, isCall := instr.(ssa.CallInstruction)
				if isCall {
					common := call.Common()
					if obj, op := spinCall(common); obj != nil && op.kind == spinStore {
						if _, ok := sv.r.spins[obj]; ok {
							rel.stores = append(rel.stores, call)
						}
					}
					if common.IsInvoke() {
						rel.invoked[common.Method.Name()] = true
					} else if callee := common.StaticCallee(); callee != nil {
						rel.sites[callee] = append(rel.sites[callee], call)
					}
				}
				for i, op := range instr.Operands(ops[:0]) {
					if f, ok := (*op).(*ssa.Function); ok && !(isCall && i == 0 && !call.Common().IsInvoke()) {
						rel.taken[f] = true
					}
				}
			}
		}
	}
	var bad map[types.Object]bool
	has := make(map[types.Object]bool)
	for _, st := range rel.stores {
		obj, _ := spinCall(st.Common())
		has[obj] = true
		if !sv.heldAtCall(&rel, st, Key(st.Common().Args[0]), 0) {
			if bad == nil {
				bad = make(map[types.Object]bool)
			}
			bad[obj] = true
		}
	}
	for obj := range sv.r.spins {
		if !has[obj] {
			// Never stored free: held for good by its one winner, which
			// rule runs-once reads instead (once per object).
			if bad == nil {
				bad = make(map[types.Object]bool)
			}
			bad[obj] = true
		}
	}
	return bad
}

// heldAtCall reports whether the lock named key is held at call, in its
// function or, through callers no importer can add, at all its calls.
func (sv *solver) heldAtCall(rel *spinReleases, call ssa.CallInstruction, key facts.Key, depth int) bool {
	fn := call.Parent()
	if _, ok := sv.info(fn).before[call].Find(key); ok {
		return true
	}
	if depth >= 3 || buildir.Importable(fn) || rel.taken[fn] || fn.Parent() != nil {
		return false
	}
	if fn.Signature.Recv() != nil && rel.invoked[fn.Name()] {
		return false
	}
	sites := rel.sites[fn]
	if len(sites) == 0 {
		return false
	}
	for _, site := range sites {
		k := Binder(site.Common())(key)
		if !k.Bound() || !sv.heldAtCall(rel, site, k, depth+1) {
			return false
		}
	}
	return true
}
