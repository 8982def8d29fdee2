package pointer

import (
	"go/token"
	"slices"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/lockset"
	"golang.org/x/tools/go/ssa"
)

// A Frame is one call on a chain of calls from a function that an
// origin runs: the function called, and the call site that called it
// (nil for the first).
type Frame struct {
	Site ssa.CallInstruction
	Fn   *ssa.Function
}

// PointsToInFrames returns the locations reached from v, a value of the
// last frame's function, by the steps of path (none: what v points to),
// when the frames call each other in that order in origin o: in the
// context the analysis gave that chain, where a constructor's objects
// are told apart by the call sites that reach it (the lessor that
// newLessor made for one test, not those of every test). False when the
// analysis has no such context (a chain it did not follow), or no node
// for v in it.
func (r *Result) PointsToInFrames(o *Origin, frames []Frame, v ssa.Value, path facts.Path) ([]Location, bool) {
	a := r.a
	if a == nil || len(frames) == 0 {
		return nil, false
	}
	var nodes []nodeID
	if a.ciContext != nil {
		nodes = a.valueNodes(v, a.inOrigin(o, v.Parent()))
	} else if cg := a.frameNode(o, frames); cg != nil {
		for tag := range int8(merged + 1) {
			if n, ok := cg.values[valueKey{v, tag}]; ok {
				nodes = append(nodes, n)
			}
		}
	}
	if len(nodes) == 0 {
		return nil, false
	}
	addrs, _, ok := a.walkPath(nodes, true, v.Type(), path)
	if !ok {
		return nil, false
	}
	slices.Sort(addrs)
	var locs []Location
	for _, n := range slices.Compact(addrs) {
		locs = append(locs, r.location(n))
	}
	return locs, true
}

// frameNode returns the analysis of the last frame's function in the
// context of the chain of frames in origin o, or nil.
func (a *state) frameNode(o *Origin, frames []Frame) *cgnode {
	none := contextKey{origin: o}
	ctx, ok := a.contexts[none]
	if !ok {
		return nil
	}
	for _, f := range frames[1:] {
		// The context the call was given (see calleeContext): its site
		// when the callee is a factory, none else. Looked up, never made:
		// the Result is read-only.
		next, ok := a.contexts[contextKey{o, [2]ssa.CallInstruction{f.Site, ctx.sites[0]}, chainEntry(ctx)}]
		if !ok || !a.factories[f.Fn] || a.cgnodes[cgKey{f.Fn, next}] == nil {
			next = a.contexts[none]
		}
		ctx = next
	}
	return a.cgnodes[cgKey{frames[len(frames)-1].Fn, ctx}]
}

// maxAddrSteps bounds the steps followed back from a value.
const maxAddrSteps = 32

// PointsToAlong returns what v, a value of the last frame's function,
// may point to (or, for an address, where it may point into) when the
// frames call each other in that order in origin o: a parameter is
// followed back to the argument its caller passed, through fields,
// elements and loads (s.q.reset() gives reset the notifier of the s
// its caller has), and the rest is found with PointsToInFrames. The
// receiver of a method called through an interface is the pointer the
// caller's interface value was made of (transact(&txFunc{run}) calling
// t.run()), followed through the variables go/ssa gives the parameters
// that closures capture (see lockset.Spilled). False when that does not
// tell.
func (r *Result) PointsToAlong(o *Origin, frames []Frame, v ssa.Value) ([]Location, bool) {
	return r.pointsToAlong(o, frames, v, false)
}

// CalleesAlong is PointsToAlong for v, a function or interface value
// that a call calls: a load of the variable go/ssa gives a captured
// parameter is that parameter (a method whose deferred literal captures
// its receiver calls through it what its caller passed).
func (r *Result) CalleesAlong(o *Origin, frames []Frame, v ssa.Value) ([]Location, bool) {
	return r.pointsToAlong(o, frames, v, true)
}

func (r *Result) pointsToAlong(o *Origin, frames []Frame, v ssa.Value, spilled bool) ([]Location, bool) {
	root, steps := stepsTo(v)
	if spilled {
		root, steps = unspilled(root, steps)
	}
	k := len(frames) - 1
	unbox := false // root is an interface value whose dynamic value is wanted
	for {
		if unbox {
			root, steps = unspilled(root, steps)
		}
		if mi, ok := root.(*ssa.MakeInterface); ok && unbox {
			var outer []facts.Step
			root, outer = stepsTo(mi.X)
			steps, unbox = append(outer, steps...), false
			continue
		}
		if k == 0 {
			break
		}
		if fv, ok := root.(*ssa.FreeVar); ok {
			// What a literal captured: the binding where the chain
			// made the closure.
			mc, j := MadeClosure(frames, k)
			if mc == nil || fv.Parent() != frames[k].Fn {
				return nil, false
			}
			var outer []facts.Step
			root, outer = stepsTo(mc.Bindings[slices.Index(frames[k].Fn.FreeVars, fv)])
			steps, k = append(outer, steps...), j
			continue
		}
		p, ok := root.(*ssa.Parameter)
		if !ok {
			break
		}
		f := frames[k]
		i := slices.Index(f.Fn.Params, p)
		if f.Site == nil {
			return nil, false
		}
		common := f.Site.Common()
		args := ParamArgs(common)
		if i < 0 || len(args) != len(f.Fn.Params) {
			return nil, false
		}
		if common.IsInvoke() && i == 0 {
			unbox = true
		}
		var outer []facts.Step
		root, outer = stepsTo(args[i])
		steps, k = append(outer, steps...), k-1
	}
	if unbox {
		return nil, false // a box made elsewhere: its dynamic value is not known here
	}
	path := facts.ParamKey(0)
	for _, s := range steps {
		path = path.Then(s)
	}
	return r.PointsToInFrames(o, frames[:k+1], root, path.Path())
}

// unspilled returns root and steps with a load of the variable go/ssa
// gives a captured parameter replaced by the parameter.
func unspilled(root ssa.Value, steps []facts.Step) (ssa.Value, []facts.Step) {
	if len(steps) > 0 && steps[0].Op == facts.Load {
		if p, ok := lockset.Spilled(root); ok {
			return p, steps[1:]
		}
	}
	return root, steps
}

// GivenRoot reports whether v is what its function's callers gave it,
// or is reached from that through fields, elements and loads: its root
// is a parameter or a free variable (see PointsToAlong).
func GivenRoot(v ssa.Value) bool {
	root, _ := unspilled(stepsTo(v))
	switch root.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		return true
	}
	return false
}

// MadeClosure returns the closure that frame i of a chain of calls runs,
// as the chain made it, and the frame whose function made it: the
// function value that the frame's call site calls, followed back
// through the parameters it was passed in (peekRead(r, n, f) calling
// f(b)), to a MakeClosure of an earlier frame's function; nil when it
// is not one.
func MadeClosure(frames []Frame, i int) (*ssa.MakeClosure, int) {
	site := frames[i].Site
	if site == nil || site.Common().IsInvoke() {
		return nil, 0
	}
	cv := site.Common().Value
	for k := i - 1; k >= 0; k-- {
		switch x := cv.(type) {
		case *ssa.MakeClosure:
			if x.Fn != frames[i].Fn || x.Parent() != frames[k].Fn {
				return nil, 0
			}
			return x, k
		case *ssa.Parameter:
			f := frames[k]
			if x.Parent() != f.Fn || f.Site == nil {
				return nil, 0
			}
			args := ParamArgs(f.Site.Common())
			j := slices.Index(f.Fn.Params, x)
			if j < 0 || len(args) != len(f.Fn.Params) {
				return nil, 0
			}
			cv = args[j]
		default:
			return nil, 0
		}
	}
	return nil, 0
}

// stepsTo returns the value that v is reached from by fields, elements
// and loads, and those steps, first first.
func stepsTo(v ssa.Value) (ssa.Value, []facts.Step) {
	var steps []facts.Step
	for len(steps) < maxAddrSteps {
		var s facts.Step
		switch x := v.(type) {
		case *ssa.FieldAddr:
			s, v = facts.Step{Op: facts.FieldAddr, Index: x.Field}, x.X
		case *ssa.IndexAddr:
			s, v = facts.Step{Op: facts.IndexAddr}, x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				break
			}
			s, v = facts.Step{Op: facts.Load}, x.X
		}
		if s == (facts.Step{}) {
			break
		}
		steps = append(steps, s)
	}
	slices.Reverse(steps)
	return v, steps
}

// ParamArgs returns the values that call binds to its callee's
// parameters, in their order: the receiver of an interface call first.
func ParamArgs(call *ssa.CallCommon) []ssa.Value {
	if call.IsInvoke() {
		return append([]ssa.Value{call.Value}, call.Args...)
	}
	return call.Args
}

// Func returns the function that an object of kind ObjFunc or
// ObjClosure is, or nil.
func (o *Object) Func() *ssa.Function { return o.fn }
