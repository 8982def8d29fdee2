package blocking

import (
	"cmp"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/origo-dev/origo/analyzers/internal/blocks"
	"github.com/origo-dev/origo/analyzers/kinds"
	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/rules"
	"github.com/origo-dev/origo/passes/shb"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// A WaitGroup.Wait whose counter something raises but nothing lowers,
// and a Cond.Wait that nothing signals, never return. As for channels,
// only a WaitGroup or Cond that the package makes, that no package
// variable reaches and that is not given to code the analysis cannot
// see, is judged, and its partners are the calls of the package's code
// on it, wherever they run.

// syncKey is what the partners of a WaitGroup or Cond are found by: the
// place that makes the object holding it, and its field there.
type syncKey struct {
	site any
	leaf int
}

func keyOf(l pointer.Location) syncKey {
	if l.Obj.Site != nil {
		return syncKey{l.Obj.Site, l.Leaf}
	}
	return syncKey{l.Obj, l.Leaf}
}

// waitOps are the calls of the package's code on one WaitGroup or Cond,
// and where the first Done and Signal are (for -why).
type waitOps struct {
	adds, dones, signals bool
	doneAt, signalAt     token.Pos
}

// saw records an operation of kind (1 add, 2 done, 3 signal) at pos.
func (o *waitOps) saw(kind int, pos token.Pos) {
	switch kind {
	case 1:
		o.adds = true
	case 2:
		if !o.dones {
			o.doneAt = pos
		}
		o.dones = true
	case 3:
		if !o.signals {
			o.signalAt = pos
		}
		o.signals = true
	}
}

// waits reports the Waits that nothing can end.
func (c *checker) waits() {
	ops := make(map[syncKey]*waitOps)
	// A Done or Signal on an object the pointer analysis cannot name
	// may end any Wait; when it reaches the object through a struct
	// field (s.wg, p.cond), only the Waits on that field's, or on
	// objects reached another way.
	unknownDone, unknownSignal := false, false
	var unknownAt [4]token.Pos                // where the first unknown Done and Signal are
	unknownFields := make(map[*types.Var]int) // field → kinds (1<<2 done, 1<<3 signal)
	fieldAt := make(map[*types.Var][4]token.Pos)
	op := func(k syncKey) *waitOps {
		o := ops[k]
		if o == nil {
			o = new(waitOps)
			ops[k] = o
		}
		return o
	}
	escaped := make(map[syncKey]bool)
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var v ssa.Value
				kind := 0 // 1 add, 2 done, 3 signal
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					// A method value, wg.Done or c.Broadcast, handed to
					// code that calls it later (time.AfterFunc(d, wg.Done)).
					v, kind = boundSyncMethod(mc)
				}
				call, ok := instr.(ssa.CallInstruction)
				if !ok && kind == 0 {
					continue
				}
				var cc *ssa.CallCommon
				if ok {
					cc = call.Common()
				}
				if cc == nil {
					// a method value: v and kind are set
				} else if wop, wg := syncapi.WaitGroup(cc); wop != syncapi.NotWaitGroup {
					v = wg
					switch {
					case wop == syncapi.WaitGroupDone:
						kind = 2
					case wop == syncapi.WaitGroupAdd:
						kind = 1
						if k, ok := cc.Args[len(cc.Args)-1].(*ssa.Const); !ok || k.Value == nil || constant.Sign(k.Value) <= 0 {
							kind = 2 // Add(-1), Add(n): may lower the counter
						}
					}
				} else if name, wg := goMethod(cc); name {
					v, kind = wg, 2 // WaitGroup.Go: Add and Done
				} else if cop, cond := syncapi.Cond(cc); cop != syncapi.NotCond {
					if cop != syncapi.CondWait {
						v, kind = cond, 3
					}
				} else {
					for _, l := range c.passedOut(call, syncType) {
						escaped[keyOf(l)] = true
					}
					// What another package's function does to the
					// WaitGroups and Conds it contains: its effect.
					for _, io := range c.importedWaitOps(cc) {
						for _, l := range c.pointsToAnywhere(io.v) {
							op(keyOf(l)).saw(io.kind, instr.Pos())
						}
					}
				}
				if kind == 0 {
					continue
				}
				locs := c.pointsToAnywhere(v)
				if len(locs) == 0 {
					if f := syncField(v); f != nil {
						if unknownFields[f]&(1<<kind) == 0 {
							at := fieldAt[f]
							at[kind] = instr.Pos()
							fieldAt[f] = at
						}
						unknownFields[f] |= 1 << kind
						continue
					}
					if kind == 2 && !unknownDone || kind == 3 && !unknownSignal {
						unknownAt[kind] = instr.Pos()
					}
					unknownDone = unknownDone || kind == 2
					unknownSignal = unknownSignal || kind == 3
				}
				for _, l := range locs {
					op(keyOf(l)).saw(kind, instr.Pos())
				}
			}
		}
	}
	for obj := range c.globalObjects() {
		if obj.Site != nil {
			escaped[syncKey{obj.Site, -1}] = true
		}
		escaped[syncKey{obj, 0}] = true
	}
	judged := func(l pointer.Location) bool {
		if escaped[keyOf(l)] || l.Obj.Site != nil && escaped[syncKey{l.Obj.Site, -1}] {
			return false
		}
		if l.Obj.Kind == pointer.ObjUnknown && l.Obj.ImportedType() == "sync.Cond" {
			return true // sync.NewCond's, made at a call of the package's
		}
		instr, ok := l.Obj.Site.(ssa.Instruction)
		return ok && instr.Parent() != nil && instr.Parent().Pkg == c.pkg
	}
	for _, t := range c.hb.Traces {
		for i := range t.Events {
			ev := &t.Events[i]
			if ev.Kind != shb.WGWait && ev.Kind != shb.CondWait || c.reported[ev.Instr] {
				continue
			}
			call, ok := ev.Instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			var v ssa.Value
			if ev.Kind == shb.WGWait {
				if wop, wg := syncapi.WaitGroup(call.Common()); wop == syncapi.WaitGroupWait {
					v = wg
				}
			} else if cop, cond := syncapi.Cond(call.Common()); cop == syncapi.CondWait {
				v = cond
			}
			in := "" // the function of another package that waits
			if v == nil {
				if v = c.importedWaitee(call.Common(), ev.Kind); v == nil {
					continue
				}
				in = " in " + facts.ShortName(call.Common().StaticCallee().String())
			}
			explain := c.why.at(call.Pos())
			var q string
			if explain {
				q = fmt.Sprintf("WaitGroup.Wait blocks forever? %s waits for %s%s, and nothing may call Done on it", c.goroutine(t), c.valueName(v, "it"), in)
				if ev.Kind == shb.CondWait {
					q = fmt.Sprintf("Cond.Wait blocks forever? %s waits on %s%s, and nothing may signal it", c.goroutine(t), c.valueName(v, "it"), in)
				}
			}
			locs := c.ptr.PointsToIn(c.callerOrigin(t, call), v)
			if len(locs) == 0 {
				if explain {
					c.why.note(call.Pos(), q, why(rules.OutOfView, "the analysis cannot name what %s is", c.valueName(v, "it")))
				}
				continue
			}
			added, ended := false, false
			r := rules.None // what ended it, for -why
			for _, l := range locs {
				if !judged(l) {
					ended = true
					if explain {
						r = why(rules.OutOfView, "%s is reached from a package variable, or given to code the analysis cannot see", c.valueName(v, "it"))
					}
					break
				}
				if o := ops[keyOf(l)]; o != nil {
					added = added || o.adds
					switch {
					case o.dones && ev.Kind == shb.WGWait:
						ended = true
						if explain {
							r = cmp.Or(r, why(rules.Partner, "the Done at %s", c.pos(o.doneAt)))
						}
					case o.signals && ev.Kind == shb.CondWait:
						ended = true
						if explain {
							r = cmp.Or(r, why(rules.Partner, "the Signal or Broadcast at %s", c.pos(o.signalAt)))
						}
					}
				}
			}
			unknownDone, unknownSignal := unknownDone, unknownSignal
			unknownAt := unknownAt
			if f := syncField(v); f != nil {
				unknownDone = unknownDone || unknownFields[f]&(1<<2) != 0
				unknownSignal = unknownSignal || unknownFields[f]&(1<<3) != 0
				unknownAt = cmpAt(unknownAt, fieldAt[f])
			} else {
				// Reached another way (a local, a parameter): the fields
				// the package stores its objects into count.
				for f, kinds := range unknownFields {
					if c.storedInto(f, locs) {
						unknownDone = unknownDone || kinds&(1<<2) != 0
						unknownSignal = unknownSignal || kinds&(1<<3) != 0
						unknownAt = cmpAt(unknownAt, fieldAt[f])
					}
				}
			}
			who := c.goroutine(t)
			if c.callerOrigin(t, call) != t.Origin {
				who = "the goroutine started here" // by this go statement: the report is at it
			}
			switch {
			case ev.Kind == shb.WGWait && added && !ended && !unknownDone:
				c.report(kinds.WaitGroupBlocks, call, call.Pos(), c.startedAt(t), "WaitGroup.Wait blocks forever: %s waits for %s%s, whose counter Add raises, but nothing calls Done on it", who, c.valueName(v, "it"), in)
			case ev.Kind == shb.CondWait && !ended && !unknownSignal:
				c.report(kinds.CondWaitBlocks, call, call.Pos(), c.startedAt(t), "Cond.Wait blocks forever: %s waits on %s%s, which nothing signals (no Signal or Broadcast on it)", who, c.valueName(v, "it"), in)
			case !explain:
			case ended:
				c.why.note(call.Pos(), q, r)
			case ev.Kind == shb.WGWait && unknownDone:
				c.why.note(call.Pos(), q, why(rules.Partner, "a Done at %s, on a WaitGroup the analysis cannot name (in code that may run on this one), may be on it", c.pos(unknownAt[2])))
			case ev.Kind == shb.CondWait && unknownSignal:
				c.why.note(call.Pos(), q, why(rules.Partner, "a Signal or Broadcast at %s, on a Cond the analysis cannot name (in code that may run on this one), may be on it", c.pos(unknownAt[3])))
			case ev.Kind == shb.WGWait && !added:
				c.why.note(call.Pos(), q, why(rules.Counted, "nothing in the package calls Add on %s", c.valueName(v, "it")))
			}
		}
	}
}

// cmpAt returns the positions of a, and of b where a has none.
func cmpAt(a, b [4]token.Pos) [4]token.Pos {
	for i := range a {
		a[i] = cmp.Or(a[i], b[i])
	}
	return a
}

// storedInto reports whether the package's code stores a pointer to one
// of locs into struct field f.
func (c *checker) storedInto(f *types.Var, locs []pointer.Location) bool {
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok || fieldVar(st.Addr) != f {
					continue
				}
				for _, l := range c.pointsToAnywhere(st.Val) {
					if slices.Contains(locs, l) {
						return true
					}
				}
			}
		}
	}
	return false
}

// syncField returns the struct field that the WaitGroup or Cond v is
// (&s.wg) or is loaded from (p.cond), or nil.
func syncField(v ssa.Value) *types.Var {
	if f := fieldVar(v); f != nil {
		return f
	}
	return sourceField(v, maxSourceDepth)
}

// boundSyncMethod recognizes a method value of a WaitGroup (Done, Add,
// Go) or a Cond (Signal, Broadcast) and returns its receiver and the
// kind of operation: 2 for what may lower a counter, 3 for a signal.
func boundSyncMethod(mc *ssa.MakeClosure) (ssa.Value, int) {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok || len(mc.Bindings) != 1 || !syncType(mc.Bindings[0].Type()) {
		return nil, 0
	}
	switch strings.TrimSuffix(fn.Name(), "$bound") {
	case "Done", "Add", "Go":
		return mc.Bindings[0], 2
	case "Signal", "Broadcast":
		return mc.Bindings[0], 3
	}
	return nil, 0
}

// goMethod recognizes a call of (*sync.WaitGroup).Go and returns the
// WaitGroup.
func goMethod(call *ssa.CallCommon) (bool, ssa.Value) {
	fn := call.StaticCallee()
	if fn == nil || fn.Signature.Recv() == nil || fn.Name() != "Go" || len(call.Args) == 0 || !syncType(call.Args[0].Type()) {
		return false, nil
	}
	return true, call.Args[0]
}

// syncType reports whether t is a pointer to a sync.WaitGroup or a
// sync.Cond.
func syncType(t types.Type) bool { return syncapi.PointerTo(t, "WaitGroup", "Cond") }

// waitsInStartLoop reports a WaitGroup.Wait in the loop that starts the
// goroutines it waits for, when the Add that counts them all comes
// before the loop:
//
//	wg.Add(len(plugins))
//	for _, p := range plugins {
//		go func() { defer wg.Done(); ... }()
//		wg.Wait()
//	}
//
// The first Wait waits for goroutines that only the next iterations
// would start: with two or more, it never returns.
func (c *checker) waitsInStartLoop() {
	for _, fn := range c.funcs {
		var adds, waits []ssa.CallInstruction
		var spawns []*ssa.Go
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if g, ok := instr.(*ssa.Go); ok {
					spawns = append(spawns, g)
				}
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				switch op, _ := syncapi.WaitGroup(call.Common()); op {
				case syncapi.WaitGroupAdd:
					adds = append(adds, call)
				case syncapi.WaitGroupWait:
					waits = append(waits, call)
				}
			}
		}
		for _, w := range waits {
			_, wg := syncapi.WaitGroup(w.Common())
			inLoop := func(instr ssa.Instruction) bool {
				return blocks.Reaches(w.Block(), instr.Block()) && blocks.Reaches(instr.Block(), w.Block())
			}
			if !blocks.OnCycle(w.Block()) {
				continue
			}
			var add ssa.CallInstruction
			ok := true
			for _, a := range adds {
				if _, v := syncapi.WaitGroup(a.Common()); v != wg {
					continue
				}
				if inLoop(a) || add != nil || !a.Block().Dominates(w.Block()) || !countsSeveral(a.Common().Args[len(a.Common().Args)-1]) {
					if c.why.at(w.Pos()) && (inLoop(a) || !countsSeveral(a.Common().Args[len(a.Common().Args)-1])) {
						what := "in the loop, counts the goroutines of its iteration"
						if !inLoop(a) {
							what = "counts one goroutine"
						}
						c.why.note(w.Pos(), "WaitGroup.Wait blocks forever? it waits in a loop, for goroutines an Add counted", why(rules.Counted, "the Add at %s %s", c.pos(a.Pos()), what))
					}
					ok = false
					break
				}
				add = a
			}
			if !ok || add == nil {
				continue
			}
			var spawn *ssa.Go
			for _, g := range spawns {
				if inLoop(g) && doneOn(g, wg) {
					spawn = g
					break
				}
			}
			if spawn == nil {
				continue
			}
			rel := slices.Concat(c.related(add.Pos(), "Add counts them all here"), c.related(spawn.Pos(), "the loop starts them here, one per iteration"))
			c.report(kinds.WaitGroupBlocks, w, w.Pos(), rel, "WaitGroup.Wait blocks forever: it waits in the loop that starts the goroutines it waits for (at %s), but the Add at %s counted them all before the loop: the first Wait waits for goroutines only later iterations would start, and with two or more never returns; wait after the loop",
				c.pos(spawn.Pos()), c.pos(add.Pos()))
		}
	}
}

// countsSeveral reports whether an Add's delta may be two or more: not
// a constant below two.
func countsSeveral(delta ssa.Value) bool {
	if ct, ok := delta.(*ssa.Convert); ok {
		delta = ct.X
	}
	k, ok := delta.(*ssa.Const)
	return !ok || k.Value != nil && k.Value.Kind() == constant.Int && k.Int64() >= 2
}

// doneOn reports whether the goroutine that g starts, a closure or a
// function of the package, calls Done on wg, captured or passed.
func doneOn(g *ssa.Go, wg ssa.Value) bool {
	var fn *ssa.Function
	var inner ssa.Value
	switch v := g.Call.Value.(type) {
	case *ssa.MakeClosure:
		fn = v.Fn.(*ssa.Function)
		if i := slices.Index(v.Bindings, wg); i >= 0 {
			inner = fn.FreeVars[i]
		}
	case *ssa.Function:
		fn = v
		if i := slices.Index(g.Call.Args, wg); i >= 0 && i < len(fn.Params) {
			inner = fn.Params[i]
		}
	}
	if fn == nil || inner == nil {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				if op, v := syncapi.WaitGroup(call.Common()); op == syncapi.WaitGroupDone && v == inner {
					return true
				}
			}
		}
	}
	return false
}

// waitOp is a Done (kind 2) or Signal (kind 3) on the caller's value v.
type waitOp struct {
	v    ssa.Value
	kind int
}

// importedWaitOps returns the Dones (an Add too, whose sign the effect
// does not keep) and Signals that call, a call of another package's
// function, makes on the WaitGroups and Conds it is given and contains.
func (c *checker) importedWaitOps(call *ssa.CallCommon) []waitOp {
	fn := call.StaticCallee()
	if fn == nil || c.eff == nil || c.eff.Contained(fn) == 0 {
		return nil
	}
	var out []waitOp
	for _, op := range c.eff.Imported(fn) {
		kind := 0
		switch op.Sync {
		case facts.SyncAdd, facts.SyncDone:
			kind = 2
		case facts.SyncCondSignal:
			kind = 3
		default:
			continue
		}
		if i, ok := paramOf(op.Key); ok && i < len(call.Args) {
			out = append(out, waitOp{call.Args[i], kind})
		}
	}
	return out
}

// importedWaitee returns the argument of call, a call of another
// package's function, that the function waits on (a WaitGroup.Wait or
// Cond.Wait of its effect, for an event of kind), when it contains it.
func (c *checker) importedWaitee(call *ssa.CallCommon, kind shb.Kind) ssa.Value {
	fn := call.StaticCallee()
	if fn == nil || c.eff == nil {
		return nil
	}
	contained := c.eff.Contained(fn)
	for _, op := range c.eff.Imported(fn) {
		if !(op.Sync == facts.SyncWait && kind == shb.WGWait || op.Sync == facts.SyncCondWait && kind == shb.CondWait) {
			continue
		}
		if i, ok := paramOf(op.Key); ok && i < len(call.Args) && i < 64 && contained&(1<<i) != 0 {
			return call.Args[i]
		}
	}
	return nil
}

// callerOrigin returns the origin whose values call's arguments are in
// t's goroutine: t's own, or, for the go statement that starts t running
// a function of another package, the starter's.
func (c *checker) callerOrigin(t *shb.Trace, call ssa.CallInstruction) *pointer.Origin {
	if t.Origin.Parent != nil && c.ptr.ImportedEntry(t.Origin) == call {
		return t.Origin.Parent
	}
	return t.Origin
}

// paramOf returns the parameter (the receiver first) that key k of an
// imported function's effect is, the object itself and not one it
// reaches; false for other keys.
func paramOf(k facts.Key) (int, bool) {
	root, i, _ := k.Root()
	return i, root == facts.Param && k.Path().IsEmpty()
}
