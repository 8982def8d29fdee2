package ownership

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// An object that only a field of another object holds is that object's
// part: no goroutine reaches it but through its holder. A field is such
// an owning field when it is unexported (only the package's code stores
// into it), and every store into it, in the package's functions, stores
// nil or an object that the storing function made (or got fresh from a
// constructor) and publishes in no other way, before or after, than by
// the holder. What a load of an owning field from an unpublished holder
// gives is then unpublished too: srv := NewServer(...);
// srv.forwarder.broker = b writes the forwarder NewServer made for srv,
// which no goroutine reaches before srv.Start() publishes srv.

// ownedKey names an owning field: its struct type and index.
type ownedKey struct {
	st    *types.Struct
	field int
}

// heldPart returns the holder whose owning field the load selects from,
// and the load, when v, as denoted sees it, is such a load; else nils.
func (f *freshness) heldPart(v ssa.Value) (ssa.Value, *ssa.UnOp) {
	load, ok := denoted(v).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok || !f.owningField(fa) {
		return nil, nil
	}
	return fa.X, load
}

// holderUnpublished reports whether the holder, which holds parts of
// shape part, is an object that w's function made (or got fresh from a
// constructor, or holds as a part in turn, depth deep) and has not
// published before w, counting as its publications those of the parts
// loaded from it (go h.part.run() publishes the part, and no more the
// holder than the part).
func (f *freshness) holderUnpublished(holder ssa.Value, part *shape, w ssa.Instruction, depth int) bool {
	if depth <= 0 {
		return false
	}
	var made ssa.Instruction
	if alloc := allocation(holder); alloc != nil {
		made = alloc
	} else if call := madeBy(holder); call != nil && f.freshResult(call, maxCalleeDepth) {
		made = call
	} else if h, load := f.heldPart(holder); h != nil {
		return f.holderUnpublished(h, shapeOf(load.Type()).with(part), w, depth-1)
	}
	if made == nil || made.Parent() != w.Parent() {
		return false
	}
	mv := made.(ssa.Value)
	fl := f.newFlow(heldKey{made, part}, shapeOf(mv.Type()).with(part), map[ssa.Value]bool{mv: true}, maxCalleeDepth)
	fl.follow(mv)
	return !publishedBefore(made, w, fl.pubs)
}

// heldKey names the object of a holder's flow that follows its parts
// too, for the memo of callees.
type heldKey struct {
	made ssa.Instruction
	part *shape
}

// owningField reports whether the field fa selects is an owning field.
func (f *freshness) owningField(fa *ssa.FieldAddr) bool {
	st, ok := structOf(fa)
	if !ok {
		return false
	}
	k := ownedKey{st, fa.Field}
	if v, ok := f.owned[k]; ok {
		return v
	}
	f.owned[k] = false // a field whose stores store loads of itself: not shown
	v := !st.Field(fa.Field).Exported() && f.ownedStores(k)
	f.owned[k] = v
	return v
}

// ownedStores reports whether every store of the package into field k
// stores nil or an object its function made and publishes only by the
// store, and no store copies a whole struct of k's type (which copies
// the field from another).
func (f *freshness) ownedStores(k ownedKey) bool {
	stores := 0
	for _, fn := range f.storeFuncs() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				if types.Identical(st.Val.Type().Underlying(), k.st) {
					return false
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok || fa.Field != k.field {
					continue
				}
				if s, ok := structOf(fa); !ok || !types.Identical(s, k.st) {
					continue
				}
				stores++
				if !f.ownedBy(st) {
					return false
				}
			}
		}
	}
	return stores > 0
}

// storeFuncs returns the functions whose stores owningField reads: the
// package's, and its initializer.
func (f *freshness) storeFuncs() []*ssa.Function {
	fns := f.funcs
	if len(fns) > 0 && fns[0].Pkg != nil {
		if init := fns[0].Pkg.Func("init"); init != nil {
			fns = append(fns[:len(fns):len(fns)], init)
		}
	}
	return fns
}

// ownedBy reports whether st stores nil or an object that its function
// made, or got from a constructor, and publishes in no way but st.
func (f *freshness) ownedBy(st *ssa.Store) bool {
	v := st.Val
	if c, ok := v.(*ssa.Const); ok && c.IsNil() {
		return true
	}
	var made ssa.Instruction
	if alloc := allocation(v); alloc != nil && alloc.Parent() == st.Parent() && alloc.(ssa.Value) == denoted(v) {
		made = alloc
	} else if call := madeBy(v); call != nil && call.Parent() == st.Parent() && call == denoted(v) && f.freshResult(call, maxCalleeDepth) {
		made = call
	}
	if made == nil {
		return false
	}
	mv := made.(ssa.Value)
	fl := f.newFlow(mv.Type(), shapeOf(mv.Type()), map[ssa.Value]bool{mv: true}, maxCalleeDepth)
	fl.holder = st
	fl.follow(mv)
	return len(fl.pubs) == 0
}
