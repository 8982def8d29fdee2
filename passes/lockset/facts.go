package lockset

import (
	"cmp"
	"slices"
	"strings"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/guard"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// importedLocks is what a function of a direct import does to mutexes.
type importedLocks struct {
	set *facts.Locks
	fn  *facts.FuncLocks
}

func run(pass *analysis.Pass) (any, error) {
	r := &Result{
		funcs:    make(map[*ssa.Function]*funcInfo),
		when:     make(map[whenKey]*funcInfo),
		imported: make(map[string]importedLocks),
	}
	for _, imp := range pass.Pkg.Imports() {
		set := new(facts.Locks)
		if !pass.ImportPackageFact(imp, set) || !set.Valid() {
			continue
		}
		for i := range set.Funcs {
			r.imported[set.Str(set.Funcs[i].Name)] = importedLocks{set, &set.Funcs[i]}
		}
	}
	ir := pass.ResultOf[buildir.Analyzer].(*buildir.IR)
	if ir.Pkg == nil {
		return r, nil
	}
	r.pkg = ir.Pkg
	failed := guard.Do(pass, "lockset", func() {
		r.solveAll(ir.Pkg, ir.SrcFuncs)
		if syncapi.Internal(pass.Pkg.Path()) {
			return
		}
		if set := r.export(pass, ir); set != nil {
			pass.ExportPackageFact(set)
		}
	})
	if failed != "" {
		// What was half solved must not be read: consumers solve what
		// they ask for in scratch tables of their own.
		r.funcs = make(map[*ssa.Function]*funcInfo)
		r.when = make(map[whenKey]*funcInfo)
	}
	return r, nil
}

// export returns what the functions that importers can call do to
// mutexes, or nil when none does anything.
func (r *Result) export(pass *analysis.Pass, ir *buildir.IR) *facts.Locks {
	var in facts.Interner
	var funcs []facts.FuncLocks
	for _, fn := range ir.SrcFuncs {
		if !buildir.Importable(fn) {
			continue
		}
		fi := r.funcs[fn]
		if fi == nil || len(fi.acquires) == 0 && len(fi.releases) == 0 && len(fi.takes) == 0 && len(fi.unlocks) == 0 {
			continue
		}
		fl := facts.FuncLocks{Name: in.Intern(fn.String())}
		left := make(map[facts.Key]bool)
		for _, l := range r.LeftHeld(fn, returnsOf(fn)) {
			if left[l.Held.Key] || l.Held.Spin || ReportsSuccess(l.Ret) || HandsUnlock(l.Ret, l.Held) {
				continue // an exported conditional lock helper, or one that hands back its Unlock: its callers unlock
			}
			if r.Func(fn).Blocked(l.Ret) {
				continue // its deferred calls block: it never returns there
			}
			left[l.Held.Key] = true
			fl.Leaves = append(fl.Leaves, facts.HeldLock{Key: in.Key(l.Held.Key), Read: l.Held.Read, Pos: in.Intern(facts.Posn(pass.Fset, ReturnPos(fn, l.Ret)))})
		}
		for _, cb := range r.callbackLocks(fn) {
			if cb.held.Spin {
				continue // a spin flag is its package's own
			}
			at := cmp.Or(cb.held.At, facts.Posn(pass.Fset, cb.held.Pos))
			fl.Callbacks = append(fl.Callbacks, facts.CallbackLock{Param: uint16(cb.param), Lock: facts.HeldLock{Key: in.Key(cb.held.Key), Read: cb.held.Read, Pos: in.Intern(at)}})
		}
		for _, h := range fi.acquires {
			if h.Spin {
				continue
			}
			fl.Acquires = append(fl.Acquires, facts.HeldLock{Key: in.Key(h.Key), Read: h.Read, Once: h.Once})
		}
		for _, t := range fi.takes {
			at := cmp.Or(t.At, facts.Posn(pass.Fset, t.Pos))
			fl.Takes = append(fl.Takes, facts.HeldLock{Key: in.Key(t.Key), Read: t.Read, Pos: in.Intern(at), When: t.when.export()})
		}
		for _, r := range fi.releases {
			fl.Releases = append(fl.Releases, facts.HeldLock{Key: in.Key(r.key), When: r.when.export()})
		}
		for _, k := range fi.unlocks {
			fl.Unlocks = append(fl.Unlocks, facts.HeldLock{Key: in.Key(k)})
		}
		funcs = append(funcs, fl)
	}
	if len(funcs) == 0 {
		return nil
	}
	set := &facts.Locks{V: facts.Version, Strings: in.Strings(), Funcs: funcs}
	slices.SortFunc(set.Funcs, func(x, y facts.FuncLocks) int {
		return strings.Compare(set.Str(x.Name), set.Str(y.Name))
	})
	return set
}

// importedOf returns what the function of a direct import that call
// statically calls does to mutexes, and the renaming of its keys into
// the caller's.
func (r *Result) importedOf(call *ssa.CallCommon) (importedLocks, func(facts.Key) facts.Key, bool) {
	fn, ok := buildir.ImportedCallee(call)
	if !ok {
		return importedLocks{}, nil, false
	}
	var eff importedLocks
	if v, ok := r.byCallee.Load(fn); ok {
		eff = v.(importedLocks)
	} else {
		eff = r.imported[fn.String()]
		r.byCallee.Store(fn, eff)
	}
	if eff.fn == nil {
		return importedLocks{}, nil, false
	}
	return eff, binder(call, nil), true
}

// takes returns the locks the callee of call may block to acquire,
// named in the caller's terms, each with the caller's value it is
// reached from when an argument reaches it.
func (e importedLocks) takes(call *ssa.CallCommon, bind func(facts.Key) facts.Key) []condHeld {
	var takes []condHeld
	for _, h := range e.fn.Takes {
		k := e.set.Key(h.Key)
		held := Held{Key: bind(k), Read: h.Read, At: e.set.Str(h.Pos)}
		if actual, _ := Actual(call, nil, k); actual != nil {
			held.Value, held.Path = actual, k.Path()
		}
		takes = append(takes, condHeld{held, importCond(h.When)})
	}
	return takes
}

func (e importedLocks) releases(bind func(facts.Key) facts.Key) []condKey {
	var rels []condKey
	for _, h := range e.fn.Releases {
		rels = append(rels, condKey{bind(e.set.Key(h.Key)), importCond(h.When)})
	}
	return rels
}

// unlocks returns the locks the callee unlocks on every path, named in
// the caller's terms.
func (e importedLocks) unlocks(bind func(facts.Key) facts.Key) []facts.Key {
	var keys []facts.Key
	for _, h := range e.fn.Unlocks {
		keys = append(keys, bind(e.set.Key(h.Key)))
	}
	return keys
}

// leavesAt returns the locks the callee of call returns holding on some
// paths, named in the caller's terms with the caller's value they are
// reached from, each At the callee's return that leaves it.
func (e importedLocks) leavesAt(call *ssa.CallCommon) []Held {
	var out []Held
	for _, h := range e.fn.Leaves {
		if held, ok := atCaller(call, e.set.Key(h.Key)); ok {
			held.Read, held.At = h.Read, e.set.Str(h.Pos)
			out = append(out, held)
		}
	}
	return out
}

// Leaves returns the locks that call, a call of another package's
// function, returns holding on some of the callee's paths (a lock left
// held there), in the caller's terms; At is the callee's return.
func (r *Result) Leaves(call *ssa.CallCommon) []Held {
	eff, _, ok := r.importedOf(call)
	if !ok {
		return nil
	}
	return eff.leavesAt(call)
}

// paramLock is a lock a function holds when it calls its parameter.
type paramLock struct {
	param int
	held  Held
}

// callbackLocks returns the locks fn holds where it calls one of its
// parameters, a function value, itself: each parameter and lock once.
func (r *Result) callbackLocks(fn *ssa.Function) []paramLock {
	var out []paramLock
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || call.Call.IsInvoke() {
				continue
			}
			p, ok := call.Call.Value.(*ssa.Parameter)
			if !ok {
				continue
			}
			i := slices.Index(fn.Params, p)
			for _, h := range r.Before(call) {
				// Unsure comes from the calls the lockset cannot see into:
				// in a loop, this very call of the parameter, which is
				// not taken to release a lock its caller took itself.
				own := h.Value != nil && h.Value.Parent() == fn && h.Path.IsEmpty()
				if h.Unsure && !own || !h.Key.Rooted() || slices.ContainsFunc(out, func(x paramLock) bool { return x.param == i && x.held.Key == h.Key }) {
					continue
				}
				out = append(out, paramLock{i, h})
			}
		}
	}
	return out
}

// Callback is a lock that a call of another package's function holds
// when that function calls the function value Arg, one of the call's
// arguments: Held is in the caller's terms, At where the callee took it.
type Callback struct {
	Arg  ssa.Value
	Held Held
}

// Callbacks returns the locks that the callee of call, a function of
// another package, holds when it calls the function values call passes.
func (r *Result) Callbacks(call *ssa.CallCommon) []Callback {
	eff, _, ok := r.importedOf(call)
	if !ok {
		return nil
	}
	var out []Callback
	for _, cb := range eff.fn.Callbacks {
		if int(cb.Param) >= len(call.Args) {
			continue
		}
		if held, ok := atCaller(call, eff.set.Key(cb.Lock.Key)); ok {
			held.Read, held.At = cb.Lock.Read, eff.set.Str(cb.Lock.Pos)
			out = append(out, Callback{call.Args[cb.Param], held})
		}
	}
	return out
}

// acquiresAt returns the locks the callee of call leaves held, named in
// the caller's terms, each with the caller's value it is reached from.
func (e importedLocks) acquiresAt(call *ssa.CallCommon) Set {
	var s Set
	for _, h := range e.fn.Acquires {
		if held, ok := atCaller(call, e.set.Key(h.Key)); ok {
			held.Read, held.Pos = h.Read, call.Pos()
			s = s.With(held)
		}
	}
	return s
}

// atCaller returns the mutex of a callee's key k as the caller of call
// names it: its key, and the caller's value it is reached from with the
// rest of the path; false when nothing the caller has reaches it.
func atCaller(call *ssa.CallCommon, k facts.Key) (Held, bool) {
	actual, global := Actual(call, nil, k)
	if global {
		actual = globalNamed(call, k)
	}
	if actual == nil {
		return Held{}, false
	}
	return Held{Key: k.Rebase(Key(actual)), Value: actual, Path: k.Path()}, true
}

// globalNamed returns the package variable a global key is rooted at,
// when the caller's program has it (an exported variable of an import).
func globalNamed(call *ssa.CallCommon, k facts.Key) ssa.Value {
	fn := call.StaticCallee()
	if fn == nil || fn.Pkg == nil {
		return nil
	}
	_, _, name := k.Root()
	i := strings.LastIndex(name, ".")
	if i < 0 || name[:i] != fn.Pkg.Pkg.Path() {
		return nil
	}
	if g := fn.Pkg.Var(name[i+1:]); g != nil {
		return g
	}
	return nil
}

// export returns c as a fact writes it.
func (c cond) export() []facts.ParamIs {
	var out []facts.ParamIs
	for _, l := range c {
		out = append(out, facts.MakeParamIs(l.param, l.val))
	}
	return out
}

// importCond returns the condition a fact wrote. One that contradicts
// itself, which export does not write, is taken as always: the lock
// counts at every call.
func importCond(when []facts.ParamIs) cond {
	var c cond
	for _, p := range when {
		var ok bool
		if c, ok = c.and(cond{{p.Param(), p.Value()}}); !ok {
			return nil
		}
	}
	return c
}
