package facts

// PointerSummaries is the package fact of passes/pointer: the summaries
// of the package's functions and methods, keyed by SSA name. One fact per
// package, not one per function: an importer whose API mentions a type
// would otherwise re-export a fact for each of its methods.
type PointerSummaries struct {
	V       uint16
	Strings []string      // names, types and positions; index 0 is ""
	Funcs   []FuncSummary // sorted by Name's string
}

// AFact implements analysis.Fact.
func (*PointerSummaries) AFact() {}

// Valid reports whether s was written by this format version.
func (s *PointerSummaries) Valid() bool { return s != nil && s.V == Version }

// Str returns string i of the table.
func (s *PointerSummaries) Str(i uint32) string {
	if int(i) < len(s.Strings) {
		return s.Strings[i]
	}
	return ""
}

// FuncSummary is what a call of a function does to memory, as a small
// points-to graph: objects standing for what the arguments point to (and
// what those point to in turn), for what the call allocates, and the
// edges between their leaves that the call may create; plus what the
// results point to. An importer instantiates it at each call site.
type FuncSummary struct {
	Name    uint32
	Objects []SumObject
	Edges   []SumEdge // From ≥ 0
	Results []SumEdge // From = -1, FromOff = the leaf of the result tuple
	// Truncated is set when the graph was cut at MaxSumObjects.
	Truncated bool
}

// MaxSumObjects bounds the objects of one summary.
const MaxSumObjects = 64

// SumObjectKind says what a summary object stands for.
type SumObjectKind uint8

// The kinds of summary objects.
const (
	SumParam  SumObjectKind = iota + 1 // what leaf Leaf of parameter Param points to at the call
	SumSub                             // what leaf Leaf of object Parent points to at the call
	SumAlloc                           // an object the call allocates (anew at each call site)
	SumGlobal                          // the package-level variable named by Site
)

// EnvParam is the Param of the SumParam object that stands for a
// closure's free variables: the closure object itself.
const EnvParam = 0xFFFF

// SumObject is one object of a summary.
type SumObject struct {
	Kind   SumObjectKind
	Param  uint16 // SumParam: the parameter, receiver first
	Leaf   uint32 // SumParam: the leaf of the parameter; SumSub: the leaf of Parent
	Parent int32  // SumSub: the index of the parent object
	Size   uint32 // leaves of the object
	Type   uint32 // Strings index: the object's type, for messages
	Site   uint32 // Strings index: "file:line" of the allocation (SumAlloc), or the variable (SumGlobal)
	// Func names the function of a closure object (SumAlloc), whose
	// summary is in the same fact.
	Func uint32
	// Dyn names the dynamic type of an interface's boxed value
	// (SumAlloc), whose methods' summaries an importer calls.
	Dyn uint32
}

// SumEdge says that leaf FromOff of object From may point to leaf ToOff
// of object To.
type SumEdge struct {
	From    int32
	FromOff uint32
	To      int32
	ToOff   uint32
}
