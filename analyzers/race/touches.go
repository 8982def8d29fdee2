package race

import (
	"go/token"
	"slices"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// The pointer analysis merges what the callers of a function give it,
// so an access in a helper seems to touch every object that any caller
// passes: Init, called on the notifier of a lessor literal in one test,
// meets the runLoop of another test's lessor. Each event of a trace
// notes the chain of calls the walk made it in (shb.Trace.Frames); there
// the access's address is followed from the caller's own argument, in
// the context where a constructor's objects are told apart by call site.
// An event that cannot touch the object of a pair is no part of it.

// touches reports whether event x of trace t, an execution of acc, may
// touch obj: true unless its chain shows it cannot.
func (c *checker) touches(t *shb.Trace, x int32, acc pointer.Access, obj *pointer.Object) bool {
	k := touchKey{t, x, acc.Instr, acc.Write}
	objs, ok := c.touched[k]
	if !ok {
		objs = c.touchedBy(t, x, acc)
		if c.touched == nil {
			c.touched = make(map[touchKey]map[*pointer.Object]bool)
		}
		c.touched[k] = objs
	}
	return objs == nil || objs[obj]
}

type touchKey struct {
	t     *shb.Trace
	x     int32
	instr ssa.Instruction
	write bool
}

// touchedBy returns the objects that event x of trace t, an execution of
// acc, may touch; nil when its chain does not tell.
func (c *checker) touchedBy(t *shb.Trace, x int32, acc pointer.Access) map[*pointer.Object]bool {
	if acc.Imported != nil {
		return nil
	}
	addr := accessedAddr(acc)
	if addr == nil {
		return nil
	}
	frames, ok := t.Frames(x)
	if !ok || len(frames) == 0 || frames[len(frames)-1].Fn != acc.Instr.Parent() {
		return nil
	}
	root, steps := addrPath(addr)
	k := len(frames) - 1
	for k > 0 {
		p, ok := root.(*ssa.Parameter)
		if !ok {
			break
		}
		f := frames[k]
		i := slices.Index(f.Fn.Params, p)
		common := f.Site.Common()
		args := common.Args
		if common.IsInvoke() {
			args = append([]ssa.Value{common.Value}, args...)
		}
		if i < 0 || len(args) != len(f.Fn.Params) {
			return nil
		}
		var outer []facts.Step
		root, outer = addrPath(args[i])
		steps, k = append(outer, steps...), k-1
	}
	path := facts.ParamKey(0)
	for _, s := range steps {
		path = path.Then(s)
	}
	locs, ok := c.ptr.PointsToInFrames(t.Origin, frames[:k+1], root, path.Path())
	if !ok {
		return nil
	}
	objs := make(map[*pointer.Object]bool)
	for _, l := range locs {
		objs[l.Obj] = true
	}
	return objs
}

// maxAddrSteps bounds the steps followed back from an address.
const maxAddrSteps = 16

// addrPath returns the value that v is reached from by fields, elements
// and loads, and those steps, first first.
func addrPath(v ssa.Value) (ssa.Value, []facts.Step) {
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
				return v, reversed(steps)
			}
			s, v = facts.Step{Op: facts.Load}, x.X
		default:
			return v, reversed(steps)
		}
		steps = append(steps, s)
	}
	return v, reversed(steps)
}

func reversed(steps []facts.Step) []facts.Step {
	slices.Reverse(steps)
	return steps
}
