package race

import (
	"go/types"

	"github.com/origo-dev/origo/passes/pointer"
	"golang.org/x/tools/go/ssa"
)

// The pointer analysis merges every object made at one allocation site,
// so a constructor's writes to the object it just made meet the
// goroutines that work on the objects the same site made before. No
// goroutine can reach an object before its function publishes it, and a
// race on the object happens at or after the publication, so the writes
// before it are dropped: a write to a field or element of an object
// allocated in the same function, at a point that every path from the
// allocation reaches without passing an instruction that publishes it.

// maxCalleeDepth bounds how deep the calls that receive a fresh object
// are followed to show that they do not publish it.
const maxCalleeDepth = 3

// freshness memoizes, for one run, which writes are to unpublished
// objects and what the package's functions do with the objects given to
// them.
type freshness struct {
	pkg     *types.Package
	writes  map[ssa.Instruction]bool // by write, whether its object is unpublished there
	pubs    map[ssa.Instruction]map[ssa.Instruction]bool
	callees map[calleeKey]calleeUse
}

func newFreshness(pkg *types.Package) *freshness {
	return &freshness{
		pkg:     pkg,
		writes:  make(map[ssa.Instruction]bool),
		pubs:    make(map[ssa.Instruction]map[ssa.Instruction]bool),
		callees: make(map[calleeKey]calleeUse),
	}
}

// initializing reports whether acc writes an object its own function
// allocated, before the function publishes it: the stores of a composite
// literal, a variable's stores before a closure captures it, and a
// constructor's writes across branches and loops and calls that only
// use the object.
func (f *freshness) initializing(acc pointer.Access) bool {
	if !acc.Write {
		return false // copy's read of its source is no initialization
	}
	w := acc.Instr
	if v, ok := f.writes[w]; ok {
		return v
	}
	v := false
	if alloc := allocation(writtenAddr(w)); alloc != nil && alloc.Parent() == w.Parent() {
		v = !publishedBefore(alloc, w, f.publications(alloc))
	}
	f.writes[w] = v
	return v
}

// writtenAddr returns the memory a write stores into: the address of a
// store, the map of a map update, the destination of a copy.
func writtenAddr(w ssa.Instruction) ssa.Value {
	switch w := w.(type) {
	case *ssa.Store:
		return w.Addr
	case *ssa.MapUpdate:
		return w.Map
	case *ssa.Call:
		if b, ok := w.Call.Value.(*ssa.Builtin); ok && b.Name() == "copy" {
			return w.Call.Args[0]
		}
	}
	return nil
}

// allocation returns the instruction that made the object v points
// into, when v selects a field, element or slice of what it made and no
// pointer is loaded on the way; else nil.
func allocation(v ssa.Value) ssa.Instruction {
	for {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.Slice:
			v = x.X
		case *ssa.Alloc, *ssa.MakeSlice, *ssa.MakeMap, *ssa.MakeChan:
			return x.(ssa.Instruction)
		default:
			return nil
		}
	}
}

// inside reports whether v points into the object that one of anchors
// denotes: the anchor itself, or a field, element or slice of it.
func inside(v ssa.Value, anchors map[ssa.Value]bool) bool {
	for !anchors[v] {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.Slice:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		default:
			return false
		}
	}
	return true
}

// publications returns the instructions of alloc's function that may let
// another goroutine reach the object alloc makes.
func (f *freshness) publications(alloc ssa.Instruction) map[ssa.Instruction]bool {
	if p, ok := f.pubs[alloc]; ok {
		return p
	}
	v := alloc.(ssa.Value)
	fl := f.newFlow(objectTypes(v.Type()), map[ssa.Value]bool{v: true}, maxCalleeDepth)
	fl.follow(v)
	f.pubs[alloc] = fl.pubs
	return fl.pubs
}

// publishedBefore reports whether some path from alloc to w, not
// through alloc again (which makes another object), passes one of pubs.
// Inside a loop that does not allocate again, the part of the loop after
// w leads back to w: an object published in one iteration and written in
// the next is not fresh.
func publishedBefore(alloc, w ssa.Instruction, pubs map[ssa.Instruction]bool) bool {
	if len(pubs) == 0 {
		return false
	}
	ba, bw := alloc.Block(), w.Block()
	ia, iw := indexOf(alloc), indexOf(w)
	if ba == bw {
		return ia > iw || anyIn(ba.Instrs[ia+1:iw], pubs)
	}
	between := blocksBetween(ba, bw)
	if anyIn(ba.Instrs[ia+1:], pubs) || anyIn(bw.Instrs[:iw], pubs) {
		return true
	}
	for b := range between {
		if b != bw && anyIn(b.Instrs, pubs) {
			return true
		}
	}
	for _, s := range bw.Succs {
		if between[s] && anyIn(bw.Instrs[iw+1:], pubs) {
			return true // w's block is in a loop that reaches it again
		}
	}
	return false
}

// blocksBetween returns the blocks, other than from, that lie on a path
// from block from to block to that does not go through from again.
func blocksBetween(from, to *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	forward := walkBlocks(from, from, func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Succs })
	backward := walkBlocks(to, from, func(b *ssa.BasicBlock) []*ssa.BasicBlock { return b.Preds })
	backward[to] = true
	between := make(map[*ssa.BasicBlock]bool)
	for b := range forward {
		if backward[b] {
			between[b] = true
		}
	}
	return between
}

// walkBlocks returns the blocks that next leads to from start, in one or
// more steps, without going through avoid.
func walkBlocks(start, avoid *ssa.BasicBlock, next func(*ssa.BasicBlock) []*ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	seen := make(map[*ssa.BasicBlock]bool)
	work := []*ssa.BasicBlock{start}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, s := range next(b) {
			if s != avoid && !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return seen
}

func indexOf(instr ssa.Instruction) int {
	for i, x := range instr.Block().Instrs {
		if x == instr {
			return i
		}
	}
	return -1
}

func anyIn(instrs []ssa.Instruction, set map[ssa.Instruction]bool) bool {
	for _, instr := range instrs {
		if set[instr] {
			return true
		}
	}
	return false
}

// objectTypes returns the types that a pointer into an object that ptr
// points to may have as element: the object's type and the types it
// holds by value (fields, array elements). For a slice, map or channel
// the object is its backing store, named by the type itself.
func objectTypes(ptr types.Type) []types.Type {
	var held []types.Type
	var add func(t types.Type)
	add = func(t types.Type) {
		for _, h := range held {
			if types.Identical(h, t) {
				return
			}
		}
		held = append(held, t)
		switch u := t.Underlying().(type) {
		case *types.Struct:
			for f := range u.Fields() {
				add(f.Type())
			}
		case *types.Array:
			add(u.Elem())
		}
	}
	switch u := ptr.Underlying().(type) {
	case *types.Pointer:
		add(u.Elem())
	case *types.Slice:
		add(u.Elem())
		held = append(held, ptr)
	default:
		held = append(held, ptr)
	}
	return held
}
