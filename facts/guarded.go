package facts

import "strings"

// Guarded is the object fact of analyzers/guardedby: the mutexes that a
// "+checklocks:mu" annotation (gVisor's checklocks syntax) says must be
// held to access a struct field or a package variable, or to call a
// function. It is exported on the field's or the variable's *types.Var,
// or the function's *types.Func, so that an importer checks the accesses
// and calls it makes against the annotation, whose comment it does not
// see.
//
// Each mutex is resolved already, as the steps of the Key that package
// lockset gives it: the importer needs nothing that its export data may
// leave out (an unexported mutex variable), and the annotation's text
// is kept for messages.
type Guarded struct {
	V       uint16
	By      []GuardedBy // in the order of the annotations
	ReadAny bool        // +checklocksreadany on a field: a read holds any one of them
	Atomic  bool        // +checkatomic too: atomic operations on it are another check's
}

// GuardedBy is one mutex of a Guarded fact.
type GuardedBy struct {
	Mutex  string // the path as annotated: "mu", "parent.mu"; "s.mu" on a function; "globalMu"
	Global string // the package variable the path starts at, "path.name"; "" for a path from the field's struct or a parameter
	Param  int    // on a function, with no Global: the parameter the path starts at (the receiver first)
	Steps  []Step // the path from the pointer to the field's struct, the parameter or the variable
	Read   bool   // +checklocksread on a function: held for reading is enough
	At     string // the annotation's position, "file:line:col"
}

// AFact implements analysis.Fact.
func (*Guarded) AFact() {}

// Valid reports whether g was written by this format version.
func (g *Guarded) Valid() bool { return g != nil && g.V == Version }

// String renders the fact for tests: "guarded(mu at a.go:7; ...)".
func (g *Guarded) String() string {
	var b strings.Builder
	b.WriteString("guarded(")
	for i, by := range g.By {
		if i > 0 {
			b.WriteString("; ")
		}
		if by.Read {
			b.WriteString("read ")
		}
		b.WriteString(by.Mutex + " at " + ShortPos(by.At))
	}
	if g.ReadAny {
		b.WriteString("; read any")
	}
	if g.Atomic {
		b.WriteString("; atomic")
	}
	b.WriteString(")")
	return b.String()
}
