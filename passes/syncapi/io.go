package syncapi

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// IOBuffer recognizes a call whose effect on its []byte argument the io
// contracts state, whatever the implementation (a system call the
// analysis cannot see into, another package's type): Read(p) and
// ReadAt(p, off) of io.Reader and io.ReaderAt "read up to len(p) bytes
// into p", writing its elements, as io.ReadFull(r, p) and
// io.ReadAtLeast(r, p, min) do; Write(p) and WriteAt(p, off) of
// io.Writer and io.WriterAt read them ("must not modify the slice
// data"). It returns p and whether the call writes it. Only calls whose
// callee has no body in view are recognized (an interface method, a
// function of another package): a body in view makes its own accesses.
func IOBuffer(call *ssa.CallCommon) (p ssa.Value, write, ok bool) {
	var name string
	args := call.Args
	switch {
	case call.IsInvoke():
		name = call.Method.Name()
	default:
		fn := call.StaticCallee()
		if fn == nil || len(fn.Blocks) > 0 {
			return nil, false, false
		}
		if fn.Pkg != nil && fn.Pkg.Pkg.Path() == "io" && fn.Signature.Recv() == nil {
			switch fn.Name() {
			case "ReadFull", "ReadAtLeast":
				if len(args) >= 2 && isBytes(args[1].Type()) {
					return args[1], true, true
				}
			}
			return nil, false, false
		}
		if fn.Signature.Recv() == nil || len(args) == 0 {
			return nil, false, false
		}
		name, args = fn.Name(), args[1:]
	}
	sig := call.Signature()
	if !ioResults(sig) || len(args) == 0 || !isBytes(args[0].Type()) {
		return nil, false, false
	}
	switch name {
	case "Read", "Write":
		if sig.Params().Len() != 1 {
			return nil, false, false
		}
	case "ReadAt", "WriteAt":
		if sig.Params().Len() != 2 || !isInt64(sig.Params().At(1).Type()) {
			return nil, false, false
		}
	default:
		return nil, false, false
	}
	return args[0], name == "Read" || name == "ReadAt", true
}

// ioResults reports whether sig returns (int, error).
func ioResults(sig *types.Signature) bool {
	r := sig.Results()
	if r.Len() != 2 {
		return false
	}
	n, ok := r.At(0).Type().(*types.Basic)
	return ok && n.Kind() == types.Int && types.Identical(r.At(1).Type(), types.Universe.Lookup("error").Type())
}

func isBytes(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

func isInt64(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Int64
}
