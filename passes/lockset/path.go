package lockset

import (
	"go/types"
	"strconv"
	"strings"
)

// A Step is one step of a key's path (see Held.Key): Op is '.' (the
// address of field Index of the struct a pointer points to), ':' (field
// Index of a struct value), '[' (the address of an element) or '@' (a
// load through a pointer).
type Step struct {
	Op    byte
	Index int
}

// Steps parses a key's path; ok is false for a malformed one.
func Steps(path string) (steps []Step, ok bool) {
	for path != "" {
		switch op := path[0]; op {
		case '.', ':':
			end := 1
			for end < len(path) && path[end] >= '0' && path[end] <= '9' {
				end++
			}
			i, err := strconv.Atoi(path[1:end])
			if err != nil {
				return nil, false
			}
			steps = append(steps, Step{op, i})
			path = path[end:]
		case '[':
			if !strings.HasPrefix(path, "[]") {
				return nil, false
			}
			steps = append(steps, Step{Op: '['})
			path = path[2:]
		case '@':
			steps = append(steps, Step{Op: '@'})
			path = path[1:]
		default:
			return nil, false
		}
	}
	return steps, true
}

// Next returns the type of the value that step s makes of a value of
// type t, as SSA types FieldAddr, Field, IndexAddr and a load.
func (s Step) Next(t types.Type) (types.Type, bool) {
	switch s.Op {
	case '.':
		if st, ok := Pointee(t).Underlying().(*types.Struct); ok && s.Index < st.NumFields() {
			return types.NewPointer(st.Field(s.Index).Type()), true
		}
	case ':':
		if st, ok := t.Underlying().(*types.Struct); ok && s.Index < st.NumFields() {
			return st.Field(s.Index).Type(), true
		}
	case '[':
		switch u := Pointee(t).Underlying().(type) {
		case *types.Array:
			return types.NewPointer(u.Elem()), true
		}
		if sl, ok := t.Underlying().(*types.Slice); ok {
			return types.NewPointer(sl.Elem()), true
		}
	case '@':
		if p, ok := t.Underlying().(*types.Pointer); ok {
			return p.Elem(), true
		}
	}
	return nil, false
}

// Pointee returns what a pointer, slice or channel type refers to: the
// pointed-to type or the element; the invalid type for other types. It
// is the one such function of origo's passes.
func Pointee(t types.Type) types.Type {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return u.Elem()
	case *types.Slice:
		return u.Elem()
	case *types.Chan:
		return u.Elem()
	}
	return types.Typ[types.Invalid]
}

// PathName renders the expression that reaches a key from a value named
// name of type t, as the source would write it: "c.mu", "s.items[i]".
// It returns "" when name is "" or the path does not fit t.
func PathName(name string, t types.Type, path string) string {
	steps, ok := Steps(path)
	if name == "" || !ok {
		return ""
	}
	for _, s := range steps {
		switch s.Op {
		case '.':
			if st, ok := Pointee(t).Underlying().(*types.Struct); ok && s.Index < st.NumFields() {
				name += "." + st.Field(s.Index).Name()
			}
		case ':':
			if st, ok := t.Underlying().(*types.Struct); ok && s.Index < st.NumFields() {
				name += "." + st.Field(s.Index).Name()
			}
		case '[':
			name += "[i]"
		}
		if t, ok = s.Next(t); !ok {
			return ""
		}
	}
	return name
}
