package origins

import (
	"go/token"
	"go/types"

	"github.com/origo-dev/origo/facts"
	"github.com/origo-dev/origo/passes/syncapi"
	"golang.org/x/tools/go/ssa"
)

// spawnCall records a call of a library spawner as a spawn site and
// reports whether it was one.
func (a *state) spawnCall(fi *funcInfo, callee *ssa.Function, call *ssa.CallCommon, pos token.Pos, multi bool) bool {
	sp, ok := syncapi.Spawn(callee)
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
		if mi, ok := arg.(*ssa.MakeInterface); ok {
			arg = mi.X // runtime.SetFinalizer's finalizer is an any
		}
		target = FuncOf(arg)
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
	if fn := FuncOf(mi.X); fn != nil {
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
				if callee := call.Call.StaticCallee(); callee != nil && syncapi.TParallel(callee) {
					return true
				}
			}
		}
	}
	return false
}
