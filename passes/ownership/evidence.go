package ownership

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/origo-dev/origo/passes/dataflow"
	"github.com/origo-dev/origo/passes/origins"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// Evidence of sharing. The pointer analysis gives one abstract object
// for all the objects made at one place in one context: two goroutines
// that each work on their own connection, buffer or request may reach
// "the same" object only through that merging. A pair is reported by
// default only where the code shows that the memory is meant to be
// shared by goroutines, or that the sharing is the program's own and
// not the analysis's:
//
//   - one access is atomic and the other is not;
//   - (no evidence at all where both sides hold a mutex of the same name,
//     c.mu and c.mu: the owner's mutex, told apart only because the
//     analysis merged owners;)
//   - inconsistent locking, where one side is a call of the package's
//     API (the concurrent methods its importers may call on one object at
//     once): a write holds a lock and the other access none (an unlocked
//     write against a locked read is, as a rule, the setup before the
//     object is shared), or neither holds one while other accesses to the
//     location hold a lock or are atomic (as RacerD and checklocks infer
//     it), or neither holds one and the write is made by a function that
//     locks a mutex of the same object, or applies an atomic operation to
//     another of its fields, and leaves this write bare (see bareWrite);
//     between two goroutines of the program, locking shows that the
//     field is shared, not that the two reach one object;
//   - one object of the program, which no merging made: a package-level
//     variable, an object made once (in main, a package's
//     initialization or a test, outside a loop), an object that one
//     holds and that only code that runs once makes (see runOnce; not
//     one a constructor that other code calls made, nor one another
//     package's function made, which stands for all it makes there:
//     every request http.NewRequest builds);
//   - a local variable a function literal takes to another goroutine:
//     one access is in the literal, and one goroutine runs the literal
//     without the function that declares the variable;
//   - the object is passed to or captured by the go statement that
//     started one side (a channel passed hands the channel, not what is
//     sent on it later), and the other side is the goroutine that ran
//     that statement, or another goroutine it started by a statement
//     that passed it the object too (two literals capturing one
//     variable, a go statement in a loop, unless each run of the
//     statement hands what that run made, to the goroutine or through
//     it to one it starts: see madeEachRun and madeAfterVia);
//   - an object that a goroutine sends on a channel (carried by the value
//     sent, through a pointer or two) and goes on using after the send,
//     in the function that sends it (or calls, before the use, a
//     function that sends it, two calls down at most): a send hands the
//     value over, and an object only sent shows a transfer, not
//     sharing; nor does a request used again only after the sender
//     waited for the reply on a channel the request carries (ch <- req;
//     <-req.reply, or a future's Error that receives from it), which
//     hands it back;
//   - a map written on both sides;
//   - a channel closed on one side while the other closes or sends on it,
//     unless one function makes both the send and the close (see
//     oneProducer);
//   - a field of a type whose documentation says it is safe for
//     concurrent use, where one side is a call of the package's API or
//     both are made by the type's exported methods: the documentation
//     promises that its methods may be called at once, and says nothing
//     of what its constructor or its own goroutines do on objects that
//     two goroutines of the program may not share.
//
// The other pairs are a lower tier, "possible data race", reported only
// with the flag -all (SARIF level note). In a package the pointer
// analysis degraded (one context for all goroutines), only the evidence
// that holds without contexts counts: atomics, locking, objects of which
// the program has one (a test's only on its own code, see testsOwn),
// and documented types; between a library's
// presumed callers, only on the receiver of two concurrent methods and
// what it reaches, or on what package-level variables hold.

// evidenceMemo is what Evidence finds once per package, origin or
// location.
type evidenceMemo struct {
	concurrentTypes map[*types.TypeName]bool                     // see documentedConcurrent
	heldByGlobals   map[*pointer.Object]bool                     // see singleton
	onceFuncs       map[*ssa.Function]bool                       // see singleton
	funcValues      map[*ssa.Function]bool                       // see takenAsValue
	handed          map[*pointer.Origin]map[*pointer.Object]bool // see startHands
	lockedAt        map[pointer.Location]bool                    // see lockedElsewhere
}

// Evidence returns what shows that loc, accessed by a and b with the
// locks la and lb held, is shared by goroutines, in a few words, or ""
// when nothing does. accesses are all the accesses to loc.
func (q *Query) Evidence(loc pointer.Location, accesses []pointer.Access, a, b pointer.Access, la, lb shb.LocksetID) string {
	if a.Atomic != b.Atomic {
		return "atomic on one side"
	}
	// Inconsistent locking, as package race's library mode reads it: a
	// write holding a lock while the other side holds none is mutated
	// while shared, and the other side forgot the lock; a write holding
	// none against a locked read is, as a rule, the setup before the
	// object is shared.
	//
	// Locking says that the field is shared by goroutines, not that
	// these two reach one object: it is evidence for two calls of the
	// package's API, which its callers may make on one object at once
	// (the concurrent methods), and not for two goroutines of the
	// program, whose sharing of the object the program itself must
	// show (below).
	//
	// The other side may hold another mutex (SetAddrs holds setAddrsMu
	// and reads what OnNewNode appends to under mu): it still does not
	// hold the writer's, which is what guards the field, unless it is
	// the writer's under another owner's name (c.mu on both sides,
	// which the analysis took for two because it merged owners).
	na, nb := q.mutexes(la), q.mutexes(lb)
	if q.ptr.ContextInsensitive && presumed(a, b) && !(loc.Obj.Callers && apiCall(a.Origin) && apiCall(b.Origin)) && !q.heldByPackage(loc.Obj) {
		// Degraded, one context: what a method or an entry point's call
		// makes is one object for every caller, and the pair may be
		// between two callers' own (a constructor filling the object
		// it makes, a method reading its receiver's: one object once
		// merged), or on an object a test makes, which the callers'
		// program never sees. Only what the callers share holds
		// without contexts: the receiver of two concurrent methods and
		// what it reaches, and what package-level variables hold.
		return ""
	}
	if apiCall(a.Origin) || apiCall(b.Origin) {
		otherLocks := na > 0 && nb > 0 && !q.sameNamedLock(la, lb)
		if a.Write && na > 0 && (nb == 0 || otherLocks) && q.guardsLoc(la, loc) || b.Write && nb > 0 && (na == 0 || otherLocks) && q.guardsLoc(lb, loc) {
			return "written holding a lock the other side does not hold"
		}
		if presumed(a, b) && !q.inconsistent(a, b) && !q.documentedConcurrent(loc) {
			return "" // let through by lockedBoth only
		}
		if na == 0 && nb == 0 && q.lockedElsewhere(loc, accesses) {
			return "locked or atomic elsewhere"
		}
		if na == 0 && nb == 0 && (bareWrite(a) || bareWrite(b)) {
			return "written bare where its function synchronizes on the object"
		}
	}
	if na > 0 && nb > 0 && q.sameNamedLock(la, lb) {
		// Both sides hold a mutex of the same name (nc.mu): the
		// owner's mutex, which the analysis took for two because it
		// merged owners; on one object it is one mutex.
		return ""
	}
	if why := q.singleton(loc.Obj); why != "" && (!q.ptr.ContextInsensitive || q.testsOwn(loc.Obj, a, b)) {
		return why
	}
	if q.documentedConcurrent(loc) && (apiCall(a.Origin) || apiCall(b.Origin) || inMethods(a, loc) && inMethods(b, loc)) {
		return "documented as safe for concurrent use"
	}
	if q.ptr.ContextInsensitive {
		return ""
	}
	if loc.Obj.Kind == pointer.ObjMap && a.Write && b.Write {
		return "a map written on both sides"
	}
	if closesChan(a) && (closesChan(b) || sendsOn(b)) || closesChan(b) && sendsOn(a) {
		if !oneProducer(a, b) {
			return "a channel closed while used"
		}
	}
	if q.capturedAcross(loc.Obj, a, b) {
		return "a variable a function literal takes to another goroutine"
	}
	if q.sentAndKept(loc.Obj, a) || q.sentAndKept(loc.Obj, b) {
		return "sent on a channel, and used after by its sender"
	}
	if q.startHandsOver(loc, a, b, la, lb) {
		return "handed to the goroutines by their go statements"
	}
	return ""
}

// guardsLoc reports whether lockset id holds a mutex that may guard
// loc (as no-sharing-evidence reads inconsistent locking): one of the
// object loc is in (c.mu for c.n), one of an object that holds loc's
// object directly (the owner's s.mu for s.conns' entries), or a
// package-level one. A mutex of another
// object, which a caller some calls up holds for its own state (the
// stream writer's lock around a write that reaches the database's
// memtable), does not show that loc's object is meant to be shared.
func (q *Query) guardsLoc(id shb.LocksetID, loc pointer.Location) bool {
	locs, _ := q.hb.Locks.Members(id)
	for _, l := range locs {
		for _, m := range l {
			mu := q.hb.Location(m).Obj
			if mu == nil || mu == loc.Obj || mu.Kind == pointer.ObjGlobal || q.ptr.Holds(mu, loc.Obj) {
				return true
			}
		}
	}
	return false
}

// apiCall reports whether o runs a call of the package's API that its
// importers may make at any time (see pointer.MethodsRoot), or a
// goroutine that call started.
func apiCall(o *pointer.Origin) bool { return o.Ancestor().Root == pointer.MethodsRoot }

// mutexes returns how many mutexes lockset id holds: a Once whose
// callback runs holds no mutex a reader could name, and an observation
// or a sibling lock names no location (see shb.Locksets.Members).
func (q *Query) mutexes(id shb.LocksetID) int {
	locs, _ := q.hb.Locks.Members(id)
	return len(locs)
}

// takenAsValue reports whether the package takes fn as a value other
// than the callee of a call: a function value another package's code
// may call.
func (q *Query) takenAsValue(fn *ssa.Function) bool {
	if q.ev.funcValues == nil {
		q.ev.funcValues = make(map[*ssa.Function]bool)
		var ops []*ssa.Value
		for _, f := range q.funcs {
			for _, b := range f.Blocks {
				for _, instr := range b.Instrs {
					ops = instr.Operands(ops[:0])
					if call, ok := instr.(ssa.CallInstruction); ok && call.Common().StaticCallee() != nil {
						ops = ops[1:] // the callee, in call position
					}
					for _, op := range ops {
						if f, ok := (*op).(*ssa.Function); ok {
							q.ev.funcValues[f] = true
						}
					}
				}
			}
		}
	}
	return q.ev.funcValues[fn]
}

// heldByPackage reports whether obj is a package-level variable, or one
// object of the program (see singleton) that one holds.
func (q *Query) heldByPackage(obj *pointer.Object) bool {
	why := q.singleton(obj)
	return why == "a package-level variable" || why != "" && q.heldByGlobal(obj) && obj.ImportedType() == ""
}

// singleton returns why obj is one object of the program, which no
// merging of the analysis made: a package-level variable, one made once
// (in main, a package's initialization or a test, outside a loop), or
// one that a package-level variable holds and that only code that runs
// once makes (see runOnce); "" if none applies. An object that another
// package's function made is not one for that: the analysis knows it
// by where that function makes it, for every call of it (every request
// a client's method builds with http.NewRequest), and a variable that
// holds one of them seems to hold them all (on the bench, 14 such
// reports, every one false).
func (q *Query) singleton(obj *pointer.Object) string {
	if obj.Kind == pointer.ObjGlobal {
		return "a package-level variable"
	}
	if q.ev.onceFuncs == nil {
		q.ev.onceFuncs = make(map[*ssa.Function]bool)
		for _, o := range q.ptr.Origins {
			if o.Parent != nil || o.Root == pointer.MethodsRoot || o.Root == pointer.EntriesRoot {
				continue
			}
			for _, fn := range q.ptr.RootFuncs(o) {
				if !strings.HasPrefix(fn.Name(), "Benchmark") { // run again for each b.N
					q.ev.onceFuncs[fn] = true
				}
			}
		}
	}
	instr, ok := obj.Site.(ssa.Instruction)
	if !ok || q.allocatedInLoop(obj) {
		return ""
	}
	if q.ev.onceFuncs[instr.Parent()] {
		return "made once, by " + instr.Parent().Name()
	}
	if q.heldByGlobal(obj) && q.runOnce(instr.Parent(), 0) {
		return "held by a package-level variable"
	}
	return ""
}

// runOnce reports whether fn runs at most once in a run of the
// program: a root function (main, a package's initialization, a test),
// or a function of the package that no importer can call (unexported,
// or of package main), not a method nor a literal, that the package
// calls from one call site only, outside a loop, in a function that
// runs once, and never takes as a value (which another package's
// function could call any number of times). What it makes is one
// object of the program (var db = newChannelMap()); what a constructor
// that tests or requests call as well makes (a client a test keeps in a
// package-level variable, and every test's own) is one object only to
// the pointer analysis, which merged them.
func (q *Query) runOnce(fn *ssa.Function, depth int) bool {
	if q.ev.onceFuncs[fn] || fn.Parent() == nil && fn.Signature.Recv() == nil && (fn.Synthetic == "package initializer" || strings.HasPrefix(fn.Name(), "init#")) {
		return true
	}
	if depth >= 4 || fn.Parent() != nil || fn.Signature.Recv() != nil || fn.Object() == nil ||
		fn.Object().Exported() && fn.Pkg != nil && fn.Pkg.Pkg.Name() != "main" {
		return false
	}
	sites := q.fresh.callsOf(fn)
	if len(sites) != 1 || q.takenAsValue(fn) {
		return false
	}
	site := sites[0]
	return site.Block() != nil && !q.hb.InLoop(site.Block()) && q.runOnce(site.Parent(), depth+1)
}

// testsOwn reports, for a package the pointer analysis degraded, whether
// an object that a test makes once is reached by that test's own code on
// both sides: the access is in the test's function or a literal of it,
// or its goroutine (or one it descends from) was started by a go
// statement there. With one context, a library function the test calls
// (a constructor filling what it makes, a method starting a goroutine on
// it) runs for every test at once, and its goroutine's parent is
// whichever root was found first to reach it: the test made the object,
// but nothing shows the two sides are its. An object main, or a
// package's initialization, makes once is one of its program's whatever
// code reaches it.
func (q *Query) testsOwn(obj *pointer.Object, a, b pointer.Access) bool {
	instr, ok := obj.Site.(ssa.Instruction)
	if !ok {
		return true
	}
	fn := instr.Parent()
	if fn.Prog == nil || origins.TestRootKind(fn.Prog.Fset, fn) == 0 || fn.Syntax() == nil {
		return true
	}
	body := fn.Syntax()
	inside := func(pos token.Pos) bool { return body.Pos() <= pos && pos < body.End() }
	own := func(acc pointer.Access) bool {
		for f := acc.Instr.Parent(); f != nil; f = f.Parent() {
			if f == fn {
				return true
			}
		}
		for o := acc.Origin; o != nil && o.Parent != nil; o = o.Parent {
			if inside(o.Site) {
				return true
			}
		}
		return false
	}
	return own(a) && own(b)
}

// capturedAcross reports whether obj is a local variable that a
// function literal shares with another goroutine: one access is in a
// literal, and one of the two goroutines never runs the function that
// declares the variable (it got it only through the literal).
func (q *Query) capturedAcross(obj *pointer.Object, a, b pointer.Access) bool {
	alloc, ok := obj.Site.(*ssa.Alloc)
	if !ok || !alloc.Heap || !capturedByLiteral(alloc) || a.Instr.Parent() == alloc.Parent() && b.Instr.Parent() == alloc.Parent() {
		return false
	}
	runs := q.ptr.OriginsOf(alloc.Parent())
	return slices.Contains(runs, a.Origin) != slices.Contains(runs, b.Origin)
}

// sameNamedLock reports whether the locksets la and lb hold mutexes of
// the same field name (c.mu and c.mu), one side at least not as a read lock:
// on one object, that mutex would exclude the two (two read locks never
// do).
func (q *Query) sameNamedLock(la, lb shb.LocksetID) bool {
	type held struct {
		name string
		read bool
	}
	names := func(id shb.LocksetID) []held {
		locs, read := q.hb.Locks.Members(id)
		var out []held
		for i, l := range locs {
			// A field's mutex (c.mu), not a variable's: the owner's.
			if n := q.hb.Locks.Name(l[0]); strings.Contains(n, ".") {
				out = append(out, held{n, read[i]})
			}
		}
		return out
	}
	nb := names(lb)
	for _, x := range names(la) {
		for _, y := range nb {
			if x.name == y.name && !(x.read && y.read) {
				return true
			}
		}
	}
	return false
}

// capturedByLiteral reports whether alloc is a variable that a function
// literal captures (a binding of its closure), not an object that &T{}
// or new(T) made. A method value (serf.NumNodes handed to a queue)
// binds its receiver, a value like an argument, and captures no
// variable: the object it points to is passed along, not declared in
// a function some goroutine never runs.
func capturedByLiteral(alloc *ssa.Alloc) bool {
	refs := alloc.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if mc, ok := r.(*ssa.MakeClosure); ok && isLiteral(mc) && slices.Contains(mc.Bindings, ssa.Value(alloc)) {
			return true
		}
	}
	return false
}

// isLiteral reports whether mc makes the closure of a function literal,
// not of a method value (a bound method wrapper, which has no enclosing
// function).
func isLiteral(mc *ssa.MakeClosure) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	return ok && fn.Parent() != nil
}

// maxEvidenceAccesses bounds the accesses lockedElsewhere looks at.
const maxEvidenceAccesses = 64

// lockedElsewhere reports whether some access to loc (of accesses, all
// its accesses) holds a lock or is atomic, found once per location: a
// location's racy pairs are many.
func (q *Query) lockedElsewhere(loc pointer.Location, accesses []pointer.Access) bool {
	if locked, ok := q.ev.lockedAt[loc]; ok {
		return locked
	}
	locked := slices.ContainsFunc(accesses[:min(len(accesses), maxEvidenceAccesses)], func(acc pointer.Access) bool {
		return acc.Atomic || q.locked(acc)
	})
	if q.ev.lockedAt == nil {
		q.ev.lockedAt = make(map[pointer.Location]bool)
	}
	q.ev.lockedAt[loc] = locked
	return locked
}

// closesChan reports whether acc is a close of a channel.
func closesChan(acc pointer.Access) bool {
	call, ok := acc.Instr.(*ssa.Call)
	if !ok {
		return false
	}
	b, ok := call.Call.Value.(*ssa.Builtin)
	return ok && b.Name() == "close"
}

// oneProducer reports whether a send and a close of a pair are made by
// one function, which sends on the channel and closes it (a batch that
// answers each future it was handed, then closes it): that function is
// the channel's producer, and two of its runs meet on one channel only
// where the analysis merged the channels each caller made.
func oneProducer(a, b pointer.Access) bool {
	return (sendsOn(a) || sendsOn(b)) && a.Instr.Parent() == b.Instr.Parent()
}

// sendsOn reports whether acc is a send on a channel.
func sendsOn(acc pointer.Access) bool {
	_, ok := acc.Instr.(*ssa.Send)
	return ok
}

// startHandsOver reports whether the goroutines o and p share loc's object
// by the program's own go statements: one started the other, whose go
// statement passed it the object, or one goroutine started both, each by
// a go statement that passed it the object (two literals capturing one
// variable, a go statement in a loop).
func (q *Query) startHandsOver(loc pointer.Location, a, b pointer.Access, la, lb shb.LocksetID) bool {
	o, p := a.Origin, b.Origin
	switch {
	case ancestor(p, o):
		return q.startHands(loc, o) && !q.madeAfterVia(loc, o, b, lb)
	case ancestor(o, p):
		return q.startHands(loc, p) && !q.madeAfterVia(loc, p, a, la)
	case o.Parent != nil && o.Parent == p.Parent:
		if p.Site == o.Site {
			// Two goroutines of one statement: each run of it hands
			// over what that run made, unless it was made before.
			_, eachRun := q.madeEachRun(loc.Obj, o)
			return q.startHands(loc, o) && !eachRun
		}
		return q.startHands(loc, o) && q.startHands(loc, p)
	}
	return false
}

// madeEachRun reports whether obj is made anew for each goroutine the
// statement that started o starts: the function holding the statement
// makes it, or calls the constructor that does (a factory, told apart
// by its call site), before the statement on every path to it, and
// every path from the statement back to it (a loop around it) makes it
// again. Each goroutine is then handed its own (a connection per
// iteration, made by newConn in the loop body), which the analysis takes
// for one: the handing shows no sharing. A statement that starts several
// goroutines at once (a handler, a timer a Reset runs again) shares
// what it hands them. It returns the instruction that makes obj (see
// madeIn) too.
func (q *Query) madeEachRun(obj *pointer.Object, o *pointer.Origin) (ssa.Instruction, bool) {
	stmt := q.spawns[o]
	if !startsOne(o) || stmt == nil {
		return nil, false
	}
	made, ok := q.madeIn(obj, stmt.Parent())
	// Every path from the statement back to itself makes obj again.
	return made, ok && dataflow.Precedes(made, stmt) && !reachesAvoiding(stmt, stmt, made)
}

// madeIn returns the instruction of fn that makes obj: its allocation,
// or the call of the constructor that makes it, one or two factory
// calls down (see pointer.Context); false if fn makes it nowhere.
func (q *Query) madeIn(obj *pointer.Object, fn *ssa.Function) (ssa.Instruction, bool) {
	if made := obj.MadeAt(); made != nil && made.Parent() == fn && made.Block() != nil {
		return made, true
	}
	if obj.Ctx == nil {
		return nil, false
	}
	for _, site := range obj.Ctx.CallSites() {
		if site != nil && site.Parent() == fn && site.Block() != nil {
			return site, true
		}
	}
	return nil, false
}

// madeAfterVia is madeAfter for o or a goroutine it descends from: acc
// is made by an ancestor of o, and the goroutine c that the ancestor
// started on the way to o was handed the object by its go statement
// too. What c's run of the statement got (made anew for it, see
// madeEachRun) is what c passes on to the goroutines it starts: a
// helper called in a test's loop that makes a set and starts a
// goroutine that starts another to watch it gives each call's watcher
// that call's set, which the next call's filling does not touch.
func (q *Query) madeAfterVia(loc pointer.Location, o *pointer.Origin, acc pointer.Access, held shb.LocksetID) bool {
	c := o
	for c.Parent != nil && c.Parent != acc.Origin {
		c = c.Parent
	}
	if c.Parent == nil || c != o && !q.startHands(loc, c) {
		return false
	}
	return q.madeAfter(loc.Obj, c, acc, held)
}

// madeAfter reports whether acc, made by the goroutine that started o,
// touches obj only where that goroutine has made another since: obj is
// made anew for each goroutine the statement starts (see madeEachRun),
// and acc is in the call of the function holding the statement (or in
// a function it calls), where no path from the statement reaches it
// without making obj again. The goroutine it started has the object
// made before; the parent's access before the statement (a constructor
// called twice, filling each new object before it starts its goroutine)
// is on the next one. An access after the statement, or outside that
// call, may be on the goroutine's own. Only acc's events that hold the
// locks held, the pair's, count: the same instruction reached through
// a call that holds a lock the other side holds too (Load's, under the
// database's mutex) is not the pair's.
func (q *Query) madeAfter(obj *pointer.Object, o *pointer.Origin, acc pointer.Access, held shb.LocksetID) bool {
	if acc.Origin != o.Parent {
		return false
	}
	made, ok := q.madeEachRun(obj, o)
	if !ok {
		return false
	}
	stmt := q.spawns[o]
	fn := stmt.Parent()
	t := q.hb.TraceOf(acc.Origin)
	if t == nil {
		return false
	}
	evs := t.AccessEvents(acc)
	if len(evs) == 0 {
		return false
	}
	pair := 0
	for _, id := range evs {
		if t.Events[id].Locks != held {
			continue
		}
		pair++
		at := acc.Instr
		if at.Parent() != fn {
			frames, ok := t.Frames(id)
			i := slices.IndexFunc(frames, func(f pointer.Frame) bool { return f.Site != nil && f.Site.Parent() == fn })
			if !ok || i < 0 {
				return false // outside the call of fn
			}
			at = frames[i].Site
		}
		if reachesAvoiding(stmt, at, made) {
			return false
		}
	}
	return pair > 0
}

// reachesAvoiding reports whether a path from instruction from reaches
// instruction to before it runs instruction made again.
func reachesAvoiding(from, to, made ssa.Instruction) bool {
	fb, tb, mb := from.Block(), to.Block(), made.Block()
	i, j, m := indexOf(from), indexOf(to), indexOf(made)
	switch {
	case tb == fb && i < j && (mb != fb || m < i || j < m):
		return true // later in from's block, made not run again between
	case mb == fb && i < m:
		return false // made again before the block ends
	}
	// A path enters to's block at its start: through made's block it
	// makes the object again, unless to comes first there.
	return reaches(fb, tb, mb) && (tb != mb || j < m)
}

// ancestor reports whether a started o, directly or through goroutines
// it started.
func ancestor(a, o *pointer.Origin) bool {
	for q := o.Parent; q != nil; q = q.Parent {
		if q == a {
			return true
		}
	}
	return false
}

// startHands reports whether the go statement that started o passes it
// loc's object: an argument, or a variable or pointer the function
// literal captures, pointing to it.
func (q *Query) startHands(loc pointer.Location, o *pointer.Origin) bool {
	if o.Parent == nil {
		return false
	}
	handed, ok := q.ev.handed[o]
	if !ok {
		handed = q.startHanded(o)
		if q.ev.handed == nil {
			q.ev.handed = make(map[*pointer.Origin]map[*pointer.Object]bool)
		}
		q.ev.handed[o] = handed
	}
	return handed[loc.Obj]
}

// startHanded returns the objects that the go statement that started
// o (which has a parent) passes it, found once per origin for startHands.
func (q *Query) startHanded(o *pointer.Origin) map[*pointer.Object]bool {
	t := q.hb.TraceOf(o.Parent)
	i := slices.IndexFunc(q.spawnEvs[o], func(s spawn) bool { return s.t == t })
	if t == nil || i < 0 {
		return nil
	}
	s := q.spawnEvs[o][i]
	call, ok := s.t.Events[s.id].Instr.(ssa.CallInstruction)
	if !ok {
		return nil
	}
	// The statement's function and arguments, and what the function
	// literals among them capture (time.AfterFunc(d, func() { ... })).
	values := append([]ssa.Value{call.Common().Value}, call.Common().Args...)
	for _, v := range values {
		if mc, ok := v.(*ssa.MakeClosure); ok {
			values = append(values, mc.Bindings...)
		}
	}
	handed := make(map[*pointer.Object]bool)
	for _, v := range values {
		// What the goroutine gets, and what that points to (a map of
		// maps); a variable the literal captures is a cell, one level
		// more.
		depth := 1
		t := v.Type()
		if _, cell := v.(*ssa.Alloc); cell {
			depth = 2
			t = t.Underlying().(*types.Pointer).Elem()
		}
		if _, fn := t.Underlying().(*types.Signature); fn {
			// A function value hands what its closure captures: the
			// function a spawning helper is given (go func() { f() }()).
			depth++
		}
		for obj := range q.ptr.Handed(o.Parent, v, depth, maxHanded) {
			handed[obj] = true
		}
	}
	return handed
}

// maxHanded bounds the objects startHanded looks at for one value.
const maxHanded = 64

// documentedConcurrent reports whether loc is a field of a struct type
// of the package whose documentation says it is safe for concurrent
// use.
func (q *Query) documentedConcurrent(loc pointer.Location) bool {
	named, ok := types.Unalias(loc.Obj.Type).(*types.Named)
	if !ok || named.Obj().Pkg() != q.pkg {
		return false
	}
	if q.ev.concurrentTypes == nil {
		q.ev.concurrentTypes = syncapi.DocumentedTypes(q.files, q.info, 1)
	}
	return q.ev.concurrentTypes[named.Obj()]
}

// inMethods reports whether acc is made by an exported method of the
// type loc is a field of (or a function literal in one): a call its
// documentation says may run at once with another.
func inMethods(acc pointer.Access, loc pointer.Location) bool {
	fn := acc.Instr.Parent()
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	recv := fn.Signature.Recv()
	if recv == nil || !fn.Object().Exported() {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	owner, ok2 := types.Unalias(loc.Obj.Type).(*types.Named)
	return ok && ok2 && named.Origin() == owner.Origin()
}
