package syncapi

import (
	"github.com/origo-dev/origo/facts"
	"golang.org/x/tools/go/ssa"
)

// Spawner describes a library function that runs a function value
// argument in other goroutines.
type Spawner struct {
	Kind  facts.SpawnKind
	Arg   int // index in CallCommon.Args of the function (receiver included)
	Flags facts.SiteFlags
	// Handler: the argument is an http.Handler; the entry is its
	// ServeHTTP method.
	Handler bool
	// Group: the receiver (Args[0]) is a WaitGroup or errgroup.Group
	// whose Wait waits for the goroutines started.
	Group bool
}

// Spawn reports whether fn is a library function that starts goroutines
// running one of its arguments, and how. Wrappers and instances count
// as the function they wrap; Arg says where the function value is.
func Spawn(fn *ssa.Function) (Spawner, bool) {
	sp, ok := spawners[qualifiedName(fn)]
	return sp, ok
}

// spawners is keyed by "pkgpath.Func" or "pkgpath.Type.Method".
var spawners = map[string]Spawner{
	"sync.WaitGroup.Go":            {Kind: facts.SpawnWaitGroupGo, Arg: 1, Group: true},
	errgroupPath + ".Group.Go":     {Kind: facts.SpawnErrgroupGo, Arg: 1, Group: true},
	errgroupPath + ".Group.TryGo":  {Kind: facts.SpawnErrgroupGo, Arg: 1, Group: true},
	"time.AfterFunc":               {Kind: facts.SpawnAfterFunc, Arg: 1},
	"context.AfterFunc":            {Kind: facts.SpawnContextAfterFunc, Arg: 1},
	"net/http.HandleFunc":          {Kind: facts.SpawnHTTPHandler, Arg: 1, Flags: facts.Multiple},
	"net/http.ServeMux.HandleFunc": {Kind: facts.SpawnHTTPHandler, Arg: 2, Flags: facts.Multiple},
	"net/http.Handle":              {Kind: facts.SpawnHTTPHandler, Arg: 1, Flags: facts.Multiple, Handler: true},
	"net/http.ServeMux.Handle":     {Kind: facts.SpawnHTTPHandler, Arg: 2, Flags: facts.Multiple, Handler: true},
	"net/http.ListenAndServe":      {Kind: facts.SpawnHTTPHandler, Arg: 1, Flags: facts.Multiple, Handler: true},
	"net/http.ListenAndServeTLS":   {Kind: facts.SpawnHTTPHandler, Arg: 3, Flags: facts.Multiple, Handler: true},
	"net/http.Serve":               {Kind: facts.SpawnHTTPHandler, Arg: 1, Flags: facts.Multiple, Handler: true},
	"net/http.ServeTLS":            {Kind: facts.SpawnHTTPHandler, Arg: 1, Flags: facts.Multiple, Handler: true},
	"testing.T.Run":                {Kind: facts.SpawnSubtest, Arg: 2},
	"testing.B.Run":                {Kind: facts.SpawnSubtest, Arg: 2},
	"testing.B.RunParallel":        {Kind: facts.SpawnRunParallel, Arg: 1, Flags: facts.Multiple | facts.Sync},
	"testing.F.Fuzz":               {Kind: facts.SpawnFuzz, Arg: 1, Flags: facts.Sync}, // its inputs run one after another; Fuzz returns after them
	// synctest.Test runs f in a new goroutine, a bubble, and returns
	// after every goroutine of the bubble has exited.
	"testing/synctest.Test": {Kind: facts.SpawnBubble, Arg: 1, Flags: facts.Sync},
	// Finalizers run one after another on one goroutine of the
	// runtime's; cleanups may run at once on several.
	"runtime.SetFinalizer": {Kind: facts.SpawnFinalizer, Arg: 1},
	"runtime.AddCleanup":   {Kind: facts.SpawnCleanup, Arg: 1, Flags: facts.Multiple},
}

// TParallel reports whether fn is (*testing.T).Parallel: a subtest that
// calls it runs alongside its siblings, one that does not runs while
// t.Run waits.
func TParallel(fn *ssa.Function) bool { return qualifiedName(fn) == "testing.T.Parallel" }
