package origins

import (
	"go/token"
	"go/types"

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
}

// SpawnerOf reports whether fn is a library function that starts
// goroutines running one of its arguments, and how.
func SpawnerOf(fn *ssa.Function) (Spawner, bool) {
	sp, ok := spawners[QualifiedName(fn)]
	return sp, ok
}

// spawners is keyed by "pkgpath.Func" or "pkgpath.Type.Method".
var spawners = map[string]Spawner{
	"sync.WaitGroup.Go":                      {Kind: facts.SpawnWaitGroupGo, Arg: 1},
	"golang.org/x/sync/errgroup.Group.Go":    {Kind: facts.SpawnErrgroupGo, Arg: 1},
	"golang.org/x/sync/errgroup.Group.TryGo": {Kind: facts.SpawnErrgroupGo, Arg: 1},
	"time.AfterFunc":                         {Kind: facts.SpawnAfterFunc, Arg: 1},
	"context.AfterFunc":                      {Kind: facts.SpawnContextAfterFunc, Arg: 1},
	"net/http.HandleFunc":                    {Kind: facts.SpawnHTTPHandler, Arg: 1, Flags: facts.Multiple},
	"net/http.ServeMux.HandleFunc":           {Kind: facts.SpawnHTTPHandler, Arg: 2, Flags: facts.Multiple},
	"net/http.Handle":                        {Kind: facts.SpawnHTTPHandler, Arg: 1, Flags: facts.Multiple, Handler: true},
	"net/http.ServeMux.Handle":               {Kind: facts.SpawnHTTPHandler, Arg: 2, Flags: facts.Multiple, Handler: true},
	"net/http.ListenAndServe":                {Kind: facts.SpawnHTTPHandler, Arg: 1, Flags: facts.Multiple, Handler: true},
	"net/http.ListenAndServeTLS":             {Kind: facts.SpawnHTTPHandler, Arg: 3, Flags: facts.Multiple, Handler: true},
	"net/http.Serve":                         {Kind: facts.SpawnHTTPHandler, Arg: 1, Flags: facts.Multiple, Handler: true},
	"net/http.ServeTLS":                      {Kind: facts.SpawnHTTPHandler, Arg: 1, Flags: facts.Multiple, Handler: true},
	"testing.T.Run":                          {Kind: facts.SpawnSubtest, Arg: 2},
	"testing.B.Run":                          {Kind: facts.SpawnSubtest, Arg: 2},
	"testing.B.RunParallel":                  {Kind: facts.SpawnRunParallel, Arg: 1, Flags: facts.Multiple},
	"testing.F.Fuzz":                         {Kind: facts.SpawnFuzz, Arg: 1},
}

// QualifiedName returns "pkgpath.Func" or "pkgpath.Type.Method" for a
// declared function, or "".
func QualifiedName(fn *ssa.Function) string {
	obj := funcObject(fn)
	if obj == nil || obj.Pkg() == nil {
		return ""
	}
	if recv := obj.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		named, ok := t.(*types.Named)
		if !ok {
			return ""
		}
		return obj.Pkg().Path() + "." + named.Obj().Name() + "." + obj.Name()
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

// spawnCall records a call of a library spawner as a spawn site and
// reports whether it was one.
func (a *state) spawnCall(fi *funcInfo, callee *ssa.Function, call *ssa.CallCommon, pos token.Pos, multi bool) bool {
	sp, ok := SpawnerOf(callee)
	if !ok || sp.Arg >= len(call.Args) {
		return false
	}
	arg := call.Args[sp.Arg]
	if c, ok := arg.(*ssa.Const); ok && c.IsNil() {
		return true // ListenAndServe(addr, nil): DefaultServeMux, registered elsewhere
	}
	var target *ssa.Function
	if sp.Handler {
		target = a.handlerMethod(arg)
	} else {
		target = funcOf(arg)
	}
	flags := sp.Flags | flagIf(multi, facts.Multiple)
	if sp.Kind == facts.SpawnSubtest {
		if target != nil && CallsParallel(target) {
			flags |= facts.Parallel
		} else {
			flags |= facts.Sync
		}
	}
	a.addSpawn(fi, sp.Kind, pos, target, flags)
	return true
}

// handlerMethod returns the function that serves requests for an
// http.Handler value: the function itself for http.HandlerFunc(f),
// otherwise the ServeHTTP method of the dynamic type when SSA shows it.
func (a *state) handlerMethod(v ssa.Value) *ssa.Function {
	mi, ok := v.(*ssa.MakeInterface)
	if !ok {
		return nil
	}
	if fn := funcOf(mi.X); fn != nil {
		return fn
	}
	t := mi.X.Type()
	if types.IsInterface(t) {
		return nil
	}
	prog := mi.Parent().Prog
	sel := prog.MethodSets.MethodSet(t).Lookup(nil, "ServeHTTP")
	if sel == nil {
		return nil
	}
	return prog.MethodValue(sel)
}

// CallsParallel reports whether the body of fn calls t.Parallel.
func CallsParallel(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok {
				if callee := call.Call.StaticCallee(); callee != nil && QualifiedName(callee) == "testing.T.Parallel" {
					return true
				}
			}
		}
	}
	return false
}

// isOnceDo reports whether fn is sync.Once.Do, which calls its argument
// at most once.
func isOnceDo(fn *ssa.Function) bool { return QualifiedName(fn) == "sync.Once.Do" }
