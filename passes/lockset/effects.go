package lockset

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/guard"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// An access is a read or write, by a function or its callees, of memory
// that a caller can name: rooted at a parameter, a free variable or a
// package variable.
type access struct {
	key                  string    // the pointer that is dereferenced (see facts.Effects)
	pos                  token.Pos // where, in this package
	at                   string    // where, when in another package: "file:line:col"
	write, whole, atomic bool
	locks                Set // the rooted locks held there
}

// importedEffects is the effect of a function of a direct import.
type importedEffects struct {
	set *facts.Effects
	fn  *facts.FuncEffects
}

func run(pass *analysis.Pass) (any, error) {
	r := &Result{funcs: make(map[*ssa.Function]*funcInfo), imported: make(map[string]importedEffects)}
	for _, imp := range pass.Pkg.Imports() {
		set := new(facts.Effects)
		if !pass.ImportPackageFact(imp, set) || !set.Valid() {
			continue
		}
		for i := range set.Funcs {
			r.imported[set.Str(set.Funcs[i].Name)] = importedEffects{set, &set.Funcs[i]}
		}
	}
	ir := pass.ResultOf[buildir.Analyzer].(*buildir.IR)
	if ir.Pkg == nil || noEffects[pass.Pkg.Path()] {
		return r, nil
	}
	guard.Do(pass, "lockset", func() {
		if set := r.export(pass.Fset, ir); set != nil {
			pass.ExportPackageFact(set)
		}
	})
	return r, nil
}

// noEffects lists the packages whose functions' accesses are not data
// for their callers: the runtime's, the state of sync's primitives, and
// the testing package's (each test has its own T, which the pointer
// analysis does not tell apart).
var noEffects = map[string]bool{"runtime": true, "sync": true, "internal/sync": true, "sync/atomic": true, "testing": true}

// isSyncPackage reports whether fn belongs to a package of noEffects.
func isSyncPackage(fn *ssa.Function) bool {
	return fn.Pkg != nil && noEffects[fn.Pkg.Pkg.Path()]
}

// export returns the effects of the functions that importers can call,
// or nil when none has any.
func (r *Result) export(fset *token.FileSet, ir *buildir.IR) *facts.Effects {
	r.mu.Lock()
	defer r.mu.Unlock()
	var in facts.Interner
	lock := func(s Set) []facts.HeldLock {
		var out []facts.HeldLock
		for _, h := range s {
			out = append(out, facts.HeldLock{Key: in.Intern(h.Key), Read: h.Read})
		}
		return out
	}
	var funcs []facts.FuncEffects
	for _, fn := range ir.SrcFuncs {
		if !importable(fn) {
			continue
		}
		fi := r.info(fn)
		accs := r.accessesOf(fn)
		if len(fi.acquires) == 0 && len(fi.releases) == 0 && len(accs) == 0 {
			continue
		}
		fe := facts.FuncEffects{Name: in.Intern(fn.String()), Acquires: lock(fi.acquires)}
		for _, k := range fi.releases {
			fe.Releases = append(fe.Releases, in.Intern(k))
		}
		for _, acc := range accs {
			at := acc.at
			if at == "" {
				p := fset.Position(acc.pos)
				at = fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
			}
			fe.Accesses = append(fe.Accesses, facts.MemAccess{
				Key: in.Intern(acc.key), Pos: in.Intern(at),
				Write: acc.write, Whole: acc.whole, Atomic: acc.atomic, Locks: lock(acc.locks),
			})
		}
		funcs = append(funcs, fe)
	}
	if len(funcs) == 0 {
		return nil
	}
	set := &facts.Effects{V: facts.Version, Strings: in.Strings(), Funcs: funcs}
	slices.SortFunc(set.Funcs, func(x, y facts.FuncEffects) int {
		return strings.Compare(set.Str(x.Name), set.Str(y.Name))
	})
	return set
}

// importable reports whether another package can call fn by name: an
// exported function, or a method with an exported name of a type that
// is not generic.
func importable(fn *ssa.Function) bool {
	if fn.Parent() != nil || len(fn.Blocks) == 0 || fn.TypeParams().Len() > 0 || fn.TypeArgs() != nil {
		return false
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || !obj.Exported() {
		return false
	}
	if recv := fn.Signature.Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if named, ok := t.(*types.Named); !ok || named.TypeParams().Len() > 0 {
			return false
		}
	}
	return true
}

// accessesOf returns the rooted accesses of fn and its callees, with
// the locks held at each, at most facts.MaxAccesses of them. r.mu must
// be held.
func (r *Result) accessesOf(fn *ssa.Function) []access {
	fi := r.info(fn)
	if fi.accDone {
		return fi.accesses // done, or in progress: a recursive call adds nothing
	}
	fi.accDone = true
	var out []access
	seen := make(map[string]bool)
	add := func(acc access) {
		if !isRooted(acc.key) || len(out) >= facts.MaxAccesses {
			return
		}
		acc.locks = rooted(acc.locks)
		k := fmt.Sprint(acc.key, acc.write, acc.whole, acc.atomic, acc.locks.keys())
		if !seen[k] {
			seen[k] = true
			out = append(out, acc)
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			held := fi.before[instr]
			own := func(v ssa.Value, write, whole, atomic bool) {
				add(access{key: Key(v), pos: instr.Pos(), write: write, whole: whole, atomic: atomic, locks: held})
			}
			switch instr := instr.(type) {
			case *ssa.Store:
				add(access{key: Key(instr.Addr), pos: storePos(instr), write: true, locks: held})
			case *ssa.UnOp:
				if instr.Op == token.MUL {
					own(instr.X, false, false, false)
				}
			case *ssa.MapUpdate:
				own(instr.Map, true, true, false)
			case *ssa.Lookup:
				if _, ok := instr.X.Type().Underlying().(*types.Map); ok {
					own(instr.X, false, true, false)
				}
			case *ssa.Call:
				r.callAccesses(instr, held, own, add)
			}
		}
	}
	fi.accesses = out
	return out
}

// callAccesses adds the accesses of a call made holding held: those of
// a builtin or sync/atomic function, and those of a callee, renamed.
func (r *Result) callAccesses(call *ssa.Call, held Set, own func(v ssa.Value, write, whole, atomic bool), add func(access)) {
	c := call.Common()
	switch fn := c.Value.(type) {
	case *ssa.Builtin:
		switch fn.Name() {
		case "delete", "clear", "close":
			own(c.Args[0], true, true, false)
		case "len":
			if _, ok := c.Args[0].Type().Underlying().(*types.Map); ok {
				own(c.Args[0], false, true, false)
			}
		case "append", "copy":
			if _, ok := c.Args[0].Type().Underlying().(*types.Slice); ok {
				own(c.Args[0], true, false, false)
			}
		}
		return
	case *ssa.Function:
		if write, ok := atomicCall(fn); ok && len(c.Args) > 0 {
			own(c.Args[0], write, false, true)
			return
		}
		if isSyncPackage(fn) {
			return // the state of a mutex or WaitGroup is synchronization, not data
		}
	}
	rename := func(acc access, bind func(string) string) {
		acc.key = bind(acc.key)
		var locks Set
		for _, h := range acc.locks {
			h.Key = bind(h.Key)
			locks = locks.with(h)
		}
		for _, h := range held {
			locks = locks.with(h)
		}
		acc.locks = locks
		if acc.at == "" && !acc.pos.IsValid() {
			acc.pos = call.Pos()
		}
		add(acc)
	}
	if eff, bind, ok := r.importedOf(c); ok {
		for _, acc := range eff.accesses() {
			rename(acc, bind)
		}
		return
	}
	if callee, bind := calleeOf(c); callee != nil && len(callee.Blocks) > 0 {
		for _, acc := range r.accessesOf(callee) {
			rename(acc, bind)
		}
	}
}

// storePos returns where a store is: the assignment, or the value
// stored when the compiler made the store up.
func storePos(s *ssa.Store) token.Pos {
	if s.Pos().IsValid() {
		return s.Pos()
	}
	return s.Val.Pos()
}

// atomicCall reports whether fn is an operation of sync/atomic on the
// memory its first argument points to, and whether it writes.
func atomicCall(fn *ssa.Function) (write, ok bool) {
	obj := fn.Object()
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "sync/atomic" {
		return false, false
	}
	return !strings.HasPrefix(obj.Name(), "Load"), true
}

func (s Set) keys() []string {
	var out []string
	for _, h := range s {
		k := h.Key
		if h.Read {
			k += "(r)"
		}
		out = append(out, k)
	}
	return out
}

// importedOf returns the effect of the function of a direct import that
// call statically calls, and the renaming of its keys into the caller's.
func (r *Result) importedOf(call *ssa.CallCommon) (importedEffects, func(string) string, bool) {
	fn := call.StaticCallee()
	if fn == nil || len(fn.Blocks) > 0 || fn.Origin() != nil || call.IsInvoke() {
		return importedEffects{}, nil, false
	}
	eff, ok := r.imported[fn.String()]
	if !ok {
		return importedEffects{}, nil, false
	}
	bind := func(k string) string {
		actual, path, global := Actual(call, nil, k)
		switch {
		case global:
			return k
		case actual == nil:
			return "?" + k
		}
		return Key(actual) + path
	}
	return eff, bind, true
}

// ImportedFunc returns the accesses that a call of fn, a function of a
// direct import, makes, in fn's terms: the key of each, where it is,
// and the locks fn holds there. It is nil for other functions.
func (r *Result) ImportedFunc(fn *ssa.Function) []ImportedAccess {
	if len(fn.Blocks) > 0 || fn.Origin() != nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	eff, ok := r.imported[fn.String()]
	if !ok {
		return nil
	}
	var out []ImportedAccess
	for _, acc := range eff.accesses() {
		out = append(out, ImportedAccess{Key: acc.key, At: acc.at, Write: acc.write, Whole: acc.whole, Atomic: acc.atomic, Locks: acc.locks})
	}
	return out
}

// ImportedAccess is an access made by a function of another package, in
// that function's terms (see facts.Effects).
type ImportedAccess struct {
	Key                  string
	At                   string // "file:line:col"
	Write, Whole, Atomic bool
	Locks                Set // by Key only: Value is nil
}

func (e importedEffects) accesses() []access {
	var out []access
	for _, a := range e.fn.Accesses {
		out = append(out, access{
			key: e.set.Str(a.Key), at: e.set.Str(a.Pos),
			write: a.Write, whole: a.Whole, atomic: a.Atomic, locks: e.held(a.Locks),
		})
	}
	return out
}

func (e importedEffects) held(locks []facts.HeldLock) Set {
	var s Set
	for _, h := range locks {
		s = s.with(Held{Key: e.set.Str(h.Key), Read: h.Read})
	}
	return s
}

func (e importedEffects) releases(bind func(string) string) []string {
	var keys []string
	for _, k := range e.fn.Releases {
		keys = append(keys, bind(e.set.Str(k)))
	}
	return keys
}

// acquiresAt returns the locks the callee of call leaves held, named in
// the caller's terms, each with the caller's value it is reached from.
func (e importedEffects) acquiresAt(call *ssa.CallCommon) Set {
	var s Set
	for _, h := range e.fn.Acquires {
		k := e.set.Str(h.Key)
		actual, path, global := Actual(call, nil, k)
		if global {
			actual = globalNamed(call, k)
		}
		if actual == nil {
			continue // nothing here reaches it
		}
		s = s.with(Held{Key: Key(actual) + path, Value: actual, Path: path, Read: h.Read})
	}
	return s
}

// globalNamed returns the package variable a global key is rooted at,
// when the caller's program has it (an exported variable of an import).
func globalNamed(call *ssa.CallCommon, k string) ssa.Value {
	fn := call.StaticCallee()
	if fn == nil || fn.Pkg == nil {
		return nil
	}
	name, _, _ := strings.Cut(strings.TrimPrefix(k, "g:"), "|")
	i := strings.LastIndex(name, ".")
	if i < 0 || name[:i] != fn.Pkg.Pkg.Path() {
		return nil
	}
	if g := fn.Pkg.Var(name[i+1:]); g != nil {
		return g
	}
	return nil
}
