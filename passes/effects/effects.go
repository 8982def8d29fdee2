package effects

import (
	"cmp"
	"fmt"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/buildir"
	"github.com/origo-dev/origo/passes/dataflow"
	"github.com/origo-dev/origo/passes/guard"
	"github.com/origo-dev/origo/passes/internal/loops"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Analyzer computes what each function of the package does to memory
// and synchronization that its callers can name, and exports it for the
// exported functions as a facts.Effects package fact. It reports
// nothing; see the package documentation.
var Analyzer = &analysis.Analyzer{
	Name:             "effects",
	Doc:              "summarize what functions do to memory and synchronization, for importers",
	URL:              "https://pkg.go.dev/github.com/origo-dev/origo/passes/effects",
	Run:              run,
	Requires:         []*analysis.Analyzer{buildir.Analyzer, lockset.Analyzer},
	ResultType:       reflect.TypeFor[*Result](),
	FactTypes:        []analysis.Fact{new(facts.Effects)},
	RunDespiteErrors: true,
}

// Result gives the effects of the direct imports' functions. It is
// read-only once Run returns.
type Result struct {
	imported map[string]importedEffects // by the function's SSA name

	// lists holds the Ops of the imported functions asked about
	// (Imported), made when first asked: making them for every function
	// of every import was 2% of client_golang's units under go vet,
	// most of which (the runs for facts alone) ask about none. mu guards
	// lists and the imports' key tables, which passes that run at once
	// read through Imported.
	mu    sync.Mutex
	lists map[string][]Op
}

// SkipsDone returns the parameters of fn, a function of a direct import,
// that some path of it returns on without Done
// (facts.FuncEffects.SkipsDone).
func (r *Result) SkipsDone(fn *ssa.Function) uint64 {
	if !buildir.Imported(fn) {
		return 0
	}
	return r.fact(fn).SkipsDone
}

// Contained returns the parameters of fn, a function of a direct import,
// that it contains (facts.FuncEffects.Contained): bit i for parameter i,
// the receiver first.
func (r *Result) Contained(fn *ssa.Function) uint64 {
	if !buildir.Imported(fn) {
		return 0
	}
	return r.fact(fn).Contained
}

// Async returns the parameters of fn, a function of a direct import,
// that are callbacks it keeps for the goroutines of its package to call
// (facts.FuncEffects.Async): bit i for parameter i, the receiver first.
func (r *Result) Async(fn *ssa.Function) uint64 {
	if !buildir.Imported(fn) {
		return 0
	}
	return r.fact(fn).Async
}

// fact returns the fact of fn, a function of a direct import (noEffect
// when the import says nothing of fn).
func (r *Result) fact(fn *ssa.Function) *facts.FuncEffects {
	if eff, ok := r.imported[fn.String()]; ok {
		return eff.fn
	}
	return &noEffect
}

// noEffect is the fact of a function that an import says nothing of.
var noEffect facts.FuncEffects

// Imported returns what a call of fn, a function of a direct import,
// does, in fn's terms and program order: its accesses, with where each
// is and the locks fn holds there, and its synchronization operations.
// It is nil for other functions. The slice is shared: do not modify it.
func (r *Result) Imported(fn *ssa.Function) []Op {
	if !buildir.Imported(fn) {
		return nil
	}
	name := fn.String()
	r.mu.Lock()
	defer r.mu.Unlock()
	if ops, ok := r.lists[name]; ok {
		return ops
	}
	eff, ok := r.imported[name]
	if !ok {
		return nil
	}
	ops := eff.list()
	r.lists[name] = ops
	return ops
}

// An Op is an access or synchronization operation made by a function of
// another package, in that function's terms (see facts.Effects).
type Op struct {
	Sync                 facts.SyncKind // 0 for an access
	Index                int            // of an access, among the function's accesses
	Key                  facts.Key
	At                   string // "file:line:col"
	Write, Whole, Atomic bool
	Locks                lockset.Set // by Key only: Value is nil
}

// An effect is a read or write, or a synchronization operation, by a
// function or its callees, on memory that a caller can name: rooted at a
// parameter, a free variable or a package variable.
type effect struct {
	sync                 facts.SyncKind // 0 for an access
	key                  facts.Key      // the pointer that is dereferenced
	pos                  token.Pos      // where, in this package
	at                   string         // where, when in another package: "file:line:col"
	write, whole, atomic bool
	locks                lockset.Set // the rooted locks held at an access
}

// importedEffects is the effect of a function of a direct import.
type importedEffects struct {
	set  *facts.Effects
	fn   *facts.FuncEffects
	keys *keyTable // set's keys, parsed
}

// keyTable parses the keys of one import's facts.Effects once each:
// every function of every import is listed in Run (see list), and the
// same keys come back in function after function.
type keyTable struct {
	set    *facts.Effects
	keys   []facts.Key
	parsed []bool
}

func newKeyTable(set *facts.Effects) *keyTable {
	return &keyTable{set: set, keys: make([]facts.Key, len(set.Strings)), parsed: make([]bool, len(set.Strings))}
}

// key is set.Key(i).
func (t *keyTable) key(i uint32) facts.Key {
	if int(i) >= len(t.keys) {
		return t.set.Key(i)
	}
	if !t.parsed[i] {
		t.keys[i], t.parsed[i] = t.set.Key(i), true
	}
	return t.keys[i]
}

// summarizer computes the effects of the package's functions, during
// Run.
type summarizer struct {
	ls     *lockset.Result
	byName map[string]importedEffects
	done   map[*ssa.Function][]effect

	containedDone map[*ssa.Function]uint64 // see contained
	called        map[*types.Var]bool      // see calledFields
}

func run(pass *analysis.Pass) (any, error) {
	r := &Result{lists: make(map[string][]Op)}
	s := &summarizer{
		ls:     pass.ResultOf[lockset.Analyzer].(*lockset.Result),
		byName: make(map[string]importedEffects),
		done:   make(map[*ssa.Function][]effect),

		containedDone: make(map[*ssa.Function]uint64),
	}
	for _, imp := range pass.Pkg.Imports() {
		set := new(facts.Effects)
		if !pass.ImportPackageFact(imp, set) || !set.Valid() {
			continue
		}
		keys := newKeyTable(set)
		for i := range set.Funcs {
			name := set.Str(set.Funcs[i].Name)
			eff := importedEffects{set, &set.Funcs[i], keys}
			s.byName[name] = eff
		}
	}
	r.imported = s.byName // the summarizer only reads it
	ir := pass.ResultOf[buildir.Analyzer].(*buildir.IR)
	if ir.Pkg == nil || syncapi.Internal(pass.Pkg.Path()) {
		return r, nil
	}
	guard.Do(pass, "effects", func() {
		if set := s.export(pass.Fset, ir); set != nil {
			pass.ExportPackageFact(set)
		}
	})
	return r, nil
}

// export returns the effects of the functions that importers can call,
// or nil when none has any.
func (s *summarizer) export(fset *token.FileSet, ir *buildir.IR) *facts.Effects {
	var in facts.Interner
	lock := func(locks lockset.Set) []facts.HeldLock {
		var out []facts.HeldLock
		for _, h := range locks {
			out = append(out, facts.HeldLock{Key: in.Key(h.Key), Read: h.Read, Once: h.Once})
		}
		return out
	}
	var funcs []facts.FuncEffects
	for _, fn := range ir.SrcFuncs {
		if !buildir.Importable(fn) {
			continue
		}
		effs := s.effectsOf(fn)
		async := s.asyncArgs(fn, ir)
		if len(effs) == 0 && async == 0 {
			continue
		}
		fe := facts.FuncEffects{Name: in.Intern(fn.String()), Contained: s.contained(fn), Async: async}
		fe.SkipsDone = skipsDone(fn, fe.Contained)
		for _, e := range effs {
			at := cmp.Or(e.at, facts.Posn(fset, e.pos))
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

// effectsOf returns the rooted accesses and synchronization operations
// of fn and its callees in program order, with the locks held at each
// access; at most facts.MaxAccesses accesses and facts.MaxSyncs
// operations.
func (s *summarizer) effectsOf(fn *ssa.Function) []effect {
	if effs, ok := s.done[fn]; ok {
		return effs // done, or in progress: a recursive call adds nothing
	}
	s.done[fn] = nil
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
		e.locks = e.locks.Rooted()
		k := fmt.Sprint(syncs, e.key, e.write, e.whole, e.atomic, keys(e.locks))
		if !seen[k] {
			seen[k] = true
			accesses++
			out = append(out, e)
		}
	}
	var defers []*ssa.Defer
	for _, b := range loops.ReversePostorder(fn) {
		for _, instr := range b.Instrs {
			held := s.ls.Before(instr)
			own := func(v ssa.Value, write, whole, atomic bool) {
				add(effect{key: lockset.Key(v), pos: instr.Pos(), write: write, whole: whole, atomic: atomic, locks: held})
			}
			sync := func(k facts.SyncKind, v ssa.Value) {
				add(effect{sync: k, key: lockset.Key(v), pos: instr.Pos()})
			}
			switch instr := instr.(type) {
			case *ssa.Store:
				add(effect{key: lockset.Key(instr.Addr), pos: storePos(instr), write: true, locks: held})
			case *ssa.UnOp:
				switch instr.Op {
				case token.MUL:
					if !dataflow.RangeUnevaluated(instr) {
						own(instr.X, false, false, false)
					}
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
				s.callEffects(instr, held, own, sync, add)
			case *ssa.Defer:
				defers = append(defers, instr)
			case *ssa.RunDefers:
				for i := len(defers) - 1; i >= 0; i-- {
					s.callEffects(defers[i], held, own, sync, add)
				}
			}
		}
	}
	s.done[fn] = out
	return out
}

// waitGroupKinds are the effects of the methods of sync.WaitGroup.
var waitGroupKinds = map[syncapi.WaitGroupOp]facts.SyncKind{syncapi.WaitGroupAdd: facts.SyncAdd, syncapi.WaitGroupDone: facts.SyncDone, syncapi.WaitGroupWait: facts.SyncWait}

// condKinds are the effects of the methods of sync.Cond.
var condKinds = map[syncapi.CondOp]facts.SyncKind{syncapi.CondWait: facts.SyncCondWait, syncapi.CondSignal: facts.SyncCondSignal, syncapi.CondBroadcast: facts.SyncCondSignal}

// callEffects adds the effects of a call made holding held: those of a
// builtin, a sync/atomic function or a WaitGroup method, and those of a
// callee, renamed.
func (s *summarizer) callEffects(call ssa.CallInstruction, held lockset.Set, own func(v ssa.Value, write, whole, atomic bool), sync func(facts.SyncKind, ssa.Value), add func(effect)) {
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
		if once, f, ok := syncapi.OnceDo(c); ok {
			s.onceEffects(call, once, f, held, sync, add)
			return
		}
		if fn.Pkg != nil && syncapi.Internal(fn.Pkg.Pkg.Path()) {
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
	if eff, bind, ok := s.imported(c); ok {
		for _, e := range eff.effects() {
			rename(e, bind)
		}
		return
	}
	if callee, bind := lockset.Callee(c); callee != nil && len(callee.Blocks) > 0 {
		for _, e := range s.effectsOf(callee) {
			rename(e, bind)
		}
	}
}

// onceEffects adds the effects of once.Do(f): f's accesses, holding the
// Once as a lock (f runs once), then the return of Do, which every call
// reaches after f's end.
func (s *summarizer) onceEffects(call ssa.CallInstruction, once, f ssa.Value, held lockset.Set, sync func(facts.SyncKind, ssa.Value), add func(effect)) {
	callee, bind := lockset.Callee(&ssa.CallCommon{Value: f})
	if callee != nil && len(callee.Blocks) > 0 {
		inside := held.With(lockset.Held{Key: lockset.Key(once), Once: true})
		for _, e := range s.effectsOf(callee) {
			add(renamed(e, bind, inside, call))
		}
	}
	sync(facts.SyncOnceAfter, once)
}

// renamed returns a callee's effect e at call: its keys in the caller's
// names (bind), an access holding the caller's locks held too, and the
// call's position where the callee had none.
func renamed(e effect, bind func(facts.Key) facts.Key, held lockset.Set, call ssa.CallInstruction) effect {
	e.key = bind(e.key)
	if e.sync == 0 {
		var locks lockset.Set
		for _, h := range e.locks {
			h.Key = bind(h.Key)
			locks = locks.With(h)
		}
		for _, h := range held {
			locks = locks.With(h)
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

// keys renders a lockset for comparing effects.
func keys(s lockset.Set) []string {
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

// imported returns the effect of the function of a direct import that
// call statically calls, and the renaming of its keys into the caller's.
func (s *summarizer) imported(call *ssa.CallCommon) (importedEffects, func(facts.Key) facts.Key, bool) {
	fn, ok := buildir.ImportedCallee(call)
	if !ok {
		return importedEffects{}, nil, false
	}
	eff, ok := s.byName[fn.String()]
	if !ok {
		return importedEffects{}, nil, false
	}
	return eff, lockset.Binder(call), true
}

// list returns what Imported gives for e's function: its effects (see
// effects) as Ops, made directly.
func (e importedEffects) list() []Op {
	out := make([]Op, 0, len(e.fn.Accesses)+len(e.fn.Syncs))
	e.inOrder(func(i int, a facts.MemAccess) {
		out = append(out, Op{
			Index: i, Key: e.keys.key(a.Key), At: e.set.Str(a.Pos),
			Write: a.Write, Whole: a.Whole, Atomic: a.Atomic, Locks: e.held(a.Locks),
		})
	}, func(op facts.SyncOp) {
		out = append(out, Op{Sync: op.Kind, Key: e.keys.key(op.Key), At: e.set.Str(op.Pos)})
	})
	return out
}

// effects returns the accesses and operations of e in program order.
func (e importedEffects) effects() []effect {
	var out []effect
	e.inOrder(func(_ int, a facts.MemAccess) {
		out = append(out, effect{
			key: e.keys.key(a.Key), at: e.set.Str(a.Pos),
			write: a.Write, whole: a.Whole, atomic: a.Atomic, locks: e.held(a.Locks),
		})
	}, func(op facts.SyncOp) {
		out = append(out, effect{sync: op.Kind, key: e.keys.key(op.Key), at: e.set.Str(op.Pos)})
	})
	return out
}

// inOrder calls access for each access of e's function (i its index)
// and sync for each synchronization operation, in program order: an
// operation comes before the access its After names.
func (e importedEffects) inOrder(access func(i int, a facts.MemAccess), sync func(op facts.SyncOp)) {
	syncs := e.fn.Syncs
	for i, a := range e.fn.Accesses {
		for len(syncs) > 0 && syncs[0].After <= uint32(i) {
			sync(syncs[0])
			syncs = syncs[1:]
		}
		access(i, a)
	}
	for _, op := range syncs {
		sync(op)
	}
}

func (e importedEffects) held(locks []facts.HeldLock) lockset.Set {
	var s lockset.Set
	for _, h := range locks {
		s = s.With(lockset.Held{Key: e.keys.key(h.Key), Read: h.Read, Once: h.Once})
	}
	return s
}
