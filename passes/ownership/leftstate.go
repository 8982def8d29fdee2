package ownership

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/runflag"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// A field that leaves its first value for good, under a mutex (rule
// state-left):
//
//	func (s *S) Add(x T) {
//		s.mu.Lock()
//		if s.state == notRunning { // before Serve: filled directly
//			s.items = append(s.items, x)
//			s.mu.Unlock()
//			return
//		}
//		s.mu.Unlock()
//		s.control <- x // after: through the loop
//	}
//
//	func (s *S) Serve() {
//		s.mu.Lock()
//		s.state = running
//		s.mu.Unlock()
//		for _, x := range s.items { ... }
//	}
//
// Every store of state holds mu, each stores a constant, and none (but
// the constructor's, into the object it makes) stores notRunning: once a
// critical section of mu moved it away, every later one reads another
// value. A section that read notRunning came before the one that stored
// running, so what it did holding mu happens before what Serve does
// after its store. From nil, a store of a value never nil leaves it the
// same way: a lazy initialization under the mutex. The mutex may be held
// by every caller of the function that tests and stores, rather than by
// the function itself (an init "called with the mutex held", unexported
// and never taken as a value, two calls up at most: see enteredHeld).

// stateLeft reports whether a runs, holding a mutex, only where a field
// read under that mutex holds a value that no store of the field gives
// back once it is gone, and b runs after its goroutine went through a
// section of that mutex that left the field away from it (see
// leftBefore): a's critical section came before that one.
func (q *Query) stateLeft(a, b Exec) bool {
	if a.T == b.T {
		return false
	}
	instr := a.Acc.Instr
	at := q.heldAt(instr)
	for cond, value := range runflag.Conditions(instr) {
		load, k, ok := guardValue(cond, value)
		if !ok {
			continue
		}
		field := runflag.Field(load.X)
		if field == nil {
			continue
		}
		own := q.locks.Before(load)
		for _, h := range q.heldAt(load) {
			if h.Read {
				continue
			}
			if _, isOwn := own.Find(h.Key); isOwn {
				if x, ok := at.Find(h.Key); !ok || x.Read || q.unlockedSince(h, load, instr) {
					continue
				}
			} else if !holdsField(at, h) {
				continue // entered held: the function releases no lock
			}
			if q.leftFor(field, k, h) && q.leftBefore(b, field, k, h) {
				return true
			}
		}
	}
	return false
}

// guardValue returns the load of a field that cond tests and the constant
// the field holds where cond has value: "s.state == c" true or "s.state
// != c" false (either side), or a bool field's own load.
func guardValue(cond ssa.Value, value bool) (*ssa.UnOp, constant.Value, bool) {
	if load, ok := structFieldLoad(cond); ok && load.Type().Underlying() == types.Typ[types.Bool] {
		return load, constant.MakeBool(value), true
	}
	bin, ok := cond.(*ssa.BinOp)
	if !ok || !(bin.Op == token.EQL && value || bin.Op == token.NEQ && !value) {
		return nil, nil, false
	}
	x, y := bin.X, bin.Y
	if _, ok := x.(*ssa.Const); ok {
		x, y = y, x
	}
	load, ok := structFieldLoad(x)
	k, isConst := y.(*ssa.Const)
	if !ok || !isConst {
		return nil, nil, false
	}
	if k.Value == nil {
		if !k.IsNil() {
			return nil, nil, false
		}
		return load, nilValue, true
	}
	return load, k.Value, true
}

// nilValue stands for the constant nil (of a pointer, map, channel,
// slice, function or interface field), which go/constant has no value
// for.
var nilValue = constant.MakeUnknown()

// leaves reports whether a store of v into a field whose first value is
// k takes it away from k: a constant other than k, or, for nil, a value
// that is never nil (what make, new or a composite literal's address
// gives, a function, a context and cancel function that package context
// makes).
func leaves(v ssa.Value, k constant.Value) bool {
	if c, ok := v.(*ssa.Const); ok {
		if c.Value == nil {
			return false // nil, or a struct's zero value
		}
		return k == nilValue || !containsValue([]constant.Value{k}, c.Value)
	}
	if k != nilValue {
		return false
	}
	switch v := v.(type) {
	case *ssa.MakeChan, *ssa.MakeMap, *ssa.MakeSlice, *ssa.MakeClosure, *ssa.Function:
		return true
	case *ssa.Alloc:
		return v.Heap
	case *ssa.Extract:
		call, ok := v.Tuple.(*ssa.Call)
		return ok && contextMaker(call)
	case *ssa.Call:
		return contextMaker(v)
	}
	return false
}

// contextMaker reports whether call is one of the functions of package
// context that return a context never nil, and a cancel function never
// nil where they return one (context.WithCancel(parent),
// context.Background()).
func contextMaker(call *ssa.Call) bool {
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "context" || callee.Signature.Recv() != nil {
		return false
	}
	switch callee.Name() {
	case "Background", "TODO", "WithCancel", "WithCancelCause", "WithDeadline", "WithDeadlineCause",
		"WithTimeout", "WithTimeoutCause", "WithValue", "WithoutCancel":
		return true
	}
	return false
}

// structFieldLoad returns v as a load of a struct field (*&x.f).
func structFieldLoad(v ssa.Value) (*ssa.UnOp, bool) {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, false
	}
	_, ok = load.X.(*ssa.FieldAddr)
	return load, ok
}

// unlockedSince reports whether the mutex h may be unlocked after from
// and before to, in their function: another critical section.
func (q *Query) unlockedSince(h lockset.Held, from, to ssa.Instruction) bool {
	fa, ok := h.Value.(*ssa.FieldAddr)
	if !ok || !h.Path.IsEmpty() || fa.Parent() != to.Parent() {
		return true // not a field of a value of the function: not known
	}
	return unlockedBetween(from, to, fa.X, fa.Field)
}

// leftFor reports whether every store into field, but those into an
// object just made, stores a constant other than k, holding h.
func (q *Query) leftFor(field *types.Var, k constant.Value, h lockset.Held) bool {
	stores := q.fieldStores(field)
	if len(stores) == 0 {
		return false
	}
	for _, st := range stores {
		if !leaves(st.Val, k) || !holdsField(q.heldAt(st), h) {
			return false
		}
	}
	return true
}

// fieldStores returns the stores into field in the package's functions,
// but those into an object just made.
func (q *Query) fieldStores(field *types.Var) []*ssa.Store {
	if s, ok := q.allFieldStores[field]; ok {
		return s
	}
	var out []*ssa.Store
	for _, fn := range q.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok && runflag.Field(st.Addr) == field && !runflag.OfNew(st.Addr) {
					out = append(out, st)
				}
			}
		}
	}
	if q.allFieldStores == nil {
		q.allFieldStores = make(map[*types.Var][]*ssa.Store)
	}
	q.allFieldStores[field] = out
	return out
}

// constStores returns the stores into field in the package's functions,
// but those into an object just made (fieldStores); false when one
// stores a value that is not a constant.
func (q *Query) constStores(field *types.Var) ([]*ssa.Store, bool) {
	stores := q.fieldStores(field)
	for _, st := range stores {
		if k, ok := st.Val.(*ssa.Const); !ok || k.Value == nil {
			return nil, false
		}
	}
	return stores, true
}

// leftBefore reports whether b's goroutine, before b, went through a
// critical section of h's mutex at whose end field no longer held k:
// it stored a value that leaves k, or found the field holding another,
// on every path to b's access (or to a call on its chain), directly or
// in a function it called (a lazy initialization, t.init(), that makes
// the field's channel if it is nil). Once a section saw the field away
// from k, it stays away.
func (q *Query) leftBefore(b Exec, field *types.Var, k constant.Value, h lockset.Held) bool {
	lk := leftKey{field, k.ExactString(), h.Key}
	for _, at := range callChain(b) {
		if q.leftAt(at, lk, field, k, h) {
			return true
		}
	}
	return false
}

// leftKey is a question of leftAt: a field, the value it leaves, and
// the mutex that guards it.
type leftKey struct {
	field *types.Var
	value string
	mu    facts.Key
}

// leftAt reports whether the field is away from k on every path to
// instr in its function (see leftStates).
func (q *Query) leftAt(instr ssa.Instruction, lk leftKey, field *types.Var, k constant.Value, h lockset.Held) bool {
	in := q.leftStates(instr.Parent(), lk, field, k, h)
	return in != nil && q.leftWithin(in, instr, lk, field, k, h)
}

// leftWithin reports whether the field is away from k at instr, given
// in, the states of its function's blocks (leftStates).
func (q *Query) leftWithin(in []bool, instr ssa.Instruction, lk leftKey, field *types.Var, k constant.Value, h lockset.Held) bool {
	left := in[instr.Block().Index]
	for _, x := range instr.Block().Instrs {
		if x == instr {
			return left
		}
		left = left || q.leavesAt(x, lk, field, k, h)
	}
	return false
}

// leftStates returns, by block of fn, whether the field is away from k
// on every path to the block's start: a must-analysis whose facts are
// made by stores that leave k and calls of functions that return only
// with the field away from it (leavesAt), and by the branch of a test,
// holding the mutex, that finds it away (s.dead != nil).
func (q *Query) leftStates(fn *ssa.Function, lk leftKey, field *types.Var, k constant.Value, h lockset.Held) []bool {
	if len(fn.Blocks) == 0 {
		return nil
	}
	n := len(fn.Blocks)
	in, out := make([]bool, n), make([]bool, n)
	for i := 1; i < n; i++ {
		in[i], out[i] = true, true // the greatest fixpoint: every block but the entry
	}
	edge := func(p, b *ssa.BasicBlock) bool {
		if out[p.Index] {
			return true
		}
		iff, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
		if !ok || len(p.Succs) != 2 || p.Succs[0] == p.Succs[1] {
			return false
		}
		value := b == p.Succs[0]
		load, v, ok := excludedValue(iff.Cond, value)
		return ok && runflag.Field(load.X) == field && containsValue([]constant.Value{v}, k) && holdsField(q.heldAt(load), h)
	}
	for changed := true; changed; {
		changed = false
		for _, b := range fn.Blocks {
			if b.Index > 0 && len(b.Preds) > 0 {
				all := true
				for _, p := range b.Preds {
					all = all && edge(p, b)
				}
				if all != in[b.Index] {
					in[b.Index], changed = all, true
				}
			}
			o := in[b.Index]
			for _, x := range b.Instrs {
				o = o || q.leavesAt(x, lk, field, k, h)
			}
			if o != out[b.Index] {
				out[b.Index], changed = o, true
			}
		}
	}
	return in
}

// leavesAt reports whether instr takes the field away from k holding the
// mutex: a store of a value that leaves k, or a call of a function that
// returns only with the field away from it.
func (q *Query) leavesAt(instr ssa.Instruction, lk leftKey, field *types.Var, k constant.Value, h lockset.Held) bool {
	switch x := instr.(type) {
	case *ssa.Store:
		return runflag.Field(x.Addr) == field && leaves(x.Val, k) && holdsField(q.heldAt(x), h)
	case *ssa.Call:
		callee := x.Call.StaticCallee()
		return callee != nil && q.ensuresLeft(callee, lk, field, k, h)
	}
	return false
}

// ensuresLeft reports whether fn returns only with the field away from
// k (see leftStates), found once per function and question.
func (q *Query) ensuresLeft(fn *ssa.Function, lk leftKey, field *types.Var, k constant.Value, h lockset.Held) bool {
	key := ensureKey{fn, lk}
	if v, ok := q.ensured[key]; ok {
		return v
	}
	if q.ensured == nil {
		q.ensured = make(map[ensureKey]bool)
	}
	q.ensured[key] = false // a recursive call ensures nothing
	v := false
	if in := q.leftStates(fn, lk, field, k, h); in != nil {
		v = true
		returns := 0
		for _, b := range fn.Blocks {
			ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
			if !ok {
				continue
			}
			returns++
			v = v && q.leftWithin(in, ret, lk, field, k, h)
		}
		v = v && returns > 0
	}
	q.ensured[key] = v
	return v
}

// ensureKey is a question of ensuresLeft.
type ensureKey struct {
	fn *ssa.Function
	lk leftKey
}

// holdsField reports whether at holds, not for reading only, a mutex at
// the field of h's, the field of a struct of one type: the receiver's
// mutex, whether the function reaches the receiver as a parameter or as
// a variable its literal captures (the keys differ).
func holdsField(at lockset.Set, h lockset.Held) bool {
	t, f, ok := mutexField(h)
	if !ok {
		return runflag.HoldsOneOf(at, lockset.Set{h})
	}
	for _, x := range at {
		if u, g, ok := mutexField(x); ok && !x.Read && !h.Read && g == f && types.Identical(u, t) {
			return true
		}
	}
	return false
}

// heldAt returns the locks held at instr: its function's own, and the
// field mutexes the function is entered with (see enteredHeld).
func (q *Query) heldAt(instr ssa.Instruction) lockset.Set { return q.heldUpTo(instr, 2) }

// heldUpTo is heldAt with the callers' locks looked for depth calls up.
func (q *Query) heldUpTo(instr ssa.Instruction, depth int) lockset.Set {
	at := q.locks.Before(instr)
	in := q.enteredHeld(instr.Parent(), depth)
	if len(in) == 0 {
		return at
	}
	out := slices.Clone(at)
	for _, h := range in {
		if !holdsField(out, h) {
			out = append(out, h)
		}
	}
	return out
}

// enteredHeld returns the mutexes, fields of a struct, that every call
// of fn holds, depth calls up at most, where fn releases no lock and no
// importer can call it (unexported, and never taken as a value): a
// helper its callers call holding the mutex ("init initializes the
// contexts. It must be called with the mutex held"). They are named in
// the callers' terms; holdsField matches a field mutex by its struct
// type and field.
func (q *Query) enteredHeld(fn *ssa.Function, depth int) lockset.Set {
	if depth == 0 || fn.Object() == nil || fn.Object().Exported() || q.takenAsValue(fn) {
		return nil
	}
	if in, ok := q.entered[fn]; ok {
		return in
	}
	if q.entered == nil {
		q.entered = make(map[*ssa.Function]lockset.Set)
	}
	q.entered[fn] = nil // a recursive call holds nothing more
	if _, rel := q.locks.Effect(fn); len(rel) > 0 {
		return nil
	}
	var common lockset.Set
	for i, site := range q.fresh.callsOf(fn) {
		if _, ok := site.(*ssa.Call); !ok {
			return nil // a go statement's goroutine holds nothing; a deferred call runs at the return
		}
		at := q.heldUpTo(site, depth-1)
		if i == 0 {
			for _, h := range at {
				if _, _, ok := mutexField(h); ok {
					common = append(common, h)
				}
			}
		} else {
			common = slices.DeleteFunc(common, func(h lockset.Held) bool { return !holdsField(at, h) })
		}
		if len(common) == 0 {
			return nil
		}
	}
	q.entered[fn] = common
	return common
}

// mutexField returns the struct type and the field of the mutex h, when
// the Lock's operand is the address of a field of a struct.
func mutexField(h lockset.Held) (types.Type, int, bool) {
	fa, ok := h.Value.(*ssa.FieldAddr)
	if !ok || !h.Path.IsEmpty() {
		return nil, 0, false
	}
	return fa.X.Type(), fa.Field, true
}

// A state claimed for the run of a function (rule claimed-state):
//
//	func (s *Server) Serve() error {
//		s.mu.Lock()
//		if s.state == serving {
//			s.mu.Unlock()
//			return errServing
//		}
//		s.state = serving
//		s.mu.Unlock()
//		defer func() { s.mu.Lock(); s.state = stopped; s.mu.Unlock() }()
//		... // the claim: no other Serve runs here
//	}
//
// Holding the mutex, the function finds the field outside a set of
// values (here serving) and stores one of them: a claim. Every store of
// the field holds the mutex and writes a constant; those that take it
// out of the set are all deferred by a function that claims it, and run
// as it returns. While a goroutine holds a claim the field stays in the
// set, and another goroutine's claim, which must find it outside, waits
// for the first one's release: two goroutines' accesses made holding
// claims on the field never run at once, as if a mutex guarded them.

// claimKey names a claim: the state field and the field of the mutex
// that guards it.
type claimKey struct {
	field   *types.Var
	muType  types.Type
	muField int
}

// claimed reports whether a and b, in two goroutines, each run holding
// a claim on one state field (see claimOf).
func (q *Query) claimed(a, b Exec) bool {
	if a.T == b.T {
		return false
	}
	ka, ok := q.claimOf(a)
	if !ok {
		return false
	}
	kb, ok := q.claimOf(b)
	return ok && ka.field == kb.field && ka.muField == kb.muField && types.Identical(ka.muType, kb.muType)
}

// claimExec is an event of a trace at one access: what claimOf's answer
// depends on.
type claimExec struct {
	t     *shb.Trace
	x     int32
	instr ssa.Instruction
}

// claimFound is claimOf's answer.
type claimFound struct {
	key claimKey
	ok  bool
}

// claimOf returns the claim e runs in: a store of a claim, in the
// function of e's access or of a call on its chain, that dominates it.
// It is asked for each pair an event is in, so the answer is kept: the
// chain of calls of an event deep in a large package's trace took a
// third of its race analysis, asked again pair after pair (fasthttp).
func (q *Query) claimOf(e Exec) (claimKey, bool) {
	ck := claimExec{e.T, e.X, e.Acc.Instr}
	if f, ok := q.claimOfs[ck]; ok {
		return f.key, f.ok
	}
	var found claimFound
search:
	for _, at := range callChain(e) {
		for _, st := range q.stateStoresIn(at.Parent()) {
			if st == at || !pointer.Dominates(st, at) {
				continue
			}
			if k, ok := q.claimAt(st); ok {
				found = claimFound{k, true}
				break search
			}
		}
	}
	if q.claimOfs == nil {
		q.claimOfs = make(map[claimExec]claimFound)
	}
	q.claimOfs[ck] = found
	return found.key, found.ok
}

// callChain returns e's access and the calls on its chain, each the
// instruction of its function where e runs.
func callChain(e Exec) []ssa.Instruction {
	chain := []ssa.Instruction{e.Acc.Instr}
	if frames, ok := e.T.Frames(e.X); ok {
		for _, f := range frames {
			if f.Site != nil {
				chain = append(chain, f.Site)
			}
		}
	}
	return chain
}

// stateStoresIn returns the stores of constants into struct fields in
// fn, but those into an object just made.
func (q *Query) stateStoresIn(fn *ssa.Function) []*ssa.Store {
	if s, ok := q.fnStateStores[fn]; ok {
		return s
	}
	var out []*ssa.Store
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || runflag.Field(st.Addr) == nil || runflag.OfNew(st.Addr) {
				continue
			}
			if k, ok := st.Val.(*ssa.Const); ok && k.Value != nil {
				out = append(out, st)
			}
		}
	}
	if q.fnStateStores == nil {
		q.fnStateStores = make(map[*ssa.Function][]*ssa.Store)
	}
	q.fnStateStores[fn] = out
	return out
}

// claimAt reports whether st is the store of a claim: holding a mutex,
// its function tested the field (under that mutex, in the same critical
// section) and goes on to st only where the field holds none of a set
// of values, st stores one of them, every store of the field holds the
// mutex and writes a constant, and those that write a value outside the
// set are deferred by a function that makes a claim on the field.
func (q *Query) claimAt(st *ssa.Store) (claimKey, bool) {
	if c, ok := q.claims[st]; ok {
		return c.key, c.ok
	}
	k, ok := q.findClaimAt(st)
	if q.claims == nil {
		q.claims = make(map[*ssa.Store]claimVerdict)
	}
	q.claims[st] = claimVerdict{k, ok}
	return k, ok
}

// claimVerdict is what claimAt finds for a store.
type claimVerdict struct {
	key claimKey
	ok  bool
}

func (q *Query) findClaimAt(st *ssa.Store) (claimKey, bool) {
	field := runflag.Field(st.Addr)
	stored := st.Val.(*ssa.Const).Value
	for _, h := range q.locks.Before(st) {
		t, f, ok := mutexField(h)
		if !ok || h.Read {
			continue
		}
		var set []constant.Value
		for cond, value := range runflag.Conditions(st) {
			load, k, ok := excludedValue(cond, value)
			if !ok || runflag.Field(load.X) != field || !holdsField(q.locks.Before(load), h) || q.unlockedSince(h, load, st) {
				continue
			}
			set = append(set, k)
		}
		if !containsValue(set, stored) {
			continue
		}
		if q.claimable(field, set, h) {
			return claimKey{field, t, f}, true
		}
	}
	return claimKey{}, false
}

// claimable reports whether every store into field holds the mutex at
// h's field and writes a constant, and each that writes a value outside
// set is in a function value that a function deferring it stores into
// the set too (its claim's release).
func (q *Query) claimable(field *types.Var, set []constant.Value, h lockset.Held) bool {
	stores, ok := q.constStores(field)
	if !ok {
		return false
	}
	for _, s := range stores {
		if !holdsField(q.locks.Before(s), h) {
			return false
		}
		if containsValue(set, s.Val.(*ssa.Const).Value) {
			continue
		}
		if !q.deferredByClaimer(s.Parent(), field, set) {
			return false
		}
	}
	return true
}

// deferredByClaimer reports whether fn, a function literal or a
// function of the package, is only ever deferred, each time after a
// store into field of a value of set (its claim) that dominates the
// defer: its store is that claim's release, at the end of the claim. A
// release deferred before the claim would run on the path that failed
// to claim too, and end another goroutine's claim.
func (q *Query) deferredByClaimer(fn *ssa.Function, field *types.Var, set []constant.Value) bool {
	funcs := q.funcs
	if fn.Parent() != nil {
		funcs = []*ssa.Function{fn.Parent()}
	}
	deferred := false
	for _, f := range funcs {
		var claims []*ssa.Store
		var defers []*ssa.Defer
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok {
					if k, ok := st.Val.(*ssa.Const); ok && k.Value != nil && runflag.Field(st.Addr) == field && containsValue(set, k.Value) {
						claims = append(claims, st)
					}
				}
				var ops [8]*ssa.Value
				for _, op := range instr.Operands(ops[:0]) {
					if *op != fn {
						continue
					}
					// fn itself, or the closure that makes it: a
					// deferred call and nothing else.
					user, called := instr, *op
					if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
						refs := mc.Referrers()
						if refs == nil || len(*refs) != 1 {
							return false
						}
						user, called = (*refs)[0], mc
					}
					d, ok := user.(*ssa.Defer)
					if !ok || d.Call.IsInvoke() || d.Call.Value != called {
						return false
					}
					defers = append(defers, d)
				}
			}
		}
		for _, d := range defers {
			if !slices.ContainsFunc(claims, func(st *ssa.Store) bool { return pointer.Dominates(st, d) }) {
				return false
			}
		}
		deferred = deferred || len(defers) > 0
	}
	return deferred
}

// excludedValue returns the load of a field that cond tests and a
// constant the field does not hold where cond has value: "s.state ==
// c" false or "s.state != c" true (either side), or a bool field's
// load, which does not hold !value.
func excludedValue(cond ssa.Value, value bool) (*ssa.UnOp, constant.Value, bool) {
	return guardValue(cond, !value)
}

// containsValue reports whether set holds v.
func containsValue(set []constant.Value, v constant.Value) bool {
	for _, k := range set {
		if k == nilValue || v == nilValue {
			if k == v {
				return true
			}
			continue
		}
		if k.Kind() == v.Kind() && constant.Compare(k, token.EQL, v) {
			return true
		}
	}
	return false
}
