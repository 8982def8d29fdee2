package facts

import (
	"fmt"
	"slices"
	"strings"
)

// SpawnKind says how a goroutine (an origin) is started.
type SpawnKind uint8

// The ways Go code starts goroutines that origo recognizes.
const (
	SpawnGo               SpawnKind = iota + 1 // go f(x), go func(){...}()
	SpawnWaitGroupGo                           // (*sync.WaitGroup).Go(f)
	SpawnErrgroupGo                            // (*errgroup.Group).Go(f) and TryGo
	SpawnAfterFunc                             // time.AfterFunc(d, f)
	SpawnContextAfterFunc                      // context.AfterFunc(ctx, f)
	SpawnHTTPHandler                           // http.HandleFunc, http.Handle, ServeMux, ListenAndServe
	SpawnSubtest                               // (*testing.T).Run and (*testing.B).Run
	SpawnRunParallel                           // (*testing.B).RunParallel(f)
	SpawnFuzz                                  // (*testing.F).Fuzz(f)
	SpawnFinalizer                             // runtime.SetFinalizer(x, f)
	SpawnCleanup                               // runtime.AddCleanup(x, f, arg)
	SpawnBubble                                // synctest.Test(t, f): f and the goroutines it starts, in a bubble
	SpawnCallback                              // a callback another package keeps and calls on its goroutines (FuncEffects.Async)
	numSpawnKinds
)

var spawnKindNames = [numSpawnKinds]string{
	SpawnGo:               "go",
	SpawnWaitGroupGo:      "wg.Go",
	SpawnErrgroupGo:       "errgroup.Go",
	SpawnAfterFunc:        "time.AfterFunc",
	SpawnContextAfterFunc: "context.AfterFunc",
	SpawnHTTPHandler:      "http.Handler",
	SpawnSubtest:          "t.Run",
	SpawnRunParallel:      "b.RunParallel",
	SpawnFuzz:             "f.Fuzz",
	SpawnFinalizer:        "runtime.SetFinalizer",
	SpawnCleanup:          "runtime.AddCleanup",
	SpawnBubble:           "synctest.Test",
	SpawnCallback:         "callback",
}

func (k SpawnKind) String() string {
	if k < numSpawnKinds && spawnKindNames[k] != "" {
		return spawnKindNames[k]
	}
	return fmt.Sprintf("SpawnKind(%d)", uint8(k))
}

// SiteFlags qualify a spawn site.
type SiteFlags uint8

const (
	// Multiple: the site may start more than one goroutine, so the
	// origin may run concurrently with itself: it is in a loop, in a
	// function called in a loop, nested in such an origin, or an HTTP
	// handler or RunParallel body.
	Multiple SiteFlags = 1 << iota
	// Parallel: a subtest whose body calls t.Parallel, so it runs
	// concurrently with its parallel siblings.
	Parallel
	// Sync: the spawner waits for the goroutine to finish before it
	// continues (a subtest that does not call t.Parallel, the bodies
	// that b.RunParallel runs, a synctest bubble, whose every goroutine
	// synctest.Test waits for).
	Sync
)

// MaxSites bounds the sites kept in one closed summary; the rest are
// counted in Origins.Dropped.
const MaxSites = 64

// Origins is the callee-closed summary of the goroutines that a call of
// a function may start: those its body starts, those its callees start
// (in any package), and those nested in them. It travels in its package's
// OriginsTable, only when it is not empty, so most functions have none.
type Origins struct {
	V       uint16   // format Version
	Strings []string // table of function names and file names; index 0 is ""
	Sites   []Site   // sorted by position
	Dropped uint32   // sites left out beyond MaxSites
}

// Site is one place where a goroutine is started.
type Site struct {
	Kind   SpawnKind
	Flags  SiteFlags
	Target uint32 // Strings index of the goroutine's entry function; 0 if unknown (a dynamic call)
	File   uint32 // Strings index of the file of the spawn
	Line   uint32
	Col    uint32
	Parent int32 // index in Sites of the origin that starts this one; -1 if the summarized function's goroutine does
}

// AFact implements analysis.Fact.
func (*Origins) AFact() {}

// Valid reports whether o was written by this format version.
func (o *Origins) Valid() bool { return o != nil && o.V == Version }

// TargetName returns the entry function of s, or "" if it is unknown.
func (o *Origins) TargetName(s Site) string { return o.str(s.Target) }

// FileName returns the file in which s is.
func (o *Origins) FileName(s Site) string { return o.str(s.File) }

func (o *Origins) str(i uint32) string {
	if int(i) < len(o.Strings) {
		return o.Strings[i]
	}
	return ""
}

// String renders the summary for tests and -dump: one entry per site,
// "kind target file:line [flags] <parent", with package paths shortened
// to their last element.
func (o *Origins) String() string {
	var b strings.Builder
	b.WriteString("origins(")
	for i, s := range o.Sites {
		if i > 0 {
			b.WriteString("; ")
		}
		target := ShortName(o.TargetName(s))
		if target == "" {
			target = "<dynamic>"
		}
		fmt.Fprintf(&b, "%s %s %s:%d", s.Kind, target, baseName(o.FileName(s)), s.Line)
		if s.Flags&Multiple != 0 {
			b.WriteString(" multi")
		}
		if s.Flags&Parallel != 0 {
			b.WriteString(" parallel")
		}
		if s.Flags&Sync != 0 {
			b.WriteString(" sync")
		}
		if s.Parent >= 0 {
			fmt.Fprintf(&b, " <%d", s.Parent)
		}
	}
	if o.Dropped > 0 {
		fmt.Fprintf(&b, "; +%d more", o.Dropped)
	}
	b.WriteString(")")
	return b.String()
}

// ShortName shortens the package paths in an SSA function name to their
// last element: "(*example.com/x/c.Pool).run" becomes "(*c.Pool).run".
func ShortName(name string) string {
	var b strings.Builder
	start := 0 // start of the current run of path characters
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '/':
			start = i + 1
		case isPathChar(c):
		default:
			b.WriteString(name[start : i+1])
			start = i + 1
		}
	}
	b.WriteString(name[start:])
	return b.String()
}

func isPathChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '_' || c == '-' || c == '.' || c == '~'
}

func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

// OriginsTable is the package fact of passes/origins: the Origins of
// each declared function and method of the package that may start a
// goroutine, by the function's full name (types.Func.FullName). One fact
// per package, not an object fact per function: x/tools re-exports the
// object facts of an import's methods in every importer's facts, so that
// they grew with the import graph (22 of grpc's 28 MB of facts), while
// importers need the facts of their direct imports only, the summaries
// being closed over their callees.
type OriginsTable struct {
	V     uint16
	Funcs []NamedOrigins // sorted by Name
}

// NamedOrigins is the summary of one function of an OriginsTable.
type NamedOrigins struct {
	Name    string
	Origins Origins
}

// AFact implements analysis.Fact.
func (*OriginsTable) AFact() {}

// Valid reports whether t was written by this format version.
func (t *OriginsTable) Valid() bool { return t != nil && t.V == Version }

// Lookup returns the summary of the function of full name name, or nil.
func (t *OriginsTable) Lookup(name string) *Origins {
	i, ok := slices.BinarySearchFunc(t.Funcs, name, func(f NamedOrigins, name string) int { return strings.Compare(f.Name, name) })
	if !ok {
		return nil
	}
	return &t.Funcs[i].Origins
}
