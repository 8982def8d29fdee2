package ownership

import (
	"go/token"
	"slices"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/pointer"
	"github.com/origo-dev/origo/passes/shb"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// An object that a goroutine takes from a sync.Pool
//
//	b := bufPool.Get().(*bytes.Buffer)
//	b.Reset()
//	b.WriteString(s)
//	bufPool.Put(b)
//
// is its own until it puts it back: a Get never returns an object that
// another goroutine holds, and a Put happens before the Get that returns
// what it put (the race detector orders them so). The pointer analysis
// gives every Get what every Put gave the pool, so the goroutines that
// use one pool seem to share their buffers. Two accesses that each reach
// the object through a value their goroutine took from a pool (a Get, or
// a call of a function of the package that returns one), before that
// goroutine puts the value back, are no race. An access after the Put
// (p.Put(x); x[0] = 3) races as usual: the object may be another
// goroutine's by then.

// poolTaken reports whether event x of trace t, an execution of acc,
// reaches its object through a value taken from a sync.Pool, before its
// goroutine puts that value back.
func (q *Query) poolTaken(t *shb.Trace, x int32, acc pointer.Access) bool {
	k := touchKey{t, x, acc.Instr, acc.Write}
	if v, ok := q.pooled[k]; ok {
		return v
	}
	v := q.findPoolTaken(t, x, acc)
	if q.pooled == nil {
		q.pooled = make(map[touchKey]bool)
	}
	q.pooled[k] = v
	return v
}

func (q *Query) findPoolTaken(t *shb.Trace, x int32, acc pointer.Access) bool {
	addr := q.accessBase(acc)
	if addr == nil {
		return false
	}
	// The chain of calls that led to the event tells which caller gave a
	// parameter; an event that stands for several chains (a function
	// walked once for several calls) asks every caller.
	frames, ok := t.Frames(x)
	if !ok || len(frames) == 0 || frames[len(frames)-1].Fn != acc.Instr.Parent() {
		frames = nil
	}
	return q.takenAt(addr, acc.Instr, frames, 0)
}

// takenAt reports whether v, a value of the function of at, was taken
// from a sync.Pool by that function or, through a parameter, by its
// caller (the one of the chain frames when known, or else every caller
// the pointer analysis finds, maxPoolWrapDepth deep), and not put back
// on a path to at, nor on a path to the call in any caller on the way.
func (q *Query) takenAt(v ssa.Value, at ssa.Instruction, frames []pointer.Frame, depth int) bool {
	fn := at.Parent()
	d := poolDerivation{q: q, seen: make(map[ssa.Value]bool)}
	root, ok := d.from(v)
	if !ok || root == nil || q.putBefore(fn, root, d.defs, at) {
		return false
	}
	p, isParam := root.(*ssa.Parameter)
	if !isParam {
		return true
	}
	i := slices.Index(fn.Params, p)
	if len(frames) > 1 {
		site := frames[len(frames)-1].Site
		if site == nil {
			return false
		}
		return q.takenAtCall(site, i, len(fn.Params), frames[:len(frames)-1], depth)
	}
	if depth >= maxPoolWrapDepth {
		return false
	}
	q.fresh.findCallers()
	sites := q.fresh.callers[fn]
	if q.fresh.entries[fn] || len(sites) == 0 {
		return false // a root, or a goroutine's entry: callers not seen
	}
	for _, site := range sites {
		if !q.takenAtCall(site, i, len(fn.Params), nil, depth+1) {
			return false
		}
	}
	return true
}

// takenAtCall reports whether the call site gives its callee's
// parameter i (of n) a value taken from a pool and not put back before
// the call (see takenAt).
func (q *Query) takenAtCall(site ssa.CallInstruction, i, n int, frames []pointer.Frame, depth int) bool {
	if _, isCall := site.(*ssa.Call); !isCall || i < 0 {
		return false // a go or defer statement takes it elsewhere
	}
	args := pointer.ParamArgs(site.Common())
	if len(args) != n {
		return false
	}
	return q.takenAt(args[i], site, frames, depth)
}

// accessBase returns the value that acc reaches its memory through: the
// address it loads or stores, or, for the accesses of another package's
// function, the argument its access is rooted at.
func (q *Query) accessBase(acc pointer.Access) ssa.Value {
	if acc.Imported == nil {
		return accessedAddr(acc)
	}
	call, ok := acc.Instr.(ssa.CallInstruction)
	if !ok || q.effects == nil {
		return nil
	}
	ops := q.effects.Imported(acc.Imported.Func)
	if acc.Imported.Index >= len(ops) {
		return nil
	}
	root, i, _ := ops[acc.Imported.Index].Key.Root()
	args := pointer.ParamArgs(call.Common())
	if root != facts.Param || i >= len(args) {
		return nil
	}
	return args[i]
}

// poolDerivation follows a value of one function back to the pool take
// it is reached from, by fields, elements, loads and conversions, and
// through a phi whose other edges are nil or made in the function (b, _
// := p.Get().(*T); if b == nil { b = new(T) }), or to the parameter it
// is reached from.
type poolDerivation struct {
	q     *Query
	seen  map[ssa.Value]bool
	steps int
	defs  []ssa.Instruction // the phis the value went through
}

// from returns the take or parameter v is reached from; ok is false
// when v is reached from anything else. root is nil when v is only made
// here, or met again on a cycle.
func (d *poolDerivation) from(v ssa.Value) (root ssa.Value, ok bool) {
	if d.seen[v] {
		return nil, true
	}
	d.seen[v] = true
	if d.steps++; d.steps > maxDerivationSteps {
		return nil, false
	}
	switch v := v.(type) {
	case *ssa.Call:
		if d.q.poolGetter(v.Common(), 0) {
			return v, true
		}
		return nil, false
	case *ssa.Parameter:
		return v, true
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return nil, false
		}
		return d.from(v.X)
	case *ssa.FieldAddr:
		return d.from(v.X)
	case *ssa.IndexAddr:
		return d.from(v.X)
	case *ssa.Field:
		return d.from(v.X)
	case *ssa.Index:
		return d.from(v.X)
	case *ssa.Slice:
		return d.from(v.X)
	case *ssa.ChangeType:
		return d.from(v.X)
	case *ssa.TypeAssert:
		return d.from(v.X)
	case *ssa.Extract:
		if ta, isAssert := v.Tuple.(*ssa.TypeAssert); isAssert && v.Index == 0 {
			return d.from(ta)
		}
	case *ssa.Phi:
		var root ssa.Value
		for _, e := range v.Edges {
			if c, isConst := e.(*ssa.Const); isConst && c.IsNil() || made(e) {
				continue
			}
			r, ok := d.from(e)
			if !ok || r != nil && root != nil && r != root {
				return nil, false
			}
			if r != nil {
				root = r
			}
		}
		d.defs = append(d.defs, v)
		return root, true
	}
	return nil, false
}

// made reports whether v is an object the function makes.
func made(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Alloc:
		return v.Heap
	case *ssa.MakeSlice, *ssa.MakeMap, *ssa.MakeChan:
		return true
	}
	return false
}

// maxPoolWrapDepth bounds the functions followed into to find a Get or
// a Put behind a helper (getBuf() returning pool.Get().(*buf)).
const maxPoolWrapDepth = 2

// poolGetter reports whether call takes an object from a sync.Pool: a
// Get, or a call of a function of the package whose results are each
// one, or an object it makes (if v := p.Get(); v != nil { return
// v.(*T) }; return &T{}), at least one taken (followed maxPoolWrapDepth
// deep).
func (q *Query) poolGetter(call *ssa.CallCommon, depth int) bool {
	if op, _ := syncapi.Pool(call); op == syncapi.PoolGet {
		return true
	}
	fn := call.StaticCallee()
	if depth >= maxPoolWrapDepth || fn == nil || fn.Pkg == nil || fn.Pkg.Pkg != q.pkg || len(fn.Blocks) == 0 || fn.Signature.Results().Len() != 1 {
		return false
	}
	taken := false
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		switch v := ret.Results[0]; {
		case q.takenValue(v, depth+1, 0):
			taken = true
		case made(v):
		default:
			return false
		}
	}
	return taken
}

// takenValue reports whether v, a result of a getter, is what a pool
// take returned, through conversions.
func (q *Query) takenValue(v ssa.Value, depth, steps int) bool {
	if steps > 8 {
		return false
	}
	switch v := v.(type) {
	case *ssa.Call:
		return q.poolGetter(v.Common(), depth)
	case *ssa.TypeAssert:
		return q.takenValue(v.X, depth, steps+1)
	case *ssa.Extract:
		if ta, ok := v.Tuple.(*ssa.TypeAssert); ok && v.Index == 0 {
			return q.takenValue(ta, depth, steps+1)
		}
	case *ssa.ChangeType:
		return q.takenValue(v.X, depth, steps+1)
	case *ssa.Phi:
		taken := false
		for _, e := range v.Edges {
			switch {
			case q.takenValue(e, depth, steps+1):
				taken = true
			case made(e):
			default:
				return false
			}
		}
		return taken
	}
	return false
}

// putBefore reports whether fn may have put the value root (a take or a
// parameter) back before at: a path from a Put of it (or a call of a
// function of the package that puts its argument) reaches at without
// taking the value again (through root or one of defs).
func (q *Query) putBefore(fn *ssa.Function, root ssa.Value, defs []ssa.Instruction, at ssa.Instruction) bool {
	var puts []ssa.Instruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if q.putsTaken(call.Common(), root, 0) {
				puts = append(puts, call)
			}
		}
	}
	if len(puts) == 0 {
		return false
	}
	stop := defs
	if instr, ok := root.(ssa.Instruction); ok {
		stop = append([]ssa.Instruction{instr}, defs...)
	}
	return reachesAvoiding(puts, at, stop)
}

// putsTaken reports whether call puts back the value root took: a Put
// of it, or a call of a function of the package that puts the argument
// it gives (maxPoolWrapDepth deep).
func (q *Query) putsTaken(call *ssa.CallCommon, root ssa.Value, depth int) bool {
	if op, _ := syncapi.Pool(call); op == syncapi.PoolPut {
		return fromRoot(call.Args[1], root, 0)
	}
	fn := call.StaticCallee()
	if depth >= maxPoolWrapDepth || fn == nil || fn.Pkg == nil || fn.Pkg.Pkg != q.pkg || len(fn.Blocks) == 0 {
		return false
	}
	for i, a := range call.Args {
		if i >= len(fn.Params) || !fromRoot(a, root, 0) {
			continue
		}
		if q.putsParam(fn, fn.Params[i], depth+1) {
			return true
		}
	}
	return false
}

// putsParam reports whether fn puts its parameter p back in a pool, or
// passes it to a function of the package that does.
func (q *Query) putsParam(fn *ssa.Function, p *ssa.Parameter, depth int) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			common := call.Common()
			if op, _ := syncapi.Pool(common); op == syncapi.PoolPut {
				if fromRoot(common.Args[1], p, 0) {
					return true
				}
				continue
			}
			callee := common.StaticCallee()
			if depth >= maxPoolWrapDepth || callee == nil || callee.Pkg == nil || callee.Pkg.Pkg != q.pkg {
				continue
			}
			for i, a := range common.Args {
				if i < len(callee.Params) && fromRoot(a, p, 0) && q.putsParam(callee, callee.Params[i], depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// fromRoot reports whether v is root, through conversions and phis.
func fromRoot(v, root ssa.Value, steps int) bool {
	if steps > 8 {
		return false
	}
	if v == root {
		return true
	}
	switch x := v.(type) {
	case *ssa.MakeInterface:
		return fromRoot(x.X, root, steps+1)
	case *ssa.ChangeType:
		return fromRoot(x.X, root, steps+1)
	case *ssa.ChangeInterface:
		return fromRoot(x.X, root, steps+1)
	case *ssa.TypeAssert:
		return fromRoot(x.X, root, steps+1)
	case *ssa.Extract:
		if ta, ok := x.Tuple.(*ssa.TypeAssert); ok && x.Index == 0 {
			return fromRoot(ta, root, steps+1)
		}
	case *ssa.Phi:
		for _, e := range x.Edges {
			if fromRoot(e, root, steps+1) {
				return true
			}
		}
	}
	return false
}

// reachesAvoiding reports whether a path of the function's control
// flow leads from after one of the instructions from to to, without
// passing an instruction of stop.
func reachesAvoiding(from []ssa.Instruction, to ssa.Instruction, stop []ssa.Instruction) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	var work []*ssa.BasicBlock
	// scan walks block b from instruction index i: true when it meets
	// to first; it queues the successors unless it meets a stop.
	scan := func(b *ssa.BasicBlock, i int) bool {
		for _, instr := range b.Instrs[i:] {
			if instr == to {
				return true
			}
			if slices.Contains(stop, instr) {
				return false
			}
		}
		for _, s := range b.Succs {
			if !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
		return false
	}
	for _, f := range from {
		b := f.Block()
		if scan(b, slices.Index(b.Instrs, f)+1) {
			return true
		}
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if scan(b, 0) {
			return true
		}
	}
	return false
}

// usedAfterPut reports whether acc reaches its object through a value
// its function took from a sync.Pool, after a path that put the value
// back: the pool may have given the object to another goroutine by
// then, which is evidence that the goroutines share it.
func (q *Query) usedAfterPut(acc pointer.Access) bool {
	addr := q.accessBase(acc)
	if addr == nil {
		return false
	}
	d := poolDerivation{q: q, seen: make(map[ssa.Value]bool)}
	root, ok := d.from(addr)
	if !ok || root == nil {
		return false
	}
	return q.putBefore(acc.Instr.Parent(), root, d.defs, acc.Instr)
}
