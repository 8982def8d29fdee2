package origins

import (
	"go/token"
	"go/types"

	"github.com/origo-dev/origo/facts"
	"golang.org/x/tools/go/ssa"
)

// spawner describes a library function that runs a function value
// argument in another goroutine.
type spawner struct {
	kind  facts.SpawnKind
	arg   int // index in CallCommon.Args of the function (receiver included)
	flags facts.SiteFlags
	// handler: the argument is an http.Handler; the entry is its
	// ServeHTTP method.
	handler bool
}

// spawners is keyed by "pkgpath.Func" or "pkgpath.Type.Method".
var spawners = map[string]spawner{
	"sync.WaitGroup.Go":                      {kind: facts.SpawnWaitGroupGo, arg: 1},
	"golang.org/x/sync/errgroup.Group.Go":    {kind: facts.SpawnErrgroupGo, arg: 1},
	"golang.org/x/sync/errgroup.Group.TryGo": {kind: facts.SpawnErrgroupGo, arg: 1},
	"time.AfterFunc":                         {kind: facts.SpawnAfterFunc, arg: 1},
	"context.AfterFunc":                      {kind: facts.SpawnContextAfterFunc, arg: 1},
	"net/http.HandleFunc":                    {kind: facts.SpawnHTTPHandler, arg: 1, flags: facts.Multiple},
	"net/http.ServeMux.HandleFunc":           {kind: facts.SpawnHTTPHandler, arg: 2, flags: facts.Multiple},
	"net/http.Handle":                        {kind: facts.SpawnHTTPHandler, arg: 1, flags: facts.Multiple, handler: true},
	"net/http.ServeMux.Handle":               {kind: facts.SpawnHTTPHandler, arg: 2, flags: facts.Multiple, handler: true},
	"net/http.ListenAndServe":                {kind: facts.SpawnHTTPHandler, arg: 1, flags: facts.Multiple, handler: true},
	"net/http.ListenAndServeTLS":             {kind: facts.SpawnHTTPHandler, arg: 3, flags: facts.Multiple, handler: true},
	"net/http.Serve":                         {kind: facts.SpawnHTTPHandler, arg: 1, flags: facts.Multiple, handler: true},
	"net/http.ServeTLS":                      {kind: facts.SpawnHTTPHandler, arg: 1, flags: facts.Multiple, handler: true},
	"testing.T.Run":                          {kind: facts.SpawnSubtest, arg: 2},
	"testing.B.Run":                          {kind: facts.SpawnSubtest, arg: 2},
	"testing.B.RunParallel":                  {kind: facts.SpawnRunParallel, arg: 1, flags: facts.Multiple},
	"testing.F.Fuzz":                         {kind: facts.SpawnFuzz, arg: 1},
}

// qualifiedName returns "pkgpath.Func" or "pkgpath.Type.Method" for a
// declared function, or "".
func qualifiedName(fn *ssa.Function) string {
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
	sp, ok := spawners[qualifiedName(callee)]
	if !ok || sp.arg >= len(call.Args) {
		return false
	}
	arg := call.Args[sp.arg]
	if c, ok := arg.(*ssa.Const); ok && c.IsNil() {
		return true // ListenAndServe(addr, nil): DefaultServeMux, registered elsewhere
	}
	var target *ssa.Function
	if sp.handler {
		target = a.handlerMethod(arg)
	} else {
		target = funcOf(arg)
	}
	flags := sp.flags | flagIf(multi, facts.Multiple)
	if sp.kind == facts.SpawnSubtest {
		if target != nil && callsParallel(target) {
			flags |= facts.Parallel
		} else {
			flags |= facts.Sync
		}
	}
	a.addSpawn(fi, sp.kind, pos, target, flags)
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

// callsParallel reports whether the body of fn calls t.Parallel.
func callsParallel(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok {
				if callee := call.Call.StaticCallee(); callee != nil && qualifiedName(callee) == "testing.T.Parallel" {
					return true
				}
			}
		}
	}
	return false
}

// isOnceDo reports whether fn is sync.Once.Do, which calls its argument
// at most once.
func isOnceDo(fn *ssa.Function) bool { return qualifiedName(fn) == "sync.Once.Do" }
