package pointer

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/lockset"
	"golang.org/x/tools/go/ssa"
)

// Origin is a goroutine in the abstract: an entry function started at a
// site, O2's origin. A site that may start several goroutines (in a loop,
// a handler) gives two origins, copies 0 and 1, so that the analysis sees
// the goroutine run concurrently with itself.
type Origin struct {
	ID     int
	Entry  *ssa.Function
	Kind   facts.SpawnKind // 0 for a root
	Site   token.Pos       // the spawn site; the entry's position for a root
	Parent *Origin         // nil for a root
	Copy   int             // 0, or 1 for the second copy of a multi site
	Multi  bool
	Root   string // for a root: its kind ("main", "test", ...)
	// Programs are, for a root, the programs it runs in (see Programs);
	// 0 for others, which run in their ancestor's.
	Programs Programs
	Flags    facts.SiteFlags
	// Sites are the call sites of the factory whose context spawned the
	// goroutine (see Context), innermost first; nil outside one. Two
	// calls of a constructor that starts a goroutine (go l.runLoop() in
	// newLessor) start two origins, each running on its own object.
	Sites [2]ssa.CallInstruction
	// recv is the object location the goroutine's receiver points to,
	// for a go statement split by the object it runs on (see splitBy), or
	// noReceiver.
	recv nodeID
	Recv *Location // the same, for the other passes; nil for noReceiver
	// overflow is set on the origins shared past the budget (see
	// overflowOrigin).
	overflow bool
}

func (o *Origin) String() string {
	if o.Kind == 0 {
		return fmt.Sprintf("#%d %s %s", o.ID, o.Root, facts.ShortName(o.Entry.String()))
	}
	s := fmt.Sprintf("#%d %s %s", o.ID, o.Kind, facts.ShortName(o.Entry.String()))
	if o.Multi {
		s += fmt.Sprintf(" (copy %d)", o.Copy)
	}
	return s
}

// Twin reports whether o and p are one goroutine of the program text
// told apart only by the factory calls that started it or one of its
// ancestors (see Sites), or by the object it runs on (see Recv): the
// same site, entry and copy all the way up.
// Their objects are told apart only where a factory's context makes
// them; what the functions they call allocate is one object for both
// (the items each lessor's runLoop updates), so the race analysis takes
// twins for one goroutine, as it took them before they were split.
func (o *Origin) Twin(p *Origin) bool {
	split := false
	for o != p {
		if o == nil || p == nil || o.Site != p.Site || o.Entry != p.Entry || o.Copy != p.Copy || o.Kind != p.Kind || o.Root != p.Root {
			return false
		}
		if o.Sites != p.Sites && !sameCode(o.Sites, p.Sites) {
			return false
		}
		split = split || o.Sites != p.Sites || o.recv != p.recv
		o, p = o.Parent, p.Parent
	}
	return split
}

// sameCode reports whether two factory contexts' call sites start the
// same code: each pair of calls passes the same function, or closures
// of the same function literal, for every parameter of function type. A
// helper that starts the function it is given (r.goFunc(r.runLeader),
// r.goFunc(func() { r.replicate(s) })) starts different goroutines at
// different calls, though its go statement is one: those are no twins.
func sameCode(a, b [2]ssa.CallInstruction) bool {
	for i := range a {
		x, y := a[i], b[i]
		if x == y || x == nil || y == nil {
			continue
		}
		ax, ay := x.Common().Args, y.Common().Args
		if len(ax) != len(ay) {
			return false
		}
		for j := range ax {
			if _, ok := ax[j].Type().Underlying().(*types.Signature); !ok {
				continue
			}
			if f := funcOf(ax[j]); f == nil || f != funcOf(ay[j]) {
				return false
			}
		}
	}
	return true
}

// funcOf returns the function v calls: a function itself, or the
// function of a closure or of a bound method; nil when v is not one.
func funcOf(v ssa.Value) *ssa.Function {
	switch v := v.(type) {
	case *ssa.Function:
		return v
	case *ssa.MakeClosure:
		return v.Fn.(*ssa.Function)
	}
	return nil
}

// Overflow reports whether o stands for every goroutine found after the
// analysis spent its budget (see overflowOrigin): started anywhere,
// running anything, its pairs are none a reader could check, and the
// race analysis leaves them out.
func (o *Origin) Overflow() bool { return o.overflow }

// MethodsRoot is the Root of the origins that stand for the callers of a
// library's concurrent methods (library mode): two copies, each running
// every exported method of the package's exported types that carry a
// mutex or an atomic value.
const MethodsRoot = "concurrent methods"

// EntriesRoot is the Root of the origin that runs a library's entry
// points (its exported functions and methods) one after the other, each
// a call from some importer's goroutine: what one call does, with the
// goroutines it starts and joins, is checked like a test.
const EntriesRoot = "entry points"

// Programs is a set of the programs a package's code runs in. Go runs a
// package's code in separate processes: the program built from main
// (go build), the test binary (go test, which never runs main), and,
// for a package other than main, the programs of its importers, which
// call its exported API (the library's callers). Goroutines of two
// different programs never run at once, whatever memory they share in
// the source: a test's goroutine and main's read never meet.
type Programs uint8

// The programs of a package.
const (
	ProgramMain    Programs = 1 << iota // the binary go build makes of package main
	ProgramTest                         // the test binary: init, then the tests
	ProgramLibrary                      // an importer's program calling the exported API
)

// String names the programs, for a message: "main's program", "the
// test binary", "the library's callers", joined by "and".
func (p Programs) String() string {
	var names []string
	for i, name := range []string{"main's program", "the test binary", "the library's callers"} {
		if p&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	return strings.Join(names, " and ")
}

// ProgramsOf returns the programs the roots of a kind run in: init in
// every one, main in the binary, the tests in the test binary, the
// library's entry points in its importers' programs.
func ProgramsOf(root string) Programs {
	switch root {
	case "init":
		return ProgramMain | ProgramTest | ProgramLibrary
	case "main":
		return ProgramMain
	case MethodsRoot, EntriesRoot:
		return ProgramLibrary
	case "":
		return 0
	}
	return ProgramTest // "tests", "parallel tests"
}

// InPrograms returns the programs o runs in: its root's. An origin with
// no root (found past the budget, or with no known parent) may run in
// any.
func (o *Origin) InPrograms() Programs {
	if r := o.Ancestor(); r.Kind == 0 && r.Programs != 0 {
		return r.Programs
	}
	return ProgramMain | ProgramTest | ProgramLibrary
}

// SameProgram reports whether o and p may run in one process: a
// goroutine of the test binary never runs beside one of main's.
func (o *Origin) SameProgram(p *Origin) bool { return o.InPrograms()&p.InPrograms() != 0 }

// Ancestor returns the root origin that o descends from: o itself for a
// root.
func (o *Origin) Ancestor() *Origin {
	for o.Parent != nil {
		o = o.Parent
	}
	return o
}

// Describe says, for a message, which goroutine o is: the main or test
// goroutine, or where it was started ("goroutine started at a.go:12, in
// a loop").
func (o *Origin) Describe(fset *token.FileSet) string {
	if o.overflow {
		return "a goroutine past the analysis budget"
	}
	if o.Parent == nil && o.Kind == 0 {
		switch o.Root {
		case "main", "init":
			return "main goroutine"
		case "tests":
			return "test goroutine"
		case EntriesRoot:
			return "caller's goroutine"
		}
		return o.Root
	}
	what, many := "goroutine started", ", in a loop"
	switch o.Kind {
	case facts.SpawnFinalizer:
		what = "finalizer set"
	case facts.SpawnCleanup:
		what, many = "cleanup added", "" // cleanups may run at once
	case facts.SpawnHTTPHandler:
		what, many = "HTTP handler registered", ", one per request"
	case facts.SpawnCallback:
		what = "callback registered"
	case facts.SpawnRunParallel:
		what, many = "b.RunParallel body started", ", on several goroutines"
	}
	s := what + " at ?"
	if p := fset.Position(o.Site); p.IsValid() {
		s = fmt.Sprintf("%s at %s:%d", what, baseName(p.Filename), p.Line)
	}
	if o.Multi {
		s += many
	}
	return s
}

// Context is what a function is analyzed under: the origin that runs it
// (O2's origin sensitivity) and, for factories (functions that return
// what they allocate), up to two call sites, so that two calls of a
// constructor give two objects, and the call that entered the chain of
// factory calls, where it is past those two (see calleeContext).
type Context struct {
	Origin *Origin
	sites  [2]ssa.CallInstruction
	entry  ssa.CallInstruction
}

// CallSites returns the call sites that tell a factory's context apart,
// innermost first; nil where there are none.
func (c *Context) CallSites() [2]ssa.CallInstruction { return c.sites }

type contextKey struct {
	origin *Origin
	sites  [2]ssa.CallInstruction
	entry  ssa.CallInstruction
}

func (a *state) context(origin *Origin, sites [2]ssa.CallInstruction, entry ssa.CallInstruction) *Context {
	if a.ciContext != nil {
		return a.ciContext // the context-insensitive variant: one context
	}
	k := contextKey{origin, sites, entry}
	if c, ok := a.contexts[k]; ok {
		return c
	}
	c := &Context{Origin: origin, sites: sites, entry: entry}
	a.contexts[k] = c
	return c
}

// calleeContext is the context of a call of callee at site from a
// function analyzed under ctx: the same origin, and the call site when
// the callee is a factory, while the analysis is small enough.
//
// A chain of factories longer than two calls (a test's Must(opts)
// calling New(opts) calling newCache(opts), which allocates) keeps,
// beside the last two sites, the call that entered it (rule
// factory-chain): the two innermost calls are the same for every
// caller, and only the outermost tells one caller's object from
// another's, so without it every test's cache would be one cache,
// holding every test's callbacks.
func (a *state) calleeContext(ctx *Context, site ssa.CallInstruction, callee *ssa.Function) *Context {
	if len(a.cgList) < factoryBudget && (a.isFactory(callee) || a.initializes(site, callee)) {
		return a.context(ctx.Origin, [2]ssa.CallInstruction{site, ctx.sites[0]}, chainEntry(ctx))
	}
	return a.context(ctx.Origin, [2]ssa.CallInstruction{}, nil)
}

// chainEntry is the entry of the factory chain that a callee of a
// function analyzed under ctx is analyzed in (see calleeContext): the
// call that entered it, once it has fallen out of the two sites kept;
// nil while it has not.
func chainEntry(ctx *Context) ssa.CallInstruction {
	if ctx.entry != nil {
		return ctx.entry
	}
	return ctx.sites[1]
}

// factoryBudget bounds the number of functions in context beyond which
// factories are no longer told apart by call site: packages full of small
// constructors (math/big) would otherwise analyze them per pair of sites.
const factoryBudget = 20_000

// isFactory reports whether fn is a constructor: a function that returns
// what it allocates, directly or from another factory. Its objects are
// told apart per call site, so that two calls give two objects. A
// setter is analyzed per call site too (see isSetter), though it makes
// nothing.
func (a *state) isFactory(fn *ssa.Function) bool {
	if f, ok := a.factories[fn]; ok {
		return f
	}
	a.factories[fn] = false // a recursive function is not a factory
	f := a.isSetter(fn) || isSpawner(fn) || isWrapper(fn)
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			for _, r := range ret.Results {
				f = f || a.isFresh(r)
			}
		}
	}
	a.factories[fn] = f
	return f
}

// initializes reports whether the call at site is of an initializer
// on an object its caller just made, or on a field of it (t := &Tx{};
// t.init(db), where init stores what it makes into fields of its
// receiver: t.meta = &Meta{}, t.root = newBucket(t)). It is part of
// the making, so it is analyzed per call site as the factory is:
// analyzed once, every Tx made by every caller would get the one Meta,
// a read-only transaction's the same as a writable one's.
func (a *state) initializes(site ssa.CallInstruction, callee *ssa.Function) bool {
	common := site.Common()
	if common.IsInvoke() || callee.Signature.Recv() == nil || len(common.Args) == 0 || !a.isInitializer(callee) {
		return false
	}
	// f := &future{}; f.init() calls init on the deferError f embeds.
	alloc, ok := fieldBase(common.Args[0]).(*ssa.Alloc)
	return ok && alloc.Heap
}

// isInitializer reports whether method fn stores something it makes
// (see isFresh) into a field of its receiver, or of a struct field of
// it.
func (a *state) isInitializer(fn *ssa.Function) bool {
	if f, ok := a.initializers[fn]; ok {
		return f
	}
	a.initializers[fn] = false // recursion
	f := false
	if len(fn.Params) > 0 {
		recv := fn.Params[0]
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok && !f && fieldOf(st.Addr, recv) && a.isFresh(st.Val) {
					f = true
				}
			}
		}
	}
	a.initializers[fn] = f
	return f
}

// fieldOf reports whether addr is the address of a field of *recv, or
// of a field of a struct field of it.
func fieldOf(addr ssa.Value, recv ssa.Value) bool {
	_, ok := addr.(*ssa.FieldAddr)
	return ok && fieldBase(addr) == recv
}

// fieldBase returns the pointer whose fields, or fields of fields, v
// addresses; v itself when it is no field's address.
func fieldBase(v ssa.Value) ssa.Value {
	for {
		fa, ok := v.(*ssa.FieldAddr)
		if !ok {
			return v
		}
		v = fa.X
	}
}

// isSpawner reports whether fn starts, by a go statement of its own, a
// function it is given as a parameter: go f(), or go func() { defer
// wg.Done(); f() }() (raft's goFunc). Analyzed once for all its calls,
// its goroutine would run every function any caller passes, one
// goroutine for the leader loop and the replicators alike; per call
// site, each call starts the function that call passes (see
// sameCode).
func isSpawner(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			g, ok := instr.(*ssa.Go)
			if !ok {
				continue
			}
			if givenFunc(g.Call.Value) {
				return true
			}
			if mc, ok := g.Call.Value.(*ssa.MakeClosure); ok && slices.ContainsFunc(mc.Bindings, givenFunc) {
				return true
			}
		}
	}
	return false
}

// isWrapper reports whether fn wraps a function it is given in an
// object it makes: it stores a parameter of function type into a field
// of an object it allocates (db.transact(&txFunc{run: run}), an adapter
// that gives a function the method an interface asks for). Analyzed
// once for all its calls, every wrapper it makes would hold every
// function any caller passes, and a call of the method would run the
// work of every caller; per call site, the one that call passes.
func isWrapper(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || !givenFunc(st.Val) {
				continue
			}
			if alloc, ok := fieldBase(st.Addr).(*ssa.Alloc); ok && alloc.Heap && st.Addr != ssa.Value(alloc) {
				return true
			}
		}
	}
	return false
}

// givenFunc reports whether v is a parameter of function type of its
// function: the parameter, the variable go/ssa gives it when a closure
// captures it (a closure's binding), or a load of that variable.
func givenFunc(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.Alloc:
		v = storedParam(x)
	case *ssa.UnOp:
		if p, ok := lockset.Spilled(x.X); ok && x.Op == token.MUL {
			v = p
		}
	}
	p, ok := v.(*ssa.Parameter)
	if !ok {
		return false
	}
	_, sig := p.Type().Underlying().(*types.Signature)
	return sig
}

// storedParam returns the parameter that is the one value stored in
// cell, the variable go/ssa makes for a parameter a function literal
// captures; nil if there is none.
func storedParam(cell *ssa.Alloc) ssa.Value {
	var p ssa.Value
	for _, r := range *cell.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == cell {
			if _, ok := st.Val.(*ssa.Parameter); !ok || p != nil {
				return nil
			}
			p = st.Val
		}
	}
	return p
}

// isSetter reports whether fn is a setter: a method that stores one of
// its parameters into a field of its receiver and does little else
// (le.mu.Lock(); defer le.mu.Unlock(); le.cp = cp). Analyzed once for
// all its calls, it would store what every caller passes into every
// receiver any caller has (each test's checkpointer into each test's
// lessor); per call site, into the receiver of that call. An appender
// is a setter too (if err != nil { *errs = append(*errs, err) }), and
// so is a method that calls a setter on its receiver or a field of it
// under the receiver's mutex (SafeMultiError.Append locking s.mu around
// s.errs.Append(err)): the array the append makes is then one per call
// site of the outer method, not one for every MultiError of the package.
func (a *state) isSetter(fn *ssa.Function) bool {
	if fn.Signature.Recv() == nil || len(fn.Params) < 2 || len(fn.Blocks) > 4 {
		return false
	}
	recv := fn.Params[0]
	onRecv := func(v ssa.Value) bool {
		if fa, ok := v.(*ssa.FieldAddr); ok {
			return fa.X == recv
		}
		return v == recv
	}
	stores := false
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Store:
				switch {
				case onRecv(instr.Addr) && isParam(instr.Val, recv):
					stores = true
				case onRecv(instr.Addr) && appendsTo(instr.Val, instr.Addr):
					stores = true
				case isVarargs(instr.Addr) && isParam(instr.Val, recv):
				default:
					return false
				}
			case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.Slice, *ssa.BinOp, *ssa.If,
				*ssa.Return, *ssa.RunDefers, *ssa.DebugRef, *ssa.Jump:
			case *ssa.UnOp:
				if instr.Op == token.ARROW || instr.Op == token.MUL && !onRecv(instr.X) {
					return false // a receive, or a load from elsewhere
				}
			case *ssa.Alloc:
				if instr.Heap && instr.Comment != "varargs" {
					return false
				}
			case ssa.CallInstruction:
				switch {
				case syncOnReceiver(instr.Common(), recv):
				case isBuiltin(instr.Common(), "append"):
				case a.setterOnReceiver(instr, recv, onRecv):
					stores = true
				default:
					return false
				}
			default:
				return false
			}
		}
	}
	return stores
}

// isParam reports whether v is a parameter other than recv.
func isParam(v ssa.Value, recv *ssa.Parameter) bool {
	p, ok := v.(*ssa.Parameter)
	return ok && p != recv
}

// appendsTo reports whether v is append(*addr, ...).
func appendsTo(v ssa.Value, addr ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok || !isBuiltin(&call.Call, "append") || len(call.Call.Args) == 0 {
		return false
	}
	load, ok := call.Call.Args[0].(*ssa.UnOp)
	return ok && load.Op == token.MUL && load.X == addr
}

// isVarargs reports whether addr is an element of the array that holds
// a call's variadic arguments.
func isVarargs(addr ssa.Value) bool {
	ia, ok := addr.(*ssa.IndexAddr)
	if !ok {
		return false
	}
	alloc, ok := ia.X.(*ssa.Alloc)
	return ok && alloc.Comment == "varargs"
}

func isBuiltin(call *ssa.CallCommon, name string) bool {
	b, ok := call.Value.(*ssa.Builtin)
	return ok && b.Name() == name
}

// setterOnReceiver reports whether call is a static call of a setter of
// the package on recv or a field of it, passing on fn's parameters.
func (a *state) setterOnReceiver(call ssa.CallInstruction, recv *ssa.Parameter, onRecv func(ssa.Value) bool) bool {
	if _, ok := call.(*ssa.Call); !ok {
		return false
	}
	common := call.Common()
	callee := common.StaticCallee()
	if callee == nil || callee.Blocks == nil || len(common.Args) == 0 || !onRecv(common.Args[0]) {
		return false
	}
	for _, arg := range common.Args[1:] {
		if !isParam(arg, recv) {
			return false
		}
	}
	return a.isFactory(callee)
}

// syncOnReceiver reports whether call is a method of package sync (a
// Lock or Unlock) on a field of recv.
func syncOnReceiver(call *ssa.CallCommon, recv ssa.Value) bool {
	callee := call.StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "sync" || len(call.Args) == 0 {
		return false
	}
	fa, ok := call.Args[0].(*ssa.FieldAddr)
	return ok && fa.X == recv
}

// isFresh reports whether v is a new allocation, through conversions.
func (a *state) isFresh(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Alloc:
		return v.Heap
	case *ssa.MakeSlice, *ssa.MakeMap, *ssa.MakeChan, *ssa.MakeClosure:
		return true
	case *ssa.MakeInterface:
		return a.isFresh(v.X)
	case *ssa.ChangeType:
		return a.isFresh(v.X)
	case *ssa.UnOp:
		// A variable a function literal captures (go/ssa keeps it in a
		// cell) that holds the one fresh value stored in it: c :=
		// &Cache{}; go func() { c.clean() }(); return c.
		if cell, ok := v.X.(*ssa.Alloc); ok && v.Op == token.MUL {
			if val := storedOnly(cell); val != nil {
				if _, load := val.(*ssa.UnOp); !load {
					return a.isFresh(val)
				}
			}
			// A struct value whose fields hold what was made for it:
			// b := Bucket{tx: tx}; b.nodes = make(...); return b.
			if !cell.Heap && isStruct(cell) {
				return a.filledFresh(cell)
			}
		}
	case *ssa.Call:
		callee := v.Call.StaticCallee()
		switch {
		case callee == nil:
			return false
		case len(callee.Blocks) > 0:
			return a.isFactory(callee)
		}
		return a.importedFactory(callee, v.Type())
	}
	return false
}

// isStruct reports whether local variable cell holds a struct.
func isStruct(cell *ssa.Alloc) bool {
	_, ok := cell.Type().(*types.Pointer).Elem().Underlying().(*types.Struct)
	return ok
}

// filledFresh reports whether a field of the struct variable cell is
// given a value made fresh, and its address goes to nothing but its
// fields' stores and loads and loads of the whole.
func (a *state) filledFresh(cell *ssa.Alloc) bool {
	fresh := false
	for _, r := range *cell.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			for _, u := range *r.Referrers() {
				switch u := u.(type) {
				case *ssa.Store:
					if u.Addr == r && !fresh && a.isFresh(u.Val) {
						fresh = true
					}
				case *ssa.UnOp, *ssa.DebugRef:
				default:
					return false
				}
			}
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.Store, *ssa.DebugRef:
		default:
			return false
		}
	}
	return fresh
}

// storedOnly returns the value of the one store into cell, a local
// variable whose address goes only to loads and closures; nil
// otherwise.
func storedOnly(cell *ssa.Alloc) ssa.Value {
	var val ssa.Value
	for _, r := range *cell.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != cell || val != nil {
				return nil
			}
			val = r.Val
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return nil
			}
		case *ssa.MakeClosure, *ssa.DebugRef:
		default:
			return nil
		}
	}
	return val
}

// importedFactory reports whether fn, a function of another package,
// makes at each call the object it returns, by its summary, when that
// object is one meant to be shared: a struct that carries a mutex
// (http.NewServeMux). A function of this package that returns it is a
// factory: two calls give two objects, and two sets of what it makes
// alongside (the handlers of the Transport that each Handler() serves).
// Other imported results do not make a factory: the contexts they would
// add cost more than the objects they tell apart.
func (a *state) importedFactory(fn *ssa.Function, t types.Type) bool {
	if !carriesMutex(t) {
		return false
	}
	ref, ok := a.summaries.lookup(fn)
	if !ok || ref.fn.Truncated {
		return false
	}
	fresh := false
	for _, e := range ref.fn.Results {
		if e.FromOff != 0 {
			continue
		}
		if e.To < 0 || int(e.To) >= len(ref.fn.Objects) || ref.fn.Objects[e.To].Kind != facts.SumAlloc {
			return false
		}
		fresh = true
	}
	return fresh
}

// carriesMutex reports whether t is a pointer to a struct with a field
// of type sync.Mutex or sync.RWMutex, or an embedded struct with one.
func carriesMutex(t types.Type) bool {
	ptr, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range st.Fields() {
		if named, ok := types.Unalias(f.Type()).(*types.Named); ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "sync" {
			if n := named.Obj().Name(); n == "Mutex" || n == "RWMutex" {
				return true
			}
		}
		if inner, ok := f.Type().Underlying().(*types.Struct); ok && f.Embedded() && carriesMutex(types.NewPointer(inner)) {
			return true
		}
	}
	return false
}

// newOrigin creates an origin for a spawn site reached in parent.
// Origins nested deeper than maxOriginDepth, or a site that is already
// among its own ancestors (a goroutine that restarts itself), reuse the
// ancestor's origin.
func (a *state) newOrigin(parent *Origin, kind facts.SpawnKind, site token.Pos, entry *ssa.Function, copy int, flags facts.SiteFlags, sites [2]ssa.CallInstruction, recv nodeID) *Origin {
	limit := a.opts.MaxOrigins
	if limit <= 0 {
		limit = maxOrigins
	}
	depth := 0
	for p := parent; p != nil; p = p.Parent {
		if p.Site == site && p.Entry == entry && p.Copy == copy && p.Parent != nil && sameCode(p.Sites, sites) {
			return p
		}
		depth++
	}
	if depth > maxOriginDepth {
		parent = parent.Parent // fold the chain: k-origins with k bounded
	}
	k := originKey{parent, site, entry, copy, sites, recv}
	if o, ok := a.originIndex[k]; ok {
		return o // found again past the budget: still its own
	}
	if len(a.nodes) > originBudget || len(a.origins) >= limit {
		return a.overflowOrigin(entry, copy)
	}
	if sites != ([2]ssa.CallInstruction{}) || recv != noReceiver {
		// A constructor called from many places, or a go statement on
		// many objects, would start as many origins, each analyzing
		// again what it reaches: past a few, the rest share one, as they
		// all did before.
		plain := originKey{parent, site, entry, copy, [2]ssa.CallInstruction{}, noReceiver}
		if a.splitSpawns[plain] >= maxSpawnContexts {
			return a.newOrigin(parent, kind, site, entry, copy, flags, [2]ssa.CallInstruction{}, noReceiver)
		}
		a.splitSpawns[plain]++
	}
	o := &Origin{
		ID:     len(a.origins),
		Entry:  entry,
		Kind:   kind,
		Site:   site,
		Parent: parent,
		Copy:   copy,
		Multi:  flags&facts.Multiple != 0,
		Flags:  flags,
		Sites:  sites,
		recv:   recv,
	}
	if recv != noReceiver {
		l := a.location(recv)
		o.Recv = &l
	}
	a.origins = append(a.origins, o)
	a.originIndex[k] = o
	return o
}

// originBudget bounds the size of the analysis (in nodes) beyond which
// new goroutines no longer get origins of their own: each origin analyzes
// again every function it reaches, and a package with hundreds of
// goroutine sites (the tests of crypto/tls) would not finish. etcd's
// rafthttp, whose transports' handlers are told apart by Handler() call
// (see importedFactory), needs 416,000 to give each goroutine its own.
// (It needed 536,000 before imported calls' allocations took no node of
// their own; the budget moved with it, so that the nodes saved did not
// buy more origins, and more memory, in packages past it.)
const originBudget = 440_000

// maxOrigins bounds the origins of a package, for the same reason: every
// origin re-analyzes what it reaches, and objects that flow between
// origins through globals make the points-to sets of all of them grow.
const maxOrigins = 1024

// fewOrigins is the bound of the second attempt at a package that was too
// large with maxOrigins (the tests of crypto/tls).
const fewOrigins = 32

// overflowOrigin returns one of the two origins shared by every
// goroutine found after the budget was spent.
func (a *state) overflowOrigin(entry *ssa.Function, copy int) *Origin {
	a.stats.Overflow = true
	if a.overflow[copy] == nil {
		o := &Origin{ID: len(a.origins), Entry: entry, Kind: facts.SpawnGo, Copy: copy, Multi: true, Root: "", Flags: facts.Multiple, recv: noReceiver, overflow: true}
		a.origins = append(a.origins, o)
		a.overflow[copy] = o
	}
	return a.overflow[copy]
}

// maxOriginDepth bounds the chains of nested origins.
const maxOriginDepth = 3

type originKey struct {
	parent *Origin
	site   token.Pos
	entry  *ssa.Function
	copy   int
	sites  [2]ssa.CallInstruction
	recv   nodeID
}

// maxSpawnContexts bounds the origins that one spawn site starts in the
// contexts of a factory (see Origin.Sites).
const maxSpawnContexts = 64
