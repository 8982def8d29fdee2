package syncapi

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// method returns the name of the method of the named type path.typ that
// call statically calls, and the receiver it passes, or "" and nil.
// Wrappers do not count: their receiver is not the call's first argument
// (see the package documentation).
func method(call *ssa.CallCommon, path, typ string) (string, ssa.Value) {
	fn := call.StaticCallee()
	if fn == nil || fn.Signature.Recv() == nil || len(call.Args) == 0 {
		return "", nil
	}
	if !isNamed(fn.Signature.Recv().Type(), path, typ) {
		return "", nil
	}
	return fn.Name(), call.Args[0]
}

// isNamed reports whether t is (a pointer to) the named type path.name.
func isNamed(t types.Type, path, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

// qualifiedName returns "pkgpath.Func" or "pkgpath.Type.Method" for the
// function that fn declares or wraps (through instantiation and
// wrappers), or "" for function literals.
func qualifiedName(fn *ssa.Function) string {
	obj, _ := fn.Object().(*types.Func)
	if obj == nil {
		return ""
	}
	obj = obj.Origin()
	if obj.Pkg() == nil {
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
