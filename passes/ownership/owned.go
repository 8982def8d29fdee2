package ownership

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
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
		return f.holderUnpublished(h, f.partShape(load.Type(), part), w, depth-1)
	}
	if made == nil || made.Parent() != w.Parent() {
		return false
	}
	return !publishedBefore(made, w, f.holderPubs(made, part))
}

// holderPubs returns the publications of the holder made by made,
// followed with its parts of shape part, found once for each.
func (f *freshness) holderPubs(made ssa.Instruction, part *shape) map[ssa.Instruction]bool {
	k := heldKey{made, part}
	if pubs, ok := f.held[k]; ok {
		return pubs
	}
	mv := made.(ssa.Value)
	fl := f.newFlow(k, shapeOf(mv.Type()).with(part), map[ssa.Value]bool{mv: true}, maxCalleeDepth)
	fl.follow(mv)
	f.held[k] = fl.pubs
	return fl.pubs
}

// heldKey names the object of a holder's flow that follows its parts
// too, for the memo of callees and of holderPubs.
type heldKey struct {
	made ssa.Instruction
	part *shape
}

// partKey names the shape of the parts of type t held in a holder that
// is itself a part of shape inner (nil for none).
type partKey struct {
	t     types.Type
	inner *shape
}

// partShape returns the shape of parts of type t, inside inner when it
// is not nil: one shape for each, so that the memos keyed by shape find
// it again.
func (f *freshness) partShape(t types.Type, inner *shape) *shape {
	k := partKey{t, inner}
	if sh, ok := f.parts[k]; ok {
		return sh
	}
	sh := shapeOf(t)
	if inner != nil {
		sh = sh.with(inner)
	}
	f.parts[k] = sh
	return sh
}

// owningField reports whether the field fa selects is an owning field.
func (f *freshness) owningField(fa *ssa.FieldAddr) bool {
	st, ok := structOf(fa)
	if !ok {
		return false
	}
	return f.owning(ownedKey{st, fa.Field})
}

// owning reports whether field k is an owning field. Fields that move
// parts between each other (a stack's top and each node's parent) are
// owning together or not at all: they are decided at once, as the
// greatest set whose every store keeps its parts (see movedWithin),
// starting from every field asked while deciding them.
func (f *freshness) owning(k ownedKey) bool {
	if v, ok := f.owned[k]; ok {
		return v
	}
	if k.st.Field(k.field).Exported() {
		f.owned[k] = false
		return false
	}
	if f.assumed != nil { // inside a decision: assume owning until shown not
		v, ok := f.assumed[k]
		if !ok {
			f.assumed[k], f.assumedOrder = true, append(f.assumedOrder, k)
			v = true
		}
		return v
	}
	f.assumed, f.assumedOrder = map[ownedKey]bool{k: true}, []ownedKey{k}
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(f.assumedOrder); i++ { // the order grows as fields are asked
			c := f.assumedOrder[i]
			if f.assumed[c] && !f.ownedStores(c) {
				f.assumed[c], changed = false, true
			}
		}
	}
	for c, v := range f.assumed {
		f.owned[c] = v
	}
	f.assumed, f.assumedOrder = nil, nil
	return f.owned[k]
}

// ownedStores reports whether every store of the package into field k
// stores nil or an object its function made and publishes only by the
// store, and no store copies a whole struct of k's type (which copies
// the field from another).
func (f *freshness) ownedStores(k ownedKey) bool {
	idx := f.fieldStores()
	if idx.whole.At(k.st) != nil {
		return false
	}
	byField, _ := idx.fields.At(k.st).(map[int][]*ssa.Store)
	stores := byField[k.field]
	for _, st := range stores {
		if !f.ownedBy(st) && !f.movedWithin(st) {
			return false
		}
	}
	return len(stores) > 0
}

// movedWithin reports whether st moves a part inside one holder: it
// stores what it loaded from an owning field of the holder, or of a part
// of it, into an owning field of the same holder or of one of its parts
// (r.top = r.top.parent pops a stack), or into an object its function
// made and publishes in no other way than by storing it into such a
// field (r.top = &node{parent: r.top} pushes one). The part is then
// reached still only through that holder.
func (f *freshness) movedWithin(st *ssa.Store) bool {
	root := f.partRoot(st.Val)
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if root == nil || !ok {
		return false
	}
	if f.holderRoot(fa.X) == root {
		return true
	}
	alloc := allocation(fa.X)
	if alloc == nil || alloc.Parent() != st.Parent() || alloc.(ssa.Value) != denoted(fa.X) {
		return false
	}
	var into *ssa.Store
	for _, r := range *alloc.(ssa.Value).Referrers() {
		if s, ok := r.(*ssa.Store); ok && s.Val == alloc.(ssa.Value) {
			if into != nil {
				return false
			}
			into = s
		}
	}
	if into == nil {
		return false
	}
	ifa, ok := into.Addr.(*ssa.FieldAddr)
	return ok && f.owningField(ifa) && f.holderRoot(ifa.X) == root && f.ownedBy(into)
}

// partRoot returns the holder that v was loaded from through owning
// fields, a part's part and so on: nil when v is no load of an owning
// field.
func (f *freshness) partRoot(v ssa.Value) ssa.Value {
	h, _ := f.heldPart(v)
	if h == nil {
		return nil
	}
	return f.holderRoot(h)
}

// holderRoot returns the holder that v, a holder itself, is a part of,
// through owning fields (v itself when it is no part), as denoted sees
// them.
func (f *freshness) holderRoot(v ssa.Value) ssa.Value {
	v = denoted(v)
	for range maxCalleeDepth {
		h, _ := f.heldPart(v)
		if h == nil {
			break
		}
		v = denoted(h)
	}
	return v
}

// storeIndex is the package's stores that owningField reads, found in
// one pass: by struct type (types.Identical), the stores into each
// field, and whether a whole struct of the type is stored.
type storeIndex struct {
	fields typeutil.Map // *types.Struct → map[int][]*ssa.Store, by field
	whole  typeutil.Map // *types.Struct → true
}

// fieldStores returns the index, made on first need.
func (f *freshness) fieldStores() *storeIndex {
	if f.stores != nil {
		return f.stores
	}
	idx := new(storeIndex)
	for _, fn := range f.storeFuncs() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				if u, ok := st.Val.Type().Underlying().(*types.Struct); ok && !literal(st.Val) {
					idx.whole.Set(u, true)
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				s, ok := structOf(fa)
				if !ok {
					continue
				}
				byField, _ := idx.fields.At(s).(map[int][]*ssa.Store)
				if byField == nil {
					byField = make(map[int][]*ssa.Store)
					idx.fields.Set(s, byField)
				}
				byField[fa.Field] = append(byField[fa.Field], st)
			}
		}
	}
	f.stores = idx
	return idx
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

// literal reports whether v, a struct stored whole, copies no field of
// another object: a zero value, or a composite literal (m :=
// T{empty: true} fills a temporary and copies it), whose fields' stores
// are checked as they are.
func literal(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.Const:
		return true
	case *ssa.UnOp:
		a, ok := x.X.(*ssa.Alloc)
		return ok && x.Op == token.MUL && a.Comment == "complit"
	}
	return false
}
