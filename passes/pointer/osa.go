package pointer

import (
	"cmp"
	"go/constant"
	"go/token"
	"go/types"
	"iter"
	"slices"

	"github.com/origo-dev/origo/passes/dataflow"
	"github.com/origo-dev/origo/passes/effects"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/container/intsets"
	"golang.org/x/tools/go/ssa"
)

// Access is one read or write of memory by an instruction, in one
// origin, of one location.
type Access struct {
	Instr  ssa.Instruction
	Origin *Origin
	Loc    Location
	Write  bool
	Atomic bool
	// Imported is set for an access that a function of another package makes
	// when Instr calls it.
	Imported *Imported
	// Copied marks an append's read of its first operand's elements: it
	// has no room and copies them into a new array (its other reads are
	// of what it appends).
	Copied bool
	node   nodeID
}

// Pos returns the position of the access.
func (acc Access) Pos() token.Pos {
	if pos := acc.Instr.Pos(); pos.IsValid() {
		return pos
	}
	if v, ok := acc.Instr.(*ssa.Store); ok {
		return v.Val.Pos()
	}
	return token.NoPos
}

// Accesses returns every memory access the analysis found, by origin.
func (r *Result) Accesses() []Access { return r.accesses }

// Shared is a location that at least two origins access, one of them
// writing: O2's origin-shared location, where a race can be.
type Shared struct {
	Loc      Location
	Accesses []Access
}

// Shared returns the origin-shared locations, in a deterministic order.
// Their Accesses are the Result's own, which are kept by location: read
// them only.
func (r *Result) Shared() []Shared {
	var out []Shared
	for accs := range byLocation(r.accesses) {
		if isShared(accs) {
			out = append(out, Shared{Loc: r.location(accs[0].node), Accesses: accs})
		}
	}
	return out
}

// byLocation yields the runs of accs, which are sorted by location, that
// access one location, each with its capacity cut at its end.
func byLocation(accs []Access) iter.Seq[[]Access] {
	return func(yield func([]Access) bool) {
		for i := 0; i < len(accs); {
			j := i + 1
			for j < len(accs) && accs[j].node == accs[i].node {
				j++
			}
			if !yield(accs[i:j:j]) {
				return
			}
			i = j
		}
	}
}

func isShared(accs []Access) bool {
	var origins []*Origin
	write, plain := false, false // atomic operations race only with plain accesses
	for _, acc := range accs {
		write = write || acc.Write
		plain = plain || !acc.Atomic
		if !slices.Contains(origins, acc.Origin) {
			origins = append(origins, acc.Origin)
		}
	}
	return write && plain && len(origins) >= 2
}

// IsShared reports whether the location loc is origin-shared.
func (r *Result) IsShared(loc Location) bool {
	var accs []Access
	for _, acc := range r.accesses {
		if acc.Loc == loc {
			accs = append(accs, acc)
		}
	}
	return isShared(accs)
}

// collectAccesses walks every analyzed function and records the memory
// it reads and writes, in each origin that runs it. A plain read of a
// location that nothing writes (no write in any origin, here or in
// another package's function) races with nothing and is left out: such
// reads were most of the accesses on real code (one req.URL.String()
// in etcd's rafthttp, a read of ~750 URLs in 189 test origins, was 2
// million of its 2.2 million).
func (a *state) collectAccesses() []Access {
	// The blocks of loops are seen twice (two iteration tags); an access
	// is kept once per instruction, origin, location and kind.
	type key struct {
		instr  ssa.Instruction
		origin *Origin
		loc    nodeID
		write  bool
		ext    string
	}
	seen := make(map[key]bool)
	var out accessList
	written := make([]bool, len(a.nodes))
	// The locations some access writes, first: a read of a location
	// nothing writes is no part of a race, and most reads are such
	// (configuration read by every goroutine); collected with the
	// others, they were most of the accesses, and of their cost.
	a.packageAccesses(true, func(_ ssa.Instruction, origins []*Origin, loc nodeID, write, _, _ bool) {
		if write && len(origins) > 0 {
			written[loc] = true
		}
	})
	// The imported writes are found once, and given to imported below
	// in the same order.
	type importedWrite struct {
		c     *importedCall
		acc   *effects.Op
		n     nodeID
		size  int
		locks []ImportedLock
	}
	var importedWrites []importedWrite
	a.importedAccesses(true, func(c *importedCall, acc *effects.Op, n nodeID, size int, locks []ImportedLock) {
		importedWrites = append(importedWrites, importedWrite{c, acc, n, size, locks})
		if len(a.callOrigins(c)) == 0 {
			return
		}
		for i := range size {
			if loc, ok := a.within(n, i); ok {
				written[loc] = true
			}
		}
	})
	// The package's own accesses are millions in a package whose tests
	// start a hundred goroutines: their key is made of numbers, which
	// hash several times faster than an interface, a pointer and a
	// string, and which the collector does not scan.
	type ownKey struct {
		instr, origin int32
		loc           nodeID
		write         bool
	}
	own := make(map[ownKey]struct{})
	instrs := make(map[ssa.Instruction]int32)
	var last ssa.Instruction // the instruction of lastID: f gets each instruction's locations in a row
	lastID := int32(-1)
	a.packageAccesses(false, func(instr ssa.Instruction, origins []*Origin, loc nodeID, write, atomic, copied bool) {
		if !write && !atomic && !written[loc] {
			return
		}
		if instr != last {
			id, ok := instrs[instr]
			if !ok {
				id = int32(len(instrs))
				instrs[instr] = id
			}
			last, lastID = instr, id
		}
		obj := a.nodes[loc].obj
		for _, o := range origins {
			k := ownKey{lastID, int32(o.ID), loc, write}
			if _, dup := own[k]; dup {
				continue
			}
			own[k] = struct{}{}
			out.add(Access{Instr: instr, Origin: o, Loc: Location{obj, int(loc - obj.start)}, Write: write, Atomic: atomic, Copied: copied, node: loc})
		}
	})
	// ownAccess reports whether the package's own accesses have one
	// like an imported access without a position.
	ownAccess := func(instr ssa.Instruction, o *Origin, loc nodeID, write bool) bool {
		id, ok := instrs[instr]
		_, dup := own[ownKey{id, int32(o.ID), loc, write}]
		return ok && dup
	}
	imported := func(c *importedCall, acc *effects.Op, n nodeID, size int, locks []ImportedLock) {
		ext := &Imported{Func: c.fn, Index: acc.Index, At: acc.At, Locks: locks}
		for _, o := range a.callOrigins(c) {
			for i := range size {
				loc, ok := a.within(n, i)
				if !ok || !acc.Write && !acc.Atomic && !written[loc] {
					continue
				}
				k := key{c.instr, o, loc, acc.Write, acc.At}
				if seen[k] || acc.At == "" && ownAccess(c.instr, o, loc, acc.Write) {
					continue // the key of an access without a position is the package's own
				}
				seen[k] = true
				if acc.Write {
					written[loc] = true
				}
				obj := a.nodes[loc].obj
				out.add(Access{Instr: c.instr, Origin: o, Loc: Location{obj, int(loc - obj.start)}, Write: acc.Write, Atomic: acc.Atomic, Imported: ext, node: loc})
			}
		}
	}
	for _, w := range importedWrites {
		imported(w.c, w.acc, w.n, w.size, w.locks)
	}
	a.importedAccesses(false, imported)
	return sortAccesses(&out, len(a.nodes))
}

// callOrigins returns the origins that run an imported call: its own,
// for a goroutine it starts, or those that run its caller.
func (a *state) callOrigins(c *importedCall) []*Origin {
	if c.origin != nil {
		return []*Origin{c.origin}
	}
	return a.originsRunning(c.at.cg)
}

// packageAccesses calls f with each location an instruction of the
// package accesses, and the origins that run it. With writes, it may
// leave out instructions that only read (see onlyReads), for a caller
// that wants the writes.
func (a *state) packageAccesses(writes bool, f func(instr ssa.Instruction, origins []*Origin, loc nodeID, write, atomic, copied bool)) {
	for _, cg := range a.cgList {
		origins := a.originsRunning(cg)
		for _, b := range cg.fn.Blocks {
			tags := 1
			if cg.loop[b.Index] >= 0 {
				tags = 2
			}
			for tag := range tags {
				for _, instr := range b.Instrs {
					if writes && onlyReads(instr) {
						continue
					}
					a.accessesOf(at{cg, b, tag}, instr, func(n nodeID, size int, write, atomic, copied bool) {
						for i := range size {
							loc, ok := a.within(n, i)
							if !ok || a.nodes[loc].obj.Kind == ObjFunc {
								continue
							}
							f(instr, origins, loc, write, atomic, copied)
						}
					})
				}
			}
		}
	}
}

// onlyReads reports whether accessesOf gives only reads for instr: a
// load, a conversion of a slice to a string, a send, a map lookup, a
// step of a range loop. The loads are most of the accesses, and the
// parts of a load (readParts) cost to find.
func onlyReads(instr ssa.Instruction) bool {
	switch instr.(type) {
	case *ssa.UnOp, *ssa.Convert, *ssa.Send, *ssa.Lookup, *ssa.Next:
		return true
	}
	return false
}

// accessList collects accesses in chunks of a fixed size: the millions
// of accesses of a package whose tests start a hundred goroutines are
// not copied again each time a slice doubles.
type accessList struct {
	chunks [][]Access
	n      int
}

const accessChunk = 1 << 14

func (l *accessList) add(acc Access) {
	if k := len(l.chunks); k == 0 || len(l.chunks[k-1]) == accessChunk {
		l.chunks = append(l.chunks, make([]Access, 0, accessChunk))
	}
	last := &l.chunks[len(l.chunks)-1]
	*last = append(*last, acc)
	l.n++
}

// sortAccesses orders accesses by location, then origin, keeping the
// order of collection otherwise: a counting sort on the location, as a
// stable sort of a million accesses took seconds.
func sortAccesses(accs *accessList, nodes int) []Access {
	start := make([]int32, nodes+1)
	for _, chunk := range accs.chunks {
		for i := range chunk {
			start[chunk[i].node+1]++
		}
	}
	for i := 1; i <= nodes; i++ {
		start[i] += start[i-1]
	}
	out := make([]Access, accs.n)
	for k, chunk := range accs.chunks {
		for i := range chunk {
			n := chunk[i].node
			out[start[n]] = chunk[i]
			start[n]++
		}
		accs.chunks[k] = nil // copied: the collector may have it
	}
	for run := range byLocation(out) {
		slices.SortStableFunc(run, func(x, y Access) int { return cmp.Compare(x.Origin.ID, y.Origin.ID) })
	}
	return out
}

// part is a run of leaves of a value: from offset off, size leaves.
type part struct{ off, size int }

// readParts returns the parts of the loaded value v (at offset off of
// what the load reads) that its uses read: the whole value, unless every
// use selects a field of it, and then those fields' parts, found the
// same way. go/ssa loads a whole struct to select a field of a value
// field (s.r.Step(m), promoted through r's embedded interface, loads all
// of s.r), where the compiled code, and the race detector, read the
// field alone.
func (a *state) readParts(v ssa.Value, off, depth int) []part {
	whole := []part{{off, a.size(v.Type())}}
	refs := v.Referrers()
	if load, ok := v.(*ssa.UnOp); ok && depth == 0 && dataflow.RangeUnevaluated(load) {
		return nil // for i := range s.segments reads nothing
	}
	if _, ok := v.Type().Underlying().(*types.Struct); !ok || refs == nil || len(*refs) == 0 || depth > maxLayoutDepth {
		return whole
	}
	var parts []part
	for _, r := range *refs {
		fld, ok := r.(*ssa.Field)
		if !ok {
			return whole
		}
		parts = append(parts, a.readParts(fld, off+a.layouts.offsetOf(v.Type(), fld.Field), depth+1)...)
	}
	return parts
}

// originsRunning returns the origins in which cg runs.
func (a *state) originsRunning(cg *cgnode) []*Origin {
	if cg.ctx.Origin != nil {
		return []*Origin{cg.ctx.Origin}
	}
	return a.reaching[cg]
}

// Addr returns the address that a load or store goes through, or nil
// for any other instruction.
func Addr(instr ssa.Instruction) ssa.Value {
	switch instr := instr.(type) {
	case *ssa.Store:
		return instr.Addr
	case *ssa.UnOp:
		if instr.Op == token.MUL {
			return instr.X
		}
	}
	return nil
}

// accessesOf calls f for each block of memory that instr reads or
// writes: the nodes pointed to by a pointer, and how many leaves.
func (a *state) accessesOf(p at, instr ssa.Instruction, f func(n nodeID, size int, write, atomic, copied bool)) {
	each := func(ptr ssa.Value, size int, write, atomic bool) {
		n, ok := a.lookupVal(p, ptr)
		if !ok {
			return
		}
		for _, loc := range a.nodes[n].pts.appendTo(nil) {
			f(loc, size, write, atomic, false)
		}
	}
	whole := func(ptr ssa.Value, write bool) {
		n, ok := a.lookupVal(p, ptr)
		if !ok {
			return
		}
		for _, loc := range a.nodes[n].pts.appendTo(nil) {
			if obj := a.nodes[loc].obj; obj != nil {
				f(obj.start, obj.layout.size(), write, false, false)
			}
		}
	}
	switch instr := instr.(type) {
	case *ssa.Store:
		each(instr.Addr, a.size(instr.Val.Type()), true, false)
	case *ssa.UnOp:
		if instr.Op == token.MUL {
			for _, part := range a.readParts(instr, 0, 0) {
				n, ok := a.lookupVal(p, instr.X)
				if !ok {
					break
				}
				for _, loc := range a.nodes[n].pts.appendTo(nil) {
					if at, ok := a.within(loc, part.off); ok {
						f(at, part.size, false, false, false)
					}
				}
			}
		}
	case *ssa.MapUpdate:
		whole(instr.Map, true)
	case *ssa.Convert:
		// string(b) for a []byte or []rune b reads its elements.
		if sl, ok := instr.X.Type().Underlying().(*types.Slice); ok {
			if t, ok := instr.Type().Underlying().(*types.Basic); ok && t.Info()&types.IsString != 0 {
				each(instr.X, a.size(sl.Elem()), false, false)
			}
		}
	case *ssa.Send:
		whole(instr.Chan, false)
	case *ssa.Select:
		// A select's send case reads its channel as a plain send does
		// (a close that nothing orders races with it).
		for _, st := range instr.States {
			if st.Dir == types.SendOnly {
				whole(st.Chan, false)
			}
		}
	case *ssa.Lookup:
		if _, ok := instr.X.Type().Underlying().(*types.Map); ok {
			whole(instr.X, false)
		}
	case *ssa.Next:
		if !instr.IsString {
			if r, ok := instr.Iter.(*ssa.Range); ok {
				whole(r.X, false)
			}
		}
	case *ssa.Defer:
		// A deferred atomic write (defer s.busy.Store(false)) writes
		// the flag when the function returns: an access of its own,
		// which no event of the trace stands for, so that what reads
		// the location's writes off the code (a flag never cleared,
		// see shb's wonFirst) sees it.
		if callee, ok := instr.Call.Value.(*ssa.Function); ok {
			if op := syncapi.Atomic(callee); op.Writes() && len(instr.Call.Args) > 0 {
				if p, ok := instr.Call.Args[0].Type().Underlying().(*types.Pointer); ok {
					each(instr.Call.Args[0], a.size(p.Elem()), true, true)
				}
			}
		}
	case *ssa.Call:
		call := instr.Common()
		if buf, write, ok := syncapi.IOBuffer(call); ok {
			each(buf, 1, write, false)
		}
		switch callee := call.Value.(type) {
		case *ssa.Builtin:
			if ch, ok := syncapi.Close(call); ok {
				// Closing a channel races with a send, as the race
				// detector sees it: close writes the channel, send reads.
				whole(ch, true)
			}
			switch callee.Name() {
			case "delete", "clear":
				whole(call.Args[0], true)
			case "len":
				if _, ok := call.Args[0].Type().Underlying().(*types.Map); ok {
					whole(call.Args[0], false)
				}
			case "append":
				if s, ok := call.Args[0].Type().Underlying().(*types.Slice); ok {
					// An append to a full slice has no room: it copies
					// the elements into a new array, reading them, and
					// writes none of the shared array's.
					if n, ok := a.lookupVal(p, call.Args[0]); ok {
						full := isFull(call.Args[0])
						for _, loc := range a.nodes[n].pts.appendTo(nil) {
							room := !full && !a.isFilled(loc)
							f(loc, a.size(s.Elem()), room, false, !room)
						}
					}
					if len(call.Args) == 2 {
						// append(s, t...) reads t's elements (go/ssa
						// passes the other forms as a fresh slice).
						if _, ok := call.Args[1].Type().Underlying().(*types.Slice); ok {
							each(call.Args[1], a.size(s.Elem()), false, false)
						}
					}
				}
			case "copy":
				if s, ok := call.Args[0].Type().Underlying().(*types.Slice); ok {
					each(call.Args[0], a.size(s.Elem()), true, false)
					if _, ok := call.Args[1].Type().Underlying().(*types.Slice); ok {
						each(call.Args[1], a.size(s.Elem()), false, false)
					}
				}
			}
		case *ssa.Function:
			if op := syncapi.Atomic(callee); op != syncapi.NotAtomic && len(call.Args) > 0 {
				if p, ok := call.Args[0].Type().Underlying().(*types.Pointer); ok {
					each(call.Args[0], a.size(p.Elem()), op.Writes(), true)
				}
			}
			// A mutex's methods change its state atomically: a plain
			// store over the mutex (mu = sync.Mutex{}) races with them.
			if op, mu := syncapi.MutexOp(call); op != syncapi.NoLockOp && !call.IsInvoke() {
				if p, ok := mu.Type().Underlying().(*types.Pointer); ok {
					each(mu, a.size(p.Elem()), true, true)
				}
			}
		}
	}
}

// noteSpawn records, in the context-insensitive variant, the function
// in context whose go statement (or spawning call) starts o: its context
// has no origin, so o's parent is found once the origins reaching each
// function are known (see adoptSpawned).
func (a *state) noteSpawn(o *Origin, caller *cgnode) {
	if a.ciContext == nil || o.Parent != nil || o.Kind == 0 || o.overflow {
		return
	}
	if a.spawnedIn == nil {
		a.spawnedIn = make(map[*Origin]*cgnode)
	}
	if a.spawnedIn[o] == nil {
		a.spawnedIn[o] = caller
	}
}

// adoptSpawned gives each goroutine that the context-insensitive
// variant started a parent: the first origin found that reaches its go
// statement. (The origin-sensitive analysis tells the goroutine apart by
// its parent; here one stands for all.) The parent was found before the
// goroutine, so the chains of parents have no cycle.
func (a *state) adoptSpawned() {
	for _, o := range a.origins {
		caller := a.spawnedIn[o]
		if caller == nil {
			continue
		}
		for _, p := range a.reaching[caller] {
			if p.ID < o.ID && (o.Parent == nil || p.ID < o.Parent.ID) {
				o.Parent = p
			}
		}
	}
}

// computeReaching finds, for the context-insensitive variant, the
// origins whose goroutines reach each function through calls.
func (a *state) computeReaching() {
	a.reaching = make(map[*cgnode][]*Origin)
	index := make(map[*cgnode]int, len(a.cgList))
	for i, cg := range a.cgList {
		index[cg] = i
	}
	for _, o := range a.origins {
		// A root origin runs each of its roots (every test, every
		// concurrent method), not only the first, which is its entry.
		stack := slices.Clone(a.rootNodes[o])
		if entry := a.originEntry[o]; entry != nil && !slices.Contains(stack, entry) {
			stack = append(stack, entry)
		}
		var seen intsets.Sparse
		for len(stack) > 0 {
			cg := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !seen.Insert(index[cg]) {
				continue
			}
			a.reaching[cg] = append(a.reaching[cg], o)
			stack = append(stack, a.callees[cg]...)
		}
	}
}

// isFull reports whether slice s has no room beyond its length, as the
// full slice expression s[:len(s):len(s)] or slices.Clip(s) makes it:
// an append to it copies into a new array and never writes the one s
// shares, the idiom for appending to a slice that others hold.
func isFull(s ssa.Value) bool {
	switch s := s.(type) {
	case *ssa.Slice:
		if s.High != nil && s.Max == nil {
			// arr[:N] of an array of length N, as go/ssa slices the
			// array it makes for make([]T, N).
			if p, ok := s.X.Type().Underlying().(*types.Pointer); ok {
				if arr, ok := p.Elem().Underlying().(*types.Array); ok {
					c, ok := s.High.(*ssa.Const)
					return ok && c.Value != nil && constant.Compare(c.Value, token.EQL, constant.MakeInt64(arr.Len()))
				}
			}
		}
		if s.Max == nil || s.High == nil {
			return false
		}
		return s.High == s.Max || sameValue(lenOf(s.High), s.X) && sameValue(lenOf(s.Max), s.X)
	case *ssa.Call:
		fn := s.Call.StaticCallee()
		if fn == nil || fn.Pkg == nil && fn.Origin() == nil {
			return false
		}
		if fn.Origin() != nil {
			fn = fn.Origin()
		}
		return fn.Pkg != nil && fn.Pkg.Pkg.Path() == "slices" && fn.Name() == "Clip"
	}
	return false
}

// lenOf returns x when v is len(x), else nil.
func lenOf(v ssa.Value) ssa.Value {
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil
	}
	if b, ok := call.Call.Value.(*ssa.Builtin); ok && b.Name() == "len" && len(call.Call.Args) == 1 {
		return call.Call.Args[0]
	}
	return nil
}

// sameValue reports whether a and b are one value, or loads of one
// variable or field (each mention of a global in base[:len(base)] loads
// it anew).
func sameValue(a, b ssa.Value) bool {
	if a == nil || b == nil {
		return false
	}
	if a == b {
		return true
	}
	la, ok1 := a.(*ssa.UnOp)
	lb, ok2 := b.(*ssa.UnOp)
	if !ok1 || !ok2 || la.Op != token.MUL || lb.Op != token.MUL {
		return false
	}
	if la.X == lb.X {
		return true
	}
	fa, ok1 := la.X.(*ssa.FieldAddr)
	fb, ok2 := lb.X.(*ssa.FieldAddr)
	return ok1 && ok2 && fa.Field == fb.Field && (fa.X == fb.X || sameValue(fa.X, fb.X))
}
