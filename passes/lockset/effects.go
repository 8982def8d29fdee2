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
	"github.com/origo-dev/origo/passes/internal/loops"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// An effect is a read or write, or a synchronization operation, by a
// function or its callees, on memory that a caller can name: rooted at a
// parameter, a free variable or a package variable.
type effect struct {
	sync                 facts.SyncKind // 0 for an access
	key                  facts.Key      // the pointer that is dereferenced
	pos                  token.Pos      // where, in this package
	at                   string         // where, when in another package: "file:line:col"
	write, whole, atomic bool
	locks                Set // the rooted locks held at an access
}

// importedEffects is the effect of a function of a direct import.
type importedEffects struct {
	set *facts.Effects
	fn  *facts.FuncEffects
}

func run(pass *analysis.Pass) (any, error) {
	r := &Result{
		funcs:    make(map[*ssa.Function]*funcInfo),
		imported: make(map[string]importedEffects),
		byName:   make(map[string][]ImportedEffect),
	}
	for _, imp := range pass.Pkg.Imports() {
		set := new(facts.Effects)
		if !pass.ImportPackageFact(imp, set) || !set.Valid() {
			continue
		}
		for i := range set.Funcs {
			name := set.Str(set.Funcs[i].Name)
			eff := importedEffects{set, &set.Funcs[i]}
			r.imported[name] = eff
			r.byName[name] = eff.list()
		}
	}
	ir := pass.ResultOf[buildir.Analyzer].(*buildir.IR)
	if ir.Pkg == nil {
		return r, nil
	}
	failed := guard.Do(pass, "lockset", func() {
		r.solveAll(ir.Pkg, ir.SrcFuncs)
		if noEffects[pass.Pkg.Path()] {
			return
		}
		if set := r.export(pass.Fset, ir); set != nil {
			pass.ExportPackageFact(set)
		}
	})
	if failed != "" {
		// What was half solved must not be read: consumers solve what
		// they ask for in scratch tables of their own.
		r.funcs = make(map[*ssa.Function]*funcInfo)
	}
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
	sv := &solver{r: r, funcs: r.funcs}
	var in facts.Interner
	lock := func(s Set) []facts.HeldLock {
		var out []facts.HeldLock
		for _, h := range s {
			out = append(out, facts.HeldLock{Key: in.Key(h.Key), Read: h.Read, Once: h.Once})
		}
		return out
	}
	var funcs []facts.FuncEffects
	for _, fn := range ir.SrcFuncs {
		if !importable(fn) {
			continue
		}
		fi := sv.info(fn)
		effs := sv.effectsOf(fn)
		if len(fi.acquires) == 0 && len(fi.releases) == 0 && len(fi.takes) == 0 && len(effs) == 0 {
			continue
		}
		fe := facts.FuncEffects{Name: in.Intern(fn.String()), Acquires: lock(fi.acquires)}
		for _, h := range fi.takes {
			fe.Takes = append(fe.Takes, facts.HeldLock{Key: in.Key(h.Key), Read: h.Read, Pos: in.Intern(posString(fset, h.Pos, h.At))})
		}
		for _, k := range fi.releases {
			fe.Releases = append(fe.Releases, in.Key(k))
		}
		for _, e := range effs {
			at := posString(fset, e.pos, e.at)
			if e.sync != 0 {
				fe.Syncs = append(fe.Syncs, facts.SyncOp{Kind: e.sync, Key: in.Key(e.key), Pos: in.Intern(at), After: uint32(len(fe.Accesses))})
				continue
			}
			fe.Accesses = append(fe.Accesses, facts.MemAccess{
				Key: in.Key(e.key), Pos: in.Intern(at),
				Write: e.write, Whole: e.whole, Atomic: e.atomic, Locks: lock(e.locks),
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

// posString renders pos as "file:line:col", or returns at when set.
func posString(fset *token.FileSet, pos token.Pos, at string) string {
	if at != "" || !pos.IsValid() {
		return at
	}
	p := fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
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

// effectsOf returns the rooted accesses and synchronization operations
// of fn and its callees in program order, with the locks held at each
// access; at most facts.MaxAccesses accesses and facts.MaxSyncs
// operations. It runs during the pass's Run only: it keeps its answer
// in the funcInfo.
func (sv *solver) effectsOf(fn *ssa.Function) []effect {
	fi := sv.info(fn)
	if fi.effDone {
		return fi.effects // done, or in progress: a recursive call adds nothing
	}
	fi.effDone = true
	var out []effect
	accesses, syncs := 0, 0
	seen := make(map[string]bool)
	add := func(e effect) {
		if !e.key.Rooted() {
			return
		}
		if e.sync != 0 {
			if syncs < facts.MaxSyncs {
				syncs++
				out = append(out, e)
			}
			return
		}
		if accesses >= facts.MaxAccesses {
			return
		}
		// An access repeated in one stretch without synchronization adds
		// nothing: the first stands for it.
		e.locks = rooted(e.locks)
		k := fmt.Sprint(syncs, e.key, e.write, e.whole, e.atomic, e.locks.keys())
		if !seen[k] {
			seen[k] = true
			accesses++
			out = append(out, e)
		}
	}
	var defers []*ssa.Defer
	for _, b := range loops.ReversePostorder(fn) {
		for _, instr := range b.Instrs {
			held := fi.before[instr]
			own := func(v ssa.Value, write, whole, atomic bool) {
				add(effect{key: Key(v), pos: instr.Pos(), write: write, whole: whole, atomic: atomic, locks: held})
			}
			sync := func(k facts.SyncKind, v ssa.Value) {
				add(effect{sync: k, key: Key(v), pos: instr.Pos()})
			}
			switch instr := instr.(type) {
			case *ssa.Store:
				add(effect{key: Key(instr.Addr), pos: storePos(instr), write: true, locks: held})
			case *ssa.UnOp:
				switch instr.Op {
				case token.MUL:
					own(instr.X, false, false, false)
				case token.ARROW:
					sync(facts.SyncRecv, instr.X)
				}
			case *ssa.Send:
				sync(facts.SyncSend, instr.Chan)
			case *ssa.MapUpdate:
				own(instr.Map, true, true, false)
			case *ssa.Lookup:
				if _, ok := instr.X.Type().Underlying().(*types.Map); ok {
					own(instr.X, false, true, false)
				}
			case *ssa.Call:
				sv.callEffects(instr, held, own, sync, add)
			case *ssa.Defer:
				defers = append(defers, instr)
			case *ssa.RunDefers:
				for i := len(defers) - 1; i >= 0; i-- {
					sv.callEffects(defers[i], held, own, sync, add)
				}
			}
		}
	}
	fi.effects = out
	return out
}

// waitGroupKinds are the effects of the methods of sync.WaitGroup.
var waitGroupKinds = map[syncapi.WaitGroupOp]facts.SyncKind{syncapi.WaitGroupAdd: facts.SyncAdd, syncapi.WaitGroupDone: facts.SyncDone, syncapi.WaitGroupWait: facts.SyncWait}

// condKinds are the effects of the methods of sync.Cond.
var condKinds = map[syncapi.CondOp]facts.SyncKind{syncapi.CondWait: facts.SyncCondWait, syncapi.CondSignal: facts.SyncCondSignal, syncapi.CondBroadcast: facts.SyncCondSignal}

// callEffects adds the effects of a call made holding held: those of a
// builtin, a sync/atomic function or a WaitGroup method, and those of a
// callee, renamed.
func (sv *solver) callEffects(call ssa.CallInstruction, held Set, own func(v ssa.Value, write, whole, atomic bool), sync func(facts.SyncKind, ssa.Value), add func(effect)) {
	c := call.Common()
	switch fn := c.Value.(type) {
	case *ssa.Builtin:
		if ch, ok := syncapi.Close(c); ok {
			own(ch, true, true, false)
			sync(facts.SyncClose, ch)
			return
		}
		switch fn.Name() {
		case "delete", "clear":
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
		if op := syncapi.Atomic(fn); op != syncapi.NotAtomic && len(c.Args) > 0 {
			own(c.Args[0], op.Writes(), false, true)
			return
		}
		if _, _, ok := syncapi.OnceDo(c); ok {
			sv.onceEffects(call, held, sync, add)
			return
		}
		if isSyncPackage(fn) {
			// The state of a mutex or WaitGroup is synchronization, not data.
			if op, wg := syncapi.WaitGroup(c); op != syncapi.NotWaitGroup {
				sync(waitGroupKinds[op], wg)
			} else if op, cond := syncapi.Cond(c); op != syncapi.NotCond {
				sync(condKinds[op], cond)
			}
			return
		}
	}
	rename := func(e effect, bind func(facts.Key) facts.Key) { add(renamed(e, bind, held, call)) }
	if eff, bind, ok := sv.r.importedOf(c); ok {
		for _, e := range eff.effects() {
			rename(e, bind)
		}
		return
	}
	if callee, bind := calleeOf(c); callee != nil && len(callee.Blocks) > 0 {
		for _, e := range sv.effectsOf(callee) {
			rename(e, bind)
		}
	}
}

// onceEffects adds the effects of once.Do(f): f's accesses, holding the
// Once as a lock (f runs once), then the return of Do, which every call
// reaches after f's end.
func (sv *solver) onceEffects(call ssa.CallInstruction, held Set, sync func(facts.SyncKind, ssa.Value), add func(effect)) {
	c := call.Common()
	once := Held{Key: Key(c.Args[0]), Once: true}
	callee, bind := calleeOf(&ssa.CallCommon{Value: c.Args[1]})
	if callee != nil && len(callee.Blocks) > 0 {
		for _, e := range sv.effectsOf(callee) {
			add(renamed(e, bind, held.with(once), call))
		}
	}
	sync(facts.SyncOnceAfter, c.Args[0])
}

// renamed returns a callee's effect e at call: its keys in the caller's
// names (bind), an access holding the caller's locks held too, and the
// call's position where the callee had none.
func renamed(e effect, bind func(facts.Key) facts.Key, held Set, call ssa.CallInstruction) effect {
	e.key = bind(e.key)
	if e.sync == 0 {
		var locks Set
		for _, h := range e.locks {
			h.Key = bind(h.Key)
			locks = locks.with(h)
		}
		for _, h := range held {
			locks = locks.with(h)
		}
		e.locks = locks
	}
	if e.at == "" && !e.pos.IsValid() {
		e.pos = call.Pos()
	}
	return e
}

// storePos returns where a store is: the assignment, or the value
// stored when the compiler made the store up.
func storePos(s *ssa.Store) token.Pos {
	if s.Pos().IsValid() {
		return s.Pos()
	}
	return s.Val.Pos()
}

func (s Set) keys() []string {
	var out []string
	for _, h := range s {
		k := h.Key.String()
		if h.Read {
			k += "(r)"
		}
		out = append(out, k)
	}
	return out
}

// importedOf returns the effect of the function of a direct import that
// call statically calls, and the renaming of its keys into the caller's.
func (r *Result) importedOf(call *ssa.CallCommon) (importedEffects, func(facts.Key) facts.Key, bool) {
	fn := call.StaticCallee()
	if fn == nil || len(fn.Blocks) > 0 || fn.Origin() != nil || call.IsInvoke() {
		return importedEffects{}, nil, false
	}
	eff, ok := r.imported[fn.String()]
	if !ok {
		return importedEffects{}, nil, false
	}
	return eff, binder(call, nil), true
}

// Imported returns what a call of fn, a function of a direct import,
// does, in fn's terms and program order: its accesses, with where each
// is and the locks fn holds there, and its synchronization operations.
// It is nil for other functions. The slice is shared: do not modify it.
func (r *Result) Imported(fn *ssa.Function) []ImportedEffect {
	if len(fn.Blocks) > 0 || fn.Origin() != nil {
		return nil
	}
	return r.byName[fn.String()]
}

// list returns what Imported gives for e's function.
func (e importedEffects) list() []ImportedEffect {
	var out []ImportedEffect
	n := 0
	for _, eff := range e.effects() {
		ie := ImportedEffect{Sync: eff.sync, Key: eff.key, At: eff.at, Write: eff.write, Whole: eff.whole, Atomic: eff.atomic, Locks: eff.locks}
		if eff.sync == 0 {
			ie.Index = n
			n++
		}
		out = append(out, ie)
	}
	return out
}

// ImportedEffect is an access or synchronization operation made by a
// function of another package, in that function's terms (see
// facts.Effects).
type ImportedEffect struct {
	Sync                 facts.SyncKind // 0 for an access
	Index                int            // of an access, among the function's accesses
	Key                  facts.Key
	At                   string // "file:line:col"
	Write, Whole, Atomic bool
	Locks                Set // by Key only: Value is nil
}

// effects returns the accesses and operations of e in program order.
func (e importedEffects) effects() []effect {
	var out []effect
	syncs := e.fn.Syncs
	for i, a := range e.fn.Accesses {
		for len(syncs) > 0 && syncs[0].After <= uint32(i) {
			out = append(out, e.sync(syncs[0]))
			syncs = syncs[1:]
		}
		out = append(out, effect{
			key: e.set.Key(a.Key), at: e.set.Str(a.Pos),
			write: a.Write, whole: a.Whole, atomic: a.Atomic, locks: e.held(a.Locks),
		})
	}
	for _, op := range syncs {
		out = append(out, e.sync(op))
	}
	return out
}

func (e importedEffects) sync(op facts.SyncOp) effect {
	return effect{sync: op.Kind, key: e.set.Key(op.Key), at: e.set.Str(op.Pos)}
}

func (e importedEffects) held(locks []facts.HeldLock) Set {
	var s Set
	for _, h := range locks {
		s = s.with(Held{Key: e.set.Key(h.Key), Read: h.Read, Once: h.Once})
	}
	return s
}

func (e importedEffects) takes(bind func(facts.Key) facts.Key) Set {
	var s Set
	for _, h := range e.fn.Takes {
		s = s.with(Held{Key: bind(e.set.Key(h.Key)), Read: h.Read, At: e.set.Str(h.Pos)})
	}
	return s
}

func (e importedEffects) releases(bind func(facts.Key) facts.Key) []facts.Key {
	var keys []facts.Key
	for _, k := range e.fn.Releases {
		keys = append(keys, bind(e.set.Key(k)))
	}
	return keys
}

// acquiresAt returns the locks the callee of call leaves held, named in
// the caller's terms, each with the caller's value it is reached from.
func (e importedEffects) acquiresAt(call *ssa.CallCommon) Set {
	var s Set
	for _, h := range e.fn.Acquires {
		k := e.set.Key(h.Key)
		actual, global := Actual(call, nil, k)
		if global {
			actual = globalNamed(call, k)
		}
		if actual == nil {
			continue // nothing here reaches it
		}
		s = s.with(Held{Key: k.Rebase(Key(actual)), Value: actual, Path: k.Path(), Read: h.Read, Pos: call.Pos()})
	}
	return s
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
