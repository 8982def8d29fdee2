package facts

import "strings"

// Guarded is the object fact of analyzers/guardedby: the mutexes that a
// "+checklocks:mu" annotation (gVisor's checklocks syntax) says must be
// held to access a struct field, or to call a function. It is exported
// on the field's *types.Var, or the function's *types.Func, so that an
// importer checks the accesses and calls it makes against the
// annotation, whose comment it does not see.
//
// A mutex is the annotation's text, a path of field names ("mu",
// "parent.mu"; for a function, from a parameter: "s.mu"), which the
// importer resolves against the struct or the signature it has from the
// export data: Keys name paths by field index, which the text says in
// the words the message shows.
type Guarded struct {
	V  uint16
	By []GuardedBy // in the order of the annotations
}

// GuardedBy is one mutex of a Guarded fact.
type GuardedBy struct {
	Mutex string // the path as annotated: "mu", "parent.mu", "s.mu"
	Read  bool   // +checklocksread on a function: held for reading is enough
	At    string // the annotation's position, "file:line:col"
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
	b.WriteString(")")
	return b.String()
}
