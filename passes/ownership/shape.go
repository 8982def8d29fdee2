package ownership

import "go/types"

// A shape says which types a pointer into one object may have, so that
// a value loaded from the object is followed only when it may point back
// into it (s.init(s) stores s into s).
type shape struct {
	held  []types.Type // what the object holds by value: *X points into it for X here
	elems []types.Type // the elements of its arrays: []E points into it for E here
	ref   types.Type   // the slice, map or channel that the object backs, or nil
	refs  []types.Type // those of the objects a container holds
}

// shapeOf returns the shape of the object that a value of type ptr made
// (a pointer from new or &T{}, a slice, map or channel from make).
func shapeOf(ptr types.Type) *shape {
	sh := new(shape)
	switch u := ptr.Underlying().(type) {
	case *types.Pointer:
		sh.hold(u.Elem())
	case *types.Slice:
		sh.ref = ptr
		sh.elems = append(sh.elems, u.Elem())
		sh.hold(u.Elem())
	default:
		sh.ref = ptr
	}
	return sh
}

// with returns a shape for an object that may also hold pointers into
// the object of other: a container of it.
func (sh *shape) with(other *shape) *shape {
	u := &shape{ref: sh.ref}
	for _, list := range [][]types.Type{sh.held, other.held} {
		for _, t := range list {
			u.held = appendNew(u.held, t)
		}
	}
	for _, list := range [][]types.Type{sh.elems, other.elems} {
		for _, t := range list {
			u.elems = appendNew(u.elems, t)
		}
	}
	if other.ref != nil {
		u.refs = append(u.refs, other.ref)
	}
	u.refs = append(u.refs, sh.refs...)
	u.refs = append(u.refs, other.refs...)
	return u
}

func appendNew(list []types.Type, t types.Type) []types.Type {
	if contains(list, t) {
		return list
	}
	return append(list, t)
}

// hold adds t and what it holds by value, through fields and array
// elements, to the held types.
func (sh *shape) hold(t types.Type) {
	if contains(sh.held, t) {
		return
	}
	sh.held = append(sh.held, t)
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for f := range u.Fields() {
			sh.hold(f.Type())
		}
	case *types.Array:
		if !contains(sh.elems, u.Elem()) {
			sh.elems = append(sh.elems, u.Elem())
		}
		sh.hold(u.Elem())
	}
}

func contains(list []types.Type, t types.Type) bool {
	for _, x := range list {
		if types.Identical(x, t) {
			return true
		}
	}
	return false
}

// mayHold reports whether a value of type t may point into the object:
// a pointer to what it holds, a slice of its arrays, the object itself
// when it is a slice, map or channel, an interface, an unsafe.Pointer,
// or a struct, array or tuple holding one of these.
func (sh *shape) mayHold(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		if a, ok := u.Elem().Underlying().(*types.Array); ok && contains(sh.elems, a.Elem()) {
			return true
		}
		return contains(sh.held, u.Elem())
	case *types.Slice:
		return contains(sh.elems, u.Elem()) || sh.isRef(t)
	case *types.Map, *types.Chan:
		return sh.isRef(t)
	case *types.Interface:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Struct:
		for f := range u.Fields() {
			if sh.mayHold(f.Type()) {
				return true
			}
		}
	case *types.Array:
		return sh.mayHold(u.Elem())
	case *types.Tuple:
		for v := range u.Variables() {
			if sh.mayHold(v.Type()) {
				return true
			}
		}
	}
	return false
}

func (sh *shape) isRef(t types.Type) bool {
	return sh.ref != nil && types.Identical(sh.ref, t) || contains(sh.refs, t)
}
