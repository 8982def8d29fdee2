package ownership

import (
	"go/token"
	"slices"

	"github.com/origo-dev/origo/passes/lockset"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/ssa"
)

// A method that sets its object up and then starts a goroutine on it
//
//	func (cr *streamReader) start() {
//		cr.done = make(chan struct{})
//		go cr.run()
//	}
//
// orders its writes before what that goroutine does with its receiver.
// The pointer analysis merges the objects one allocation makes, so the
// goroutine that an earlier call of start runs on another streamReader
// seems to read what a later call writes. It reads its own receiver:
// when every call of start is on an object its caller made for that
// call (p.msgAppReader = &streamReader{...}; p.msgAppReader.start()),
// no two calls run on one object, and the goroutine that reaches the
// written object is the one this call starts, after the write.

// ownSpawn reports whether event x of trace t, an execution of acc, is
// made on the receiver of a method before that method starts, with a
// go statement on the same receiver, the goroutine of trace u in which
// event y, an execution of b, touches that goroutine's own receiver;
// and every call of the method is on an object made for it.
func (q *Query) ownSpawn(t *shb.Trace, x int32, acc pointer.Access, u *shb.Trace, y int32, b pointer.Access) bool {
	if acc.Imported != nil || b.Imported != nil {
		return false
	}
	spawn, ok := q.spawns[u.Origin].(*ssa.Go)
	if !ok || len(spawn.Call.Args) == 0 || spawn.Call.IsInvoke() {
		return false
	}
	// A method that runs once per object started every goroutine of
	// the statement on its object, whoever called it.
	if u.Origin.Parent != t.Origin && !q.runsOnce(spawn.Parent()) {
		return false
	}
	entry := u.Origin.Entry
	if entry.Signature.Recv() == nil || len(entry.Params) == 0 || spawn.Call.StaticCallee() != entry {
		return false
	}
	// y touches a field of its goroutine's receiver.
	fy, ok := u.Frames(y)
	if !ok || len(fy) == 0 {
		return false
	}
	if root, k := fieldRoot(fy, 0, accessedAddr(b)); k != 0 || !sameBase(root, entry.Params[0]) {
		return false
	}
	// x touches a field of the object the go statement runs on, in the
	// call that runs it.
	fx, ok := t.Frames(x)
	if !ok || len(fx) == 0 {
		return false
	}
	k := len(fx) - 1
	for k >= 0 && fx[k].Fn != spawn.Parent() {
		k--
	}
	if root, j := fieldRoot(fx, max(k, 0), accessedAddr(acc)); k < 0 || j != k || !sameBase(root, spawn.Call.Args[0]) {
		return false
	}
	if !q.spawnsAfter(t, x, fx[:k+1], spawn) {
		return false
	}
	return q.runsOnce(fx[k].Fn) || u.Origin.Parent == t.Origin && q.fresh.ownObjects(fx[k].Fn)
}

// fieldRoot returns the value that addr, a value of the last frame's
// function, selects a field of (by fields only: the object itself, not
// one it points to), followed from a parameter to the argument of the
// call of the frame before, down to frame until, and the index of the
// frame that value is in; -1 when addr is no field.
func fieldRoot(frames []pointer.Frame, until int, addr ssa.Value) (ssa.Value, int) {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return nil, -1
	}
	v := fa.X
	for {
		fa, ok := v.(*ssa.FieldAddr)
		if !ok {
			break
		}
		v = fa.X
	}
	k := len(frames) - 1
	for k > until {
		p, ok := unspill(v).(*ssa.Parameter)
		if !ok || frames[k].Site == nil {
			break
		}
		i := slices.Index(frames[k].Fn.Params, p)
		args := pointer.ParamArgs(frames[k].Site.Common())
		if i < 0 || len(args) != len(frames[k].Fn.Params) {
			return nil, -1
		}
		v, k = args[i], k-1
	}
	return v, k
}

// spawnsAfter reports whether trace t runs the go statement spawn after
// event x, in the same call of spawn's function: on the chain of calls
// prefix that x was made in.
func (q *Query) spawnsAfter(t *shb.Trace, x int32, prefix []pointer.Frame, spawn *ssa.Go) bool {
	for _, s := range t.EventsAt(spawn) {
		if s <= x || t.Events[s].Kind != shb.Spawn {
			continue
		}
		fs, ok := t.Frames(s)
		if ok && len(fs) == len(prefix) && slices.Equal(fs, prefix) {
			return true
		}
	}
	return false
}

// ownObjects reports whether every call of method fn in the package and
// its tests is on an object that its caller made for that call: an
// allocation of the caller, or a field of one of its objects that the
// caller set to such an allocation once before the call, with no other
// call of fn on it and no loop around the call that the allocation is
// not in. No two calls of fn then run on one object. There must be a
// call.
func (f *freshness) ownObjects(fn *ssa.Function) bool {
	if v, ok := f.owns[fn]; ok {
		return v
	}
	calls := f.callsOf(fn)
	v := fn.Signature.Recv() != nil && len(fn.Params) > 0 && len(calls) > 0
	made := make(map[*ssa.Alloc]int)
	for _, site := range calls {
		_, args, ok := boundArgs(site, fn)
		if !ok {
			v = false
			break
		}
		alloc := madeForCall(args[0], site)
		if alloc == nil {
			v = false
			break
		}
		made[alloc]++
	}
	for _, n := range made {
		v = v && n == 1
	}
	if f.owns == nil {
		f.owns = make(map[*ssa.Function]bool)
	}
	f.owns[fn] = v
	return v
}

// madeForCall returns the allocation that recv, the receiver of call,
// is, directly or as the one value its caller stored, before the call,
// in the field of a local object it is loaded from; nil when it is not
// one made anew for each run of the call.
func madeForCall(recv ssa.Value, call ssa.CallInstruction) *ssa.Alloc {
	if load, ok := recv.(*ssa.UnOp); ok {
		switch addr := load.X.(type) {
		case *ssa.FieldAddr:
			recv = storedOnce(addr, call)
		case *ssa.Alloc:
			recv = lockset.SoleStore(addr) // a variable a closure captures
		default:
			return nil
		}
	}
	alloc, ok := recv.(*ssa.Alloc)
	if !ok || !alloc.Heap || alloc.Parent() != call.Parent() || !pointer.Dominates(alloc, call) {
		return nil
	}
	// Every path that runs the call again runs the allocation first.
	succs := func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Succs }
	if b := call.Block(); b != alloc.Block() && walkBlocks(b, alloc.Block(), succs)[b] {
		return nil
	}
	return alloc
}

// storedOnce returns the one value that call's function stores into the
// field fa selects, of the same object, before call; else nil.
func storedOnce(fa *ssa.FieldAddr, call ssa.CallInstruction) ssa.Value {
	base := variableValue(fa.X)
	var val ssa.Value
	for _, b := range call.Parent().Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			other, ok := st.Addr.(*ssa.FieldAddr)
			if !ok || other.Field != fa.Field || variableValue(other.X) != base {
				continue
			}
			if val != nil || !pointer.Dominates(st, call) {
				return nil
			}
			val = st.Val
		}
	}
	return val
}

// variableValue returns what v loads when it loads a variable that is
// stored once (p := &peer{}, captured by a closure); else v.
func variableValue(v ssa.Value) ssa.Value {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if cell, ok := load.X.(*ssa.Alloc); ok {
			if val := lockset.SoleStore(cell); val != nil {
				return val
			}
		}
	}
	return v
}
