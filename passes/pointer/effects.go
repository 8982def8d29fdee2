package pointer

import (
	"go/types"
	"slices"
	"strings"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/effects"
	"golang.org/x/tools/go/ssa"
)

// Imported describes an access that a function of another package
// makes when this package calls it, from the callee's fact (see
// package effects): the access's Instr is the call.
type Imported struct {
	Func  *ssa.Function // the callee
	Index int           // the access's index among the callee's (see effects.Op)
	At    string        // where the access is: "file:line:col" in the callee's package
	// Locks are the mutexes the callee holds there.
	Locks []ImportedLock
}

// ImportedLock is a mutex held by a callee of another package.
type ImportedLock struct {
	Locs []Location // where the mutex may be
	Read bool
	Once bool   // a sync.Once whose Do callback makes the access (see facts.HeldLock)
	Name string // how the callee names it, as "c.mu"
}

// importedCall is a call of a function without a body here.
type importedCall struct {
	at    at
	instr ssa.CallInstruction
	fn    *ssa.Function
	args  []ssa.Value
	// origin, when set, is the goroutine that a go statement starts in
	// fn; otherwise the call runs in the origins that run at.cg.
	origin *Origin
	// ops is fn's effect, once importedAccesses has looked it up (see
	// looked): effects.Result.Imported names fn anew at each call.
	ops    []effects.Op
	looked bool
}

// importedSpawn starts a goroutine in fn, a function of another package
// (go srv.Serve(l)), when its effect is known: an origin whose accesses
// are those of the effect, with the spawner's arguments.
func (a *state) importedSpawn(site *callSite, fn *ssa.Function) {
	if a.effects == nil || a.summaryMode || site.instr.Common().StaticCallee() != fn || len(a.effects.Imported(fn)) == 0 {
		return
	}
	parent := site.caller.ctx.Origin
	for _, c := range site.spawn.copies {
		o := a.newOrigin(parent, site.spawn.kind, site.spawn.pos, fn, c, site.spawn.flags, site.caller.ctx.sites, noReceiver)
		if o.Parent != parent || o.Entry != fn {
			continue // past the budget: an origin shared with others
		}
		a.noteSpawn(o, site.caller)
		if a.importedEntries[o] == nil {
			a.importedEntries[o] = site.instr
			a.importedCalls = append(a.importedCalls, importedCall{at: site.at, instr: site.instr, fn: fn, args: site.args, origin: o})
		}
		k := siteKey{parent, site.instr}
		if !slices.Contains(a.spawns[k], o) {
			a.spawns[k] = append(a.spawns[k], o)
		}
	}
}

// ImportedEntry returns the go statement that starts origin o in a
// function of another package, which the spawner's origin (o.Parent)
// evaluated the arguments of; nil for other origins.
func (r *Result) ImportedEntry(o *Origin) ssa.CallInstruction {
	if r.a == nil {
		return nil
	}
	return r.a.importedEntries[o]
}

// recordImported notes a call of fn, a function of another package, so
// that collectAccesses adds the accesses its effect summary lists.
func (a *state) recordImported(site *callSite, fn *ssa.Function) {
	if a.effects == nil || a.summaryMode || site.instr == nil {
		return
	}
	if _, isGo := site.instr.(*ssa.Go); isGo || site.instr.Common().StaticCallee() != fn {
		return // the happens-before pass places only static calls' effects
	}
	a.importedCalls = append(a.importedCalls, importedCall{at: site.at, instr: site.instr, fn: fn, args: site.args})
}

// importedAccesses calls f with the accesses that the calls of other
// packages' functions make, from their effects: the writes, or the
// reads.
func (a *state) importedAccesses(writes bool, f func(c *importedCall, acc *effects.Op, n nodeID, size int, locks []ImportedLock)) {
	for i := range a.importedCalls {
		c := &a.importedCalls[i]
		if !c.looked {
			c.ops, c.looked = a.effects.Imported(c.fn), true
		}
		for _, acc := range c.ops {
			if acc.Sync != 0 || acc.Write != writes {
				continue
			}
			addrs, t, ok := a.follow(c, acc.Key)
			if !ok {
				continue
			}
			var locks []ImportedLock
			for _, h := range acc.Locks {
				if ls, _, ok := a.follow(c, h.Key); ok && len(ls) > 0 {
					el := ImportedLock{Read: h.Read, Once: h.Once, Name: a.keyName(c.fn, h.Key)}
					for _, l := range ls {
						el.Locs = append(el.Locs, a.location(l))
					}
					locks = append(locks, el)
				}
			}
			for _, n := range addrs {
				obj := a.nodes[n].obj
				if obj == nil || obj.Kind == ObjFunc {
					continue
				}
				if acc.Whole {
					f(c, &acc, obj.start, obj.layout.size(), locks)
				} else {
					f(c, &acc, n, a.size(facts.Pointee(t)), locks)
				}
			}
		}
	}
}

func (a *state) location(n nodeID) Location {
	obj := a.nodes[n].obj
	return Location{Obj: obj, Leaf: int(n - obj.start)}
}

// follow returns the locations that a callee's key reaches at call c,
// and the type of the pointer to them.
func (a *state) follow(c *importedCall, key facts.Key) (addrs []nodeID, t types.Type, ok bool) {
	if !key.Bound() {
		return nil, nil, false
	}
	switch root, i, name := key.Root(); root {
	case facts.Global:
		obj, ok := a.globals[name]
		if !ok || obj.Kind != ObjGlobal {
			return nil, nil, false // not a variable this package has typed
		}
		return a.walkPath([]nodeID{obj.start}, false, types.NewPointer(obj.Type), key.Path())
	case facts.Param:
		n, pt, ok := a.param(c, i)
		if !ok {
			return nil, nil, false
		}
		return a.walkPath([]nodeID{n}, true, pt, key.Path())
	}
	return nil, nil, false
}

// walkPath follows the steps of a key's path (see facts.Step) from an
// expression of type t: the value in nodes when val is set, or else a
// pointer to the addresses in nodes. It returns the addresses the final
// pointer may hold and its type.
func (a *state) walkPath(nodes []nodeID, val bool, t types.Type, path facts.Path) ([]nodeID, types.Type, bool) {
	toAddrs := func() {
		if !val {
			return
		}
		var set locSet
		for _, n := range nodes {
			set.unionWith(&a.nodes[n].pts)
		}
		nodes, val = set.appendTo(nil), false
	}
	for _, s := range path.Steps() {
		next, ok := s.Next(t)
		if !ok {
			return nil, nil, false
		}
		switch s.Op {
		case facts.FieldAddr:
			toAddrs()
			off := a.layouts.offsetOf(facts.Pointee(t), s.Index)
			var out []nodeID
			for _, n := range nodes {
				if m, ok := a.within(n, off); ok {
					out = append(out, m)
				}
			}
			nodes = out
		case facts.Field:
			if !val {
				return nil, nil, false
			}
			off := a.layouts.offsetOf(t, s.Index)
			var out []nodeID
			for _, n := range nodes {
				if a.fits(n, off) {
					out = append(out, n+nodeID(off))
				}
			}
			nodes = out
		case facts.IndexAddr:
			toAddrs() // an array's one element is at its start
		case facts.Load:
			toAddrs()
			val = true // the value loaded is the block at each address
		}
		t = next
	}
	toAddrs()
	return nodes, t, true
}

// PointsToPath returns the locations reached from v, when its function
// runs in origin o, by the steps of a lockset key's path.
func (r *Result) PointsToPath(o *Origin, v ssa.Value, path facts.Path) []Location {
	a := r.a
	if a == nil {
		return nil
	}
	var addrs []nodeID
	if g, ok := v.(*ssa.Global); ok {
		obj, ok := a.globals[g.String()]
		if !ok {
			return nil
		}
		addrs, _, _ = a.walkPath([]nodeID{obj.start}, false, g.Type(), path)
	} else {
		addrs, _, _ = a.walkPath(a.valueNodes(v, a.inOrigin(o, v.Parent())), true, v.Type(), path)
	}
	slices.Sort(addrs)
	var locs []Location
	for _, n := range slices.Compact(addrs) {
		locs = append(locs, r.location(n))
	}
	return locs
}

// PointsToRecvPath is PointsToPath for the receiver of an interface
// method call: v is the interface value, recv the type of the method's
// receiver, which the interface holds.
func (r *Result) PointsToRecvPath(o *Origin, v ssa.Value, recv types.Type, path facts.Path) []Location {
	a := r.a
	if a == nil || v.Parent() == nil {
		return nil
	}
	var boxes []nodeID // the words the interface holds its value in
	for _, n := range a.valueNodes(v, a.inOrigin(o, v.Parent())) {
		boxes = a.nodes[n].pts.appendTo(boxes)
	}
	addrs, _, _ := a.walkPath(boxes, true, recv, path)
	slices.Sort(addrs)
	var locs []Location
	for _, n := range slices.Compact(addrs) {
		locs = append(locs, r.location(n))
	}
	return locs
}

// param returns the value node and type of the callee's parameter i
// (the receiver first) at call c.
func (a *state) param(c *importedCall, i int) (nodeID, types.Type, bool) {
	p := paramVar(c.fn.Signature, i)
	if p == nil || types.IsInterface(p.Type()) || i >= len(c.args) {
		return 0, nil, false
	}
	n, ok := a.lookupVal(c.at, c.args[i])
	return n, p.Type(), ok
}

// paramVar returns parameter i of sig, counting the receiver first as
// keys do, or nil.
func paramVar(sig *types.Signature, i int) *types.Var {
	if recv := sig.Recv(); recv != nil {
		if i == 0 {
			return recv
		}
		i--
	}
	if i < 0 || i >= sig.Params().Len() {
		return nil
	}
	return sig.Params().At(i)
}

// keyName renders a callee's key with its parameters' names: "c.mu".
func (a *state) keyName(fn *ssa.Function, key facts.Key) string {
	var name string
	var t types.Type
	switch root, i, global := key.Root(); root {
	case facts.Global:
		name = global[strings.LastIndex(global, ".")+1:]
		if obj, ok := a.globals[global]; ok && obj.Kind == ObjGlobal {
			t = types.NewPointer(obj.Type)
		}
	case facts.Param:
		if p := paramVar(fn.Signature, i); p != nil {
			name, t = p.Name(), p.Type()
		}
	}
	if t == nil || name == "" || name == "_" {
		return ""
	}
	return key.Path().Render(name, t)
}
