package pointer

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// A layout flattens a type into leaves: a struct into its fields, an
// array into one element standing for all, a tuple into its parts. A
// value or an object of the type is a block of consecutive nodes, one
// per leaf, so that &x.f is the node of x plus the offset of f, and every
// field of every object is a distinct location.
type layout struct {
	leaves  []leaf
	offsets []int // for a struct or tuple: the offset of each field or part
}

// leaf is one node of a flattened type.
type leaf struct {
	path      string     // from the start of the value: ".f", "[*].g", "#1"
	typ       types.Type // the leaf's own type
	noPointer bool       // !mayPoint(typ)
	// starts are the types of the values that begin at this leaf, the
	// leaf's own first and the outermost last: for x of type struct{ mu
	// sync.Mutex }, x's first leaf (mu's state) begins mu and x, so a
	// *sync.Mutex and a pointer to x's type may point to it (see
	// state.admits).
	starts []types.Type
}

func (l *layout) size() int { return len(l.leaves) }

// layouts caches layouts by type. Once frozen (the analysis is done and
// its Result is shared) it computes what it lacks without keeping it.
type layouts struct {
	m typeutil.Map
	// byPtr holds what m gave for each types.Type value asked: the same
	// type is asked again and again, and m hashes it structurally each
	// time (a fifth of the pointer analysis of client_golang's
	// prometheus package went to m).
	byPtr  map[types.Type]*layout
	frozen bool
}

func (ls *layouts) of(t types.Type) *layout {
	if l, ok := ls.byPtr[t]; ok {
		return l
	}
	l, ok := ls.m.At(t).(*layout)
	if !ok {
		l = new(layout)
		ls.flatten(l, t, "", 0)
		if !ls.frozen {
			ls.m.Set(t, l)
		}
	}
	if !ls.frozen {
		if ls.byPtr == nil {
			ls.byPtr = make(map[types.Type]*layout)
		}
		ls.byPtr[t] = l
	}
	return l
}

// maxLayoutDepth bounds the nesting of struct and array types that are
// flattened; deeper parts are one opaque leaf.
const maxLayoutDepth = 24

func (ls *layouts) flatten(l *layout, t types.Type, path string, depth int) {
	top := depth == 0
	before := len(l.leaves)
	switch u := t.Underlying().(type) {
	case *types.Struct:
		if depth > maxLayoutDepth {
			break
		}
		for i := range u.NumFields() {
			f := u.Field(i)
			if top {
				l.offsets = append(l.offsets, len(l.leaves))
			}
			ls.flatten(l, f.Type(), path+"."+f.Name(), depth+1)
		}
	case *types.Array:
		if depth > maxLayoutDepth {
			break
		}
		ls.flatten(l, u.Elem(), path+"[*]", depth+1)
	case *types.Tuple:
		for i := range u.Len() {
			if top {
				l.offsets = append(l.offsets, len(l.leaves))
			}
			ls.flatten(l, u.At(i).Type(), fmt.Sprintf("%s#%d", path, i), depth+1)
		}
	}
	// A leaf type, or one deeper than maxLayoutDepth, is one leaf; so is an
	// empty struct or tuple, at any depth, so that the size of a type is
	// the same alone and inside another (a struct{} channel element in a
	// select's tuple must take the node its load fills).
	if len(l.leaves) == before {
		l.leaves = append(l.leaves, leaf{path: path, typ: t, noPointer: !mayPoint(t)})
	}
	if _, isTuple := t.(*types.Tuple); !isTuple {
		l.leaves[before].starts = append(l.leaves[before].starts, t)
	}
}

// offsetOf returns the offset of field or tuple part i of t.
func (ls *layouts) offsetOf(t types.Type, i int) int {
	l := ls.of(t)
	if i < len(l.offsets) {
		return l.offsets[i]
	}
	return 0
}

// mayPoint reports whether a leaf of type t can hold a pointer: only
// such leaves ever have points-to sets.
func mayPoint(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Struct, *types.Array, *types.Tuple:
		return true // an opaque leaf beyond maxLayoutDepth
	}
	_, isParam := t.(*types.TypeParam)
	return isParam
}
