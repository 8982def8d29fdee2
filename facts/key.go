package facts

import (
	"go/types"
	"strconv"
	"strings"
)

// A Key is an access path: how a function names a mutex, a channel or
// memory, by the expression that reaches it. It starts at a root (a
// parameter, a closure's free variable, a package variable, or a local
// value) and takes a Path of steps from there. A caller can name what a
// key rooted at a parameter, free variable or package variable names,
// by renaming the root (Rebase): that is how the effects of a function
// reach its callers, in this package and, through facts, in others.
//
// Keys are comparable: equal keys name the same path. How a key is
// written down is known only to this package, which encodes keys in
// facts (Interner.Key, Effects.Key); nothing else parses one.
type Key struct {
	root    RootKind
	index   int    // of a Param or FreeVar root
	name    string // of a Global ("path.name") or Local (SSA value name) root
	path    Path
	unbound bool
}

// RootKind is where a Key starts.
type RootKind uint8

// The kinds of roots.
const (
	Local   RootKind = iota // a value of the function's own: callers cannot name it
	Param                   // parameter Index, the receiver first
	FreeVar                 // free variable Index of a closure
	Global                  // a package variable, by "path.name"
)

// ParamKey returns the key of parameter i (the receiver first).
func ParamKey(i int) Key { return Key{root: Param, index: i} }

// FreeVarKey returns the key of a closure's free variable i.
func FreeVarKey(i int) Key { return Key{root: FreeVar, index: i} }

// GlobalKey returns the key of the package variable named "path.name".
func GlobalKey(name string) Key { return Key{root: Global, name: name} }

// LocalKey returns the key of the function's value named name.
func LocalKey(name string) Key { return Key{root: Local, name: name} }

// Root returns the kind of k's root and its index (Param, FreeVar) or
// name (Global, Local).
func (k Key) Root() (kind RootKind, index int, name string) { return k.root, k.index, k.name }

// Path returns the steps of k from its root.
func (k Key) Path() Path { return k.path }

// Extend returns k followed by the steps of p.
func (k Key) Extend(p Path) Key {
	k.path = Path{k.path.s + p.s}
	return k
}

// Then returns k followed by step s.
func (k Key) Then(s Step) Key {
	k.path = k.path.Then(s)
	return k
}

// CutPrefix returns the steps of k after those of prefix, when k is
// prefix followed by zero or more steps.
func (k Key) CutPrefix(prefix Key) (Path, bool) {
	if k.root != prefix.root || k.index != prefix.index || k.name != prefix.name || k.unbound != prefix.unbound {
		return Path{}, false
	}
	rest, ok := strings.CutPrefix(k.path.s, prefix.path.s)
	if !ok || rest != "" && rest[0] >= '0' && rest[0] <= '9' {
		return Path{}, false // .1 is no prefix of .12
	}
	return Path{rest}, true
}

// Rebase returns k's path taken from root: a callee's key renamed into
// the caller's, root being what the callee's root is at the call.
func (k Key) Rebase(root Key) Key { return root.Extend(k.path) }

// Unbind returns k marked as a callee's key that has no counterpart at
// the call (a parameter the caller passed no value of its own for).
func (k Key) Unbind() Key {
	k.unbound = true
	return k
}

// Rooted reports whether a caller can name what k names: k starts at a
// parameter, a free variable or a package variable, and is bound.
func (k Key) Rooted() bool { return k.root != Local && !k.unbound }

// Bound reports whether k is not a callee's key left without a
// counterpart at a call (see Unbind).
func (k Key) Bound() bool { return !k.unbound }

// Compare orders keys, for sorted sets of them.
func (k Key) Compare(o Key) int { return strings.Compare(k.String(), o.String()) }

// String renders k for debugging output; nothing should parse it.
func (k Key) String() string {
	var root string
	switch k.root {
	case Param:
		root = "p" + strconv.Itoa(k.index)
	case FreeVar:
		root = "fv" + strconv.Itoa(k.index)
	case Global:
		root = "g:" + k.name
	default:
		root = "v:" + k.name
	}
	if k.unbound {
		root = "?" + root
	}
	return root + "|" + k.path.s
}

// parseKey reads what String wrote; a malformed key is unbound, so that
// it names nothing a caller has.
func parseKey(s string) Key {
	var k Key
	if rest, ok := strings.CutPrefix(s, "?"); ok {
		k.unbound, s = true, rest
	}
	root, path, ok := strings.Cut(s, "|")
	if !ok {
		return Key{unbound: true}
	}
	if k.path, ok = parsePath(path); !ok {
		return Key{unbound: true}
	}
	switch {
	case strings.HasPrefix(root, "g:"):
		k.root, k.name = Global, root[2:]
	case strings.HasPrefix(root, "v:"):
		k.root, k.name = Local, root[2:]
	case strings.HasPrefix(root, "fv"):
		i, err := strconv.Atoi(root[2:])
		if err != nil || i < 0 {
			return Key{unbound: true}
		}
		k.root, k.index = FreeVar, i
	case strings.HasPrefix(root, "p"):
		i, err := strconv.Atoi(root[1:])
		if err != nil || i < 0 {
			return Key{unbound: true}
		}
		k.root, k.index = Param, i
	default:
		return Key{unbound: true}
	}
	return k
}

// Key interns key k and returns its index in the string table.
func (in *Interner) Key(k Key) uint32 { return in.Intern(k.String()) }

// Key returns the key at index i of the string table.
func (e *Effects) Key(i uint32) Key { return parseKey(e.Str(i)) }

// A Path is the steps of a key from its root. The zero Path is empty;
// paths are comparable.
type Path struct {
	s string // as Key.String writes it: ".3", ":3", "[]", "@" per step
}

// A Step is one step of a Path.
type Step struct {
	Op    StepOp
	Index int // the field, for FieldAddr and Field
}

// StepOp is what a step does, as the SSA instruction of its name.
type StepOp byte

// The steps.
const (
	FieldAddr StepOp = '.' // the address of field Index of the struct a pointer points to
	Field     StepOp = ':' // field Index of a struct value
	IndexAddr StepOp = '[' // the address of an element of an array, through a pointer, or of a slice
	Load      StepOp = '@' // a load through a pointer
)

// Then returns p followed by step s.
func (p Path) Then(s Step) Path {
	switch s.Op {
	case FieldAddr, Field:
		return Path{p.s + string(rune(s.Op)) + strconv.Itoa(s.Index)}
	case IndexAddr:
		return Path{p.s + "[]"}
	}
	return Path{p.s + "@"}
}

// IsEmpty reports whether p has no steps.
func (p Path) IsEmpty() bool { return p.s == "" }

// Loads reports whether p has a Load step: a store to a pointer on the
// way may make it reach other memory.
func (p Path) Loads() bool { return strings.Contains(p.s, "@") }

// CutLoad returns p without its first step, when that step is a Load.
func (p Path) CutLoad() (Path, bool) {
	rest, ok := strings.CutPrefix(p.s, "@")
	return Path{rest}, ok
}

// Steps returns the steps of p.
func (p Path) Steps() []Step {
	steps, _ := steps(p.s)
	return steps
}

func parsePath(s string) (Path, bool) {
	_, ok := steps(s)
	return Path{s}, ok
}

func steps(s string) (steps []Step, ok bool) {
	for s != "" {
		switch op := StepOp(s[0]); op {
		case FieldAddr, Field:
			end := 1
			for end < len(s) && s[end] >= '0' && s[end] <= '9' {
				end++
			}
			i, err := strconv.Atoi(s[1:end])
			if err != nil {
				return nil, false
			}
			steps = append(steps, Step{op, i})
			s = s[end:]
		case IndexAddr:
			if !strings.HasPrefix(s, "[]") {
				return nil, false
			}
			steps = append(steps, Step{Op: IndexAddr})
			s = s[2:]
		case Load:
			steps = append(steps, Step{Op: Load})
			s = s[1:]
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
	case FieldAddr:
		if st, ok := Pointee(t).Underlying().(*types.Struct); ok && s.Index < st.NumFields() {
			return types.NewPointer(st.Field(s.Index).Type()), true
		}
	case Field:
		if st, ok := t.Underlying().(*types.Struct); ok && s.Index < st.NumFields() {
			return st.Field(s.Index).Type(), true
		}
	case IndexAddr:
		switch u := Pointee(t).Underlying().(type) {
		case *types.Array:
			return types.NewPointer(u.Elem()), true
		}
		if sl, ok := t.Underlying().(*types.Slice); ok {
			return types.NewPointer(sl.Elem()), true
		}
	case Load:
		if p, ok := t.Underlying().(*types.Pointer); ok {
			return p.Elem(), true
		}
	}
	return nil, false
}

// Render renders the expression that p reaches from a value named name
// of type t, as the source would write it: "c.mu", "s.items[i]". It
// returns "" when name is "" or p does not fit t.
func (p Path) Render(name string, t types.Type) string {
	steps, ok := steps(p.s)
	if name == "" || !ok {
		return ""
	}
	for _, s := range steps {
		switch s.Op {
		case FieldAddr:
			if st, ok := Pointee(t).Underlying().(*types.Struct); ok && s.Index < st.NumFields() {
				name += "." + st.Field(s.Index).Name()
			}
		case Field:
			if st, ok := t.Underlying().(*types.Struct); ok && s.Index < st.NumFields() {
				name += "." + st.Field(s.Index).Name()
			}
		case IndexAddr:
			name += "[i]"
		}
		if t, ok = s.Next(t); !ok {
			return ""
		}
	}
	return name
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
