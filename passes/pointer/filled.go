package pointer

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// This file finds filled arrays: arrays every slice of which, wherever
// code other than the filling loop can hold it, has its length equal to
// its capacity. An append to such a slice has no room: it copies into a
// new array and never writes the one it shares. Preallocating and then
// filling is the idiom linters ask for,
//
//	pairs := make([]*Pair, 0, len(labels))
//	for k, v := range labels {
//		pairs = append(pairs, &Pair{k, v})
//	}
//
// and the slice it makes is often shared and appended to by each of its
// readers (out.Label = append(out.Label, extra)), which races only when
// there is room.

// filledArrays returns the sites of the arrays that are filled: made
// full (make([]T, n), an array variable or literal), or made empty with
// capacity len(x) (a sum of such lengths and constants) and filled,
// before any other code can see them, by one append per element of x in
// a range loop, into a local variable or into a variable or field of an
// object the function made and has not yet let go of. A slice
// expression with a high bound anywhere in the program over one of them
// (s[:k], which may be short of its capacity) disqualifies it.
func (a *state) filledArrays() map[ssa.Value]bool {
	filled := make(map[ssa.Value]bool)
	seen := make(map[*ssa.Function]bool)
	for _, cg := range a.cgList {
		if seen[cg.fn] {
			continue
		}
		seen[cg.fn] = true
		for _, b := range cg.fn.Blocks {
			for _, instr := range b.Instrs {
				switch v := instr.(type) {
				case *ssa.Alloc:
					// An array variable, or the array go/ssa makes for
					// make([]T, 4) or a slice literal: full until a
					// slice expression with a high bound shortens it.
					if _, ok := v.Type().(*types.Pointer).Elem().Underlying().(*types.Array); ok {
						filled[v] = true
					}
				case *ssa.MakeSlice:
					if sameInt(v.Len, v.Cap) {
						filled[v] = true
						continue
					}
					appends, ok := fillsLocally(v)
					if !ok {
						appends, ok = fillsCell(v, a.touchesFieldsOnly)
					}
					if ok {
						// The appends that fill it never grow it: the
						// arrays they would make do not exist.
						filled[v] = true
						for _, call := range appends {
							filled[call] = true
						}
					}
				}
			}
		}
	}
	for _, cg := range a.cgList {
		for _, b := range cg.fn.Blocks {
			tags := 1
			if cg.loop[b.Index] >= 0 {
				tags = 2
			}
			for _, instr := range b.Instrs {
				s, ok := instr.(*ssa.Slice)
				if !ok || s.High == nil || isFull(s) {
					continue
				}
				for tag := range tags {
					n, ok := a.lookupVal(at{cg, b, tag}, s.X)
					if !ok {
						continue
					}
					for _, loc := range a.nodes[n].pts.appendTo(nil) {
						if obj := a.nodes[loc].obj; obj != nil && obj.Site != nil {
							delete(filled, obj.Site)
						}
					}
				}
			}
		}
	}
	return filled
}

// isFilled reports whether the array at loc is one of the filled ones.
func (a *state) isFilled(loc nodeID) bool {
	obj := a.nodes[loc].obj
	return obj != nil && obj.Site != nil && (obj.Kind == ObjSlice || obj.Kind == ObjAlloc) && a.filled[obj.Site]
}

// count is a length as a sum: the lengths of values, and a constant.
type count struct {
	lens []ssa.Value
	k    int64
}

func (c count) plus(d count) count {
	return count{append(append([]ssa.Value(nil), c.lens...), d.lens...), c.k + d.k}
}

// equal reports whether c and d are the same sum, up to order.
func (c count) equal(d count) bool {
	if c.k != d.k || len(c.lens) != len(d.lens) {
		return false
	}
	used := make([]bool, len(d.lens))
next:
	for _, x := range c.lens {
		for i, y := range d.lens {
			if !used[i] && sameValue(x, y) {
				used[i] = true
				continue next
			}
		}
		return false
	}
	return true
}

// sumOf returns v as a sum of lengths and constants.
func sumOf(v ssa.Value) (count, bool) {
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value == nil || v.Value.Kind() != constant.Int {
			return count{}, false
		}
		k, ok := constant.Int64Val(v.Value)
		return count{k: k}, ok
	case *ssa.BinOp:
		if v.Op != token.ADD {
			return count{}, false
		}
		x, ok1 := sumOf(v.X)
		y, ok2 := sumOf(v.Y)
		return x.plus(y), ok1 && ok2
	case *ssa.Call:
		if x := lenOf(v); x != nil {
			return count{lens: []ssa.Value{x}}, true
		}
	}
	return count{}, false
}

// sameInt reports whether x and y are one value or equal constants.
func sameInt(x, y ssa.Value) bool {
	if x == y {
		return true
	}
	cx, ok1 := x.(*ssa.Const)
	cy, ok2 := y.(*ssa.Const)
	return ok1 && ok2 && cx.Value != nil && cy.Value != nil && constant.Compare(cx.Value, token.EQL, cy.Value)
}

// appended returns what append call adds to the length of its first
// argument; ok is false when call is not an append.
func appended(call *ssa.Call) (count, bool) {
	b, ok := call.Call.Value.(*ssa.Builtin)
	if !ok || b.Name() != "append" {
		return count{}, false
	}
	switch len(call.Call.Args) {
	case 1:
		return count{}, true
	case 2:
		// append(s, x, y) passes its elements as a slice of a fresh
		// array [2]T; append(s, t...) passes t.
		y := call.Call.Args[1]
		if s, ok := y.(*ssa.Slice); ok && s.Low == nil && s.High == nil && s.Max == nil {
			if alloc, ok := s.X.(*ssa.Alloc); ok {
				if arr, ok := alloc.Type().(*types.Pointer).Elem().Underlying().(*types.Array); ok {
					return count{k: arr.Len()}, true
				}
			}
		}
		return count{lens: []ssa.Value{y}}, true
	}
	return count{}, false
}

// appendsOne reports whether v is append(x, e): one element added to x.
func appendsOne(v ssa.Value, x ssa.Value) (*ssa.Call, bool) {
	call, ok := v.(*ssa.Call)
	if !ok || len(call.Call.Args) == 0 || call.Call.Args[0] != x {
		return nil, false
	}
	c, ok := appended(call)
	return call, ok && len(c.lens) == 0 && c.k == 1
}

// rangeLoop is a range loop over a slice or a map, as go/ssa builds it:
// a header that leaves for done after len(x) iterations of body.
type rangeLoop struct {
	header, body, done *ssa.BasicBlock
	x                  ssa.Value // the slice or map ranged over
	blocks             map[*ssa.BasicBlock]bool
}

// rangeLoopAt returns the range loop whose header is h.
func rangeLoopAt(h *ssa.BasicBlock) (*rangeLoop, bool) {
	if len(h.Instrs) == 0 || len(h.Succs) != 2 {
		return nil, false
	}
	cond, ok := h.Instrs[len(h.Instrs)-1].(*ssa.If)
	if !ok {
		return nil, false
	}
	var x ssa.Value
	switch c := cond.Cond.(type) {
	case *ssa.BinOp: // incr < len(x), incr = index + 1
		incr, ok := c.X.(*ssa.BinOp)
		if !ok || c.Op != token.LSS || incr.Op != token.ADD || incr.Block() != h {
			return nil, false
		}
		if phi, ok := incr.X.(*ssa.Phi); !ok || phi.Block() != h {
			return nil, false
		}
		x = lenOf(c.Y)
	case *ssa.Extract: // ok of next over range x
		next, ok := c.Tuple.(*ssa.Next)
		if !ok || c.Index != 0 || next.IsString || next.Block() != h {
			return nil, false
		}
		if r, ok := next.Iter.(*ssa.Range); ok {
			if _, ok := r.X.Type().Underlying().(*types.Map); ok {
				x = r.X
			}
		}
	}
	if x == nil {
		return nil, false
	}
	l := &rangeLoop{header: h, body: h.Succs[0], done: h.Succs[1], x: x, blocks: make(map[*ssa.BasicBlock]bool)}
	for _, b := range h.Parent().Blocks {
		if l.body.Dominates(b) {
			l.blocks[b] = true
		}
	}
	// The loop leaves only through its header (no break, no return),
	// and a map's body changes no map (its iterations are its length).
	_, isMap := x.Type().Underlying().(*types.Map)
	for b := range l.blocks {
		for _, s := range b.Succs {
			if s != h && !l.blocks[s] {
				return nil, false
			}
		}
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Return:
				return nil, false
			case *ssa.MapUpdate, *ssa.Go, *ssa.Defer:
				if isMap {
					return nil, false
				}
			case *ssa.Call:
				if b, ok := instr.Call.Value.(*ssa.Builtin); isMap && (!ok || b.Name() == "delete" || b.Name() == "clear") {
					return nil, false
				}
			}
		}
	}
	return l, true
}

// inLoop reports whether b is the loop's header or in its body.
func (l *rangeLoop) inLoop(b *ssa.BasicBlock) bool { return b == l.header || l.blocks[b] }

// reads reports whether use only reads the length or the elements of
// slice v, which needs no full slice.
func reads(use ssa.Instruction, v ssa.Value) bool {
	switch use := use.(type) {
	case *ssa.IndexAddr, *ssa.Index, *ssa.DebugRef:
		return true
	case *ssa.Call:
		if b, ok := use.Call.Value.(*ssa.Builtin); ok {
			switch b.Name() {
			case "len", "cap":
				return true
			case "append":
				return len(use.Call.Args) == 2 && use.Call.Args[0] != v
			}
		}
	}
	return false
}

// fillsLocally reports whether m, made empty, is filled in local
// variables: every value that holds it and is used other than to read
// it or to append to it has the length m's capacity says.
func fillsLocally(m *ssa.MakeSlice) ([]*ssa.Call, bool) {
	want, ok := sumOf(m.Cap)
	if !ok || !isZero(m.Len) {
		return nil, false
	}
	var appends []*ssa.Call
	// held is a value holding m's array with length n; for the header
	// phi of a filling loop, its uses in the loop were checked by
	// fillLoop.
	type held struct {
		v    ssa.Value
		n    count
		loop *rangeLoop
	}
	work := []held{{m, count{}, nil}}
	seen := make(map[ssa.Value]bool)
	for len(work) > 0 {
		h := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[h.v] {
			return nil, false // reached twice: not a chain
		}
		seen[h.v] = true
		for _, use := range *h.v.Referrers() {
			if reads(use, h.v) || h.loop != nil && h.loop.inLoop(use.Block()) {
				continue
			}
			if call, ok := use.(*ssa.Call); ok && len(call.Call.Args) > 0 && call.Call.Args[0] == h.v {
				if c, ok := appended(call); ok {
					appends = append(appends, call)
					work = append(work, held{call, h.n.plus(c), nil})
					continue
				}
			}
			if phi, ok := use.(*ssa.Phi); ok {
				if l, latches, ok := fillLoop(phi, h.v); ok {
					appends = append(appends, latches...)
					work = append(work, held{phi, h.n.plus(count{lens: []ssa.Value{l.x}}), l})
					continue
				}
			}
			if !h.n.equal(want) {
				return nil, false
			}
		}
	}
	return appends, true
}

// fillLoop reports whether phi, in the header of a range loop, enters
// the loop as v and goes around it only as append(phi, e): one element
// per iteration, so it leaves with len(x) more. Inside the loop, phi
// may only be read or appended to.
func fillLoop(phi *ssa.Phi, v ssa.Value) (*rangeLoop, []*ssa.Call, bool) {
	l, ok := rangeLoopAt(phi.Block())
	if !ok {
		return nil, nil, false
	}
	var latches []*ssa.Call
	entries := 0
	for i, e := range phi.Edges {
		if !l.blocks[phi.Block().Preds[i]] {
			entries++
			if e != v {
				return nil, nil, false
			}
			continue
		}
		call, ok := appendsOne(e, phi)
		if !ok {
			return nil, nil, false
		}
		for _, use := range *call.Referrers() {
			if use != phi && !reads(use, call) {
				return nil, nil, false
			}
		}
		latches = append(latches, call)
	}
	if entries != 1 {
		return nil, nil, false
	}
	for _, use := range *phi.Referrers() {
		if !l.inLoop(use.Block()) || reads(use, phi) {
			continue
		}
		v, ok := use.(ssa.Value)
		if !ok {
			return nil, nil, false
		}
		if call, ok := appendsOne(v, phi); !ok || !slices.Contains(phi.Edges, ssa.Value(call)) {
			return nil, nil, false
		}
	}
	return l, latches, true
}

// fillsCell reports whether m, made empty, is stored in a variable or
// a field of an object its function made, p.f = m, just before a range
// loop whose body does p.f = append(p.f, e) once per iteration, and the
// length ranged over is m's capacity. No other code may see p from the
// store to the loop's end: p.f is full when anyone can.
func fillsCell(m *ssa.MakeSlice, keepsNothing func(call *ssa.Call, arg ssa.Value) bool) ([]*ssa.Call, bool) {
	want, ok := sumOf(m.Cap)
	if !ok || !isZero(m.Len) || len(*m.Referrers()) != 1 {
		return nil, false
	}
	store, ok := (*m.Referrers())[0].(*ssa.Store)
	if !ok || store.Val != m {
		return nil, false
	}
	// The cell is an escaping variable (one a closure captures), or a
	// field of an object the function allocates.
	root, ok := store.Addr.(*ssa.Alloc)
	cell, isField := store.Addr.(*ssa.FieldAddr)
	if isField {
		root, ok = cell.X.(*ssa.Alloc)
	}
	if !ok {
		return nil, false
	}
	isCell := func(v ssa.Value) bool {
		if !isField {
			return v == root
		}
		fa, ok := v.(*ssa.FieldAddr)
		return ok && fa.X == root && fa.Field == cell.Field
	}
	p := store.Block()
	if len(p.Succs) != 1 {
		return nil, false
	}
	l, ok := rangeLoopAt(p.Succs[0])
	if !ok || !want.equal(count{lens: []ssa.Value{l.x}}) {
		return nil, false
	}
	// Up to the loop's end, the object may be used only to address its
	// fields, and the cell only to load and store it: nothing else can
	// hold the object, or the cell, while the array has room. In the
	// loop, the cell is loaded once, appended to once and stored back.
	var loads, stores []ssa.Instruction
	check := func(instr ssa.Instruction, inLoop bool) bool {
		var ops [8]*ssa.Value
		for _, op := range instr.Operands(ops[:0]) {
			switch {
			case isCell(*op):
				switch instr := instr.(type) {
				case *ssa.UnOp:
					if inLoop {
						loads = append(loads, instr)
					}
				case *ssa.Store:
					if instr.Addr != *op {
						return false
					}
					if inLoop {
						stores = append(stores, instr)
					}
				default:
					return false
				}
			case *op == root:
				// An option function (opt(d)) may set fields of d,
				// and keep nothing.
				call, isCall := instr.(*ssa.Call)
				if _, ok := instr.(*ssa.FieldAddr); !ok && !(isCall && keepsNothing(call, root)) {
					return false
				}
			}
		}
		return true
	}
	before := true
	for _, instr := range p.Instrs {
		if instr == store {
			before = false
			continue
		}
		if !check(instr, !before) {
			return nil, false
		}
	}
	for _, b := range ancestors(p) {
		for _, instr := range b.Instrs {
			if !check(instr, false) {
				return nil, false
			}
		}
	}
	for _, b := range l.inOrder() {
		for _, instr := range b.Instrs {
			if !check(instr, true) {
				return nil, false
			}
		}
	}
	if len(loads) != 1 || len(stores) != 1 {
		return nil, false
	}
	load := loads[0].(*ssa.UnOp)
	back := stores[0].(*ssa.Store)
	if load.Op != token.MUL || load.Block() == l.header || len(*load.Referrers()) != 1 {
		return nil, false
	}
	call, ok := appendsOne(back.Val, load)
	if !ok || len(*call.Referrers()) != 1 {
		return nil, false
	}
	// The store back runs once in every iteration: on the way to each
	// latch, and in no inner loop.
	for _, pred := range l.header.Preds {
		if l.blocks[pred] && !back.Block().Dominates(pred) {
			return nil, false
		}
	}
	if cycles(back.Block(), l) {
		return nil, false
	}
	return []*ssa.Call{call}, true
}

// inOrder returns the loop's blocks, header first, in the function's
// order.
func (l *rangeLoop) inOrder() []*ssa.BasicBlock {
	out := []*ssa.BasicBlock{l.header}
	for _, b := range l.header.Parent().Blocks {
		if l.blocks[b] {
			out = append(out, b)
		}
	}
	return out
}

// touchesFieldsOnly reports whether every function call may call, as
// the pointer analysis resolved it, only loads and stores fields of its
// parameter arg, and so keeps no pointer to it.
func (a *state) touchesFieldsOnly(call *ssa.Call, arg ssa.Value) bool {
	common := call.Common()
	if common.IsInvoke() || common.Value == arg {
		return false
	}
	if a.siteCallees == nil {
		a.siteCallees = make(map[ssa.CallInstruction][]*ssa.Function)
		for k, fns := range a.calls {
			a.siteCallees[k.instr] = append(a.siteCallees[k.instr], fns...)
		}
		for k := range a.externs {
			a.siteCallees[k.instr] = append(a.siteCallees[k.instr], nil) // a callee not seen
		}
	}
	fns := a.siteCallees[call]
	if len(fns) == 0 {
		return false
	}
	for _, fn := range fns {
		if fn == nil || len(fn.Params) != len(common.Args) || len(fn.Blocks) == 0 {
			return false
		}
		for i, x := range common.Args {
			if x == arg && !fieldsOnly(fn.Params[i]) {
				return false
			}
		}
	}
	return true
}

// fieldsOnly reports whether p is used only to load and store its
// fields.
func fieldsOnly(p *ssa.Parameter) bool {
	for _, use := range *p.Referrers() {
		fa, ok := use.(*ssa.FieldAddr)
		if !ok {
			if _, ok := use.(*ssa.DebugRef); ok {
				continue
			}
			return false
		}
		for _, use := range *fa.Referrers() {
			switch use := use.(type) {
			case *ssa.UnOp:
				if use.Op != token.MUL {
					return false
				}
			case *ssa.Store:
				if use.Addr != fa || use.Val == fa {
					return false
				}
			case *ssa.DebugRef:
			default:
				return false
			}
		}
	}
	return true
}

// ancestors returns the blocks other than b from which b can be
// reached.
func ancestors(b *ssa.BasicBlock) []*ssa.BasicBlock {
	seen := map[*ssa.BasicBlock]bool{b: true}
	var out []*ssa.BasicBlock
	stack := append([]*ssa.BasicBlock(nil), b.Preds...)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		out = append(out, x)
		stack = append(stack, x.Preds...)
	}
	return out
}

// cycles reports whether b is on a cycle of l's body that does not pass
// through its header: an inner loop.
func cycles(b *ssa.BasicBlock, l *rangeLoop) bool {
	seen := make(map[*ssa.BasicBlock]bool)
	stack := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == b {
			return true
		}
		if x == l.header || !l.blocks[x] || seen[x] {
			continue
		}
		seen[x] = true
		stack = append(stack, x.Succs...)
	}
	return false
}

// isZero reports whether v is the constant 0.
func isZero(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil && constant.Sign(c.Value) == 0
}
