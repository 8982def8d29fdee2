package race

import (
	"go/ast"
	"go/types"
	"regexp"
	"slices"
	"strings"

	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
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
//   - inconsistent locking: a write holds a lock and the other access
//     none (an unlocked write against a locked read is, as a rule, the
//     setup before the object is shared), or neither holds one while
//     other accesses to the location hold a lock or are atomic (as
//     RacerD and checklocks infer it);
//   - one object of the program, which no merging made: a package-level
//     variable, an object one holds, an object made once (in main, a
//     package's initialization or a test, outside a loop);
//   - a local variable a function literal takes to another goroutine:
//     one access is in the literal, and one goroutine runs the literal
//     without the function that declares the variable;
//   - the object is passed to or captured by the go statement that
//     started one side, and the other side is the goroutine that ran
//     that statement, or another goroutine it started by a statement
//     that passed it the object too (two literals capturing one
//     variable, a go statement in a loop);
//   - an object that a goroutine sends on a channel (carried by the value
//     sent, through a pointer or two);
//   - a map written on both sides;
//   - a channel closed on one side while the other closes or sends on it;
//   - a field of a type whose documentation says it is safe for
//     concurrent use.
//
// The other pairs are a lower tier, "possible data race", reported only
// with the flag -all (SARIF level note). In a package the pointer
// analysis degraded (one context for all goroutines), only the evidence
// that holds without contexts counts: atomics, locking, objects of which
// the program has one, and documented types.

// NoEvidenceNote ends the message of a possible data race: why it is
// one (see PossiblePrefix).
const NoEvidenceNote = "nothing shows that the memory is meant to be shared (no lock or atomic on it, not an object made once, not handed to the goroutine): the goroutines may reach it only through objects the analysis took for one"

// evidence returns what shows that loc, accessed by a and b with the
// locks la and lb held, is shared by goroutines, in a few words, or ""
// when nothing does. accesses are all the accesses to loc.
func (c *checker) evidence(loc pointer.Location, accesses []pointer.Access, a, b pointer.Access, la, lb shb.LocksetID) string {
	if a.Atomic != b.Atomic {
		return "atomic on one side"
	}
	// Inconsistent locking, as package race's library mode reads it: a
	// write holding a lock while the other side holds none is mutated
	// while shared, and the other side forgot the lock; a write holding
	// none against a locked read is, as a rule, the setup before the
	// object is shared.
	na, nb := c.hb.Locks.Len(la), c.hb.Locks.Len(lb)
	if a.Write && na > 0 && nb == 0 || b.Write && nb > 0 && na == 0 {
		return "written holding a lock the other side does not hold"
	}
	if na == 0 && nb == 0 && c.lockedElsewhere(loc, accesses) {
		return "locked or atomic elsewhere"
	}
	if na > 0 && nb > 0 && c.sameNamedLock(la, lb) {
		// Both sides hold a mutex of the same name (nc.mu): the
		// owner's mutex, which the analysis took for two because it
		// merged owners; on one object it is one mutex.
		return ""
	}
	if why := c.singleton(loc.Obj); why != "" {
		return why
	}
	if c.documentedConcurrent(loc) {
		return "documented as safe for concurrent use"
	}
	if c.ptr.ContextInsensitive {
		return ""
	}
	if isMap(loc) && a.Write && b.Write {
		return "a map written on both sides"
	}
	if closesChan(a) && (closesChan(b) || sendsOn(b)) || closesChan(b) && sendsOn(a) {
		return "a channel closed while used"
	}
	if c.capturedAcross(loc.Obj, a, b) {
		return "a variable a function literal takes to another goroutine"
	}
	if c.own.Sent(loc.Obj) {
		return "sent on a channel"
	}
	if c.handedOver(loc, a.Origin, b.Origin) {
		return "handed to the goroutines by their go statements"
	}
	return ""
}

// singleton returns why obj is one object of the program, which no
// merging of the analysis made: a package-level variable, an object one
// holds, or one made once (in main, a package's initialization or a
// test, outside a loop); "" if none applies.
func (c *checker) singleton(obj *pointer.Object) string {
	if obj.Kind == pointer.ObjGlobal {
		return "a package-level variable"
	}
	if c.heldByGlobals == nil {
		c.heldByGlobals = c.ptr.HeldByGlobals()
		c.onceFuncs = make(map[*ssa.Function]bool)
		for _, o := range c.ptr.Origins {
			if o.Parent != nil || o.Root == pointer.MethodsRoot || o.Root == pointer.EntriesRoot {
				continue
			}
			for _, fn := range c.ptr.RootFuncs(o) {
				if !strings.HasPrefix(fn.Name(), "Benchmark") { // run again for each b.N
					c.onceFuncs[fn] = true
				}
			}
		}
	}
	if c.heldByGlobals[obj] {
		return "held by a package-level variable"
	}
	if instr, ok := obj.Site.(ssa.Instruction); ok && c.onceFuncs[instr.Parent()] && !c.own.PerIteration(obj) {
		return "made once, by " + instr.Parent().Name()
	}
	return ""
}

// capturedAcross reports whether obj is a local variable that a
// function literal shares with another goroutine: one access is in a
// literal, and one of the two goroutines never runs the function that
// declares the variable (it got it only through the literal).
func (c *checker) capturedAcross(obj *pointer.Object, a, b pointer.Access) bool {
	alloc, ok := obj.Site.(*ssa.Alloc)
	if !ok || !alloc.Heap || !capturedByLiteral(alloc) || !captured(alloc, a, b) {
		return false
	}
	runs := c.ptr.OriginsOf(alloc.Parent())
	return slices.Contains(runs, a.Origin) != slices.Contains(runs, b.Origin)
}

// sameNamedLock reports whether the locksets la and lb hold mutexes of
// the same field name (c.mu and c.mu), one side at least not as a read lock:
// on one object, that mutex would exclude the two (two read locks never
// do).
func (c *checker) sameNamedLock(la, lb shb.LocksetID) bool {
	type held struct {
		name string
		read bool
	}
	names := func(id shb.LocksetID) []held {
		locs, read := c.hb.Locks.Members(id)
		var out []held
		for i, l := range locs {
			// A field's mutex (c.mu), not a variable's: the owner's.
			if n := c.hb.Locks.Name(l[0]); strings.Contains(n, ".") {
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
// or new(T) made.
func capturedByLiteral(alloc *ssa.Alloc) bool {
	refs := alloc.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if mc, ok := r.(*ssa.MakeClosure); ok && slices.Contains(mc.Bindings, ssa.Value(alloc)) {
			return true
		}
	}
	return false
}

// maxEvidenceAccesses bounds the accesses lockedElsewhere looks at.
const maxEvidenceAccesses = 64

// lockedElsewhere reports whether some access to loc (of accesses, all
// its accesses) holds a lock or is atomic, found once per location: a
// location's racy pairs are many.
func (c *checker) lockedElsewhere(loc pointer.Location, accesses []pointer.Access) bool {
	if locked, ok := c.lockedAt[loc]; ok {
		return locked
	}
	locked := slices.ContainsFunc(accesses[:min(len(accesses), maxEvidenceAccesses)], func(acc pointer.Access) bool {
		return acc.Atomic || c.locked(acc)
	})
	if c.lockedAt == nil {
		c.lockedAt = make(map[pointer.Location]bool)
	}
	c.lockedAt[loc] = locked
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

// sendsOn reports whether acc is a send on a channel.
func sendsOn(acc pointer.Access) bool {
	_, ok := acc.Instr.(*ssa.Send)
	return ok
}

// handedOver reports whether the goroutines o and p share loc's object
// by the program's own go statements: one started the other, whose go
// statement passed it the object, or one goroutine started both, each by
// a go statement that passed it the object (two literals capturing one
// variable, a go statement in a loop).
func (c *checker) handedOver(loc pointer.Location, o, p *pointer.Origin) bool {
	switch {
	case ancestor(p, o):
		return c.handedTo(loc, o)
	case ancestor(o, p):
		return c.handedTo(loc, p)
	case o.Parent != nil && o.Parent == p.Parent:
		return c.handedTo(loc, o) && (p.Site == o.Site || c.handedTo(loc, p))
	}
	return false
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

// handedTo reports whether the go statement that started o passes it
// loc's object: an argument, or a variable or pointer the function
// literal captures, pointing to it.
func (c *checker) handedTo(loc pointer.Location, o *pointer.Origin) bool {
	if o.Parent == nil {
		return false
	}
	handed, ok := c.handed[o]
	if !ok {
		handed = c.handedObjects(o)
		if c.handed == nil {
			c.handed = make(map[*pointer.Origin]map[*pointer.Object]bool)
		}
		c.handed[o] = handed
	}
	return handed[loc.Obj]
}

// handedObjects returns the objects that the go statement that started
// o (which has a parent) passes it, found once per origin for handedTo.
func (c *checker) handedObjects(o *pointer.Origin) map[*pointer.Object]bool {
	t := c.hb.TraceOf(o.Parent)
	if t == nil {
		return nil
	}
	ev, ok := spawnOf(t, o)
	if !ok {
		return nil
	}
	call, ok := ev.Instr.(ssa.CallInstruction)
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
		if _, cell := v.(*ssa.Alloc); cell {
			depth = 2
		}
		for obj := range c.ptr.Reachable(o.Parent, v, depth, maxHanded) {
			handed[obj] = true
		}
	}
	return handed
}

// maxHanded bounds the objects handedObjects looks at for one value.
const maxHanded = 64

// concurrentDoc matches documentation that says a type may be used by
// goroutines at once.
var concurrentDoc = regexp.MustCompile(`(?i)safe for (concurrent|simultaneous|parallel) use|(concurrency|goroutine|thread)[- ]safe|safe to (use|call) (from|by|across) (multiple|several|many|concurrent) goroutines|by multiple goroutines simultaneously`)

// documentedConcurrent reports whether loc is a field of a struct type
// of the package whose documentation says it is safe for concurrent
// use.
func (c *checker) documentedConcurrent(loc pointer.Location) bool {
	named, ok := types.Unalias(loc.Obj.Type).(*types.Named)
	if !ok || named.Obj().Pkg() != c.pass.Pkg {
		return false
	}
	if c.concurrentTypes == nil {
		c.concurrentTypes = make(map[*types.TypeName]bool)
		for _, f := range c.pass.Files {
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok {
					continue
				}
				for _, s := range gd.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					doc := ts.Doc
					if doc == nil && len(gd.Specs) == 1 {
						doc = gd.Doc
					}
					if doc != nil && concurrentDoc.MatchString(doc.Text()) {
						if tn, ok := c.pass.TypesInfo.Defs[ts.Name].(*types.TypeName); ok {
							c.concurrentTypes[tn] = true
						}
					}
				}
			}
		}
	}
	return c.concurrentTypes[named.Obj()]
}
