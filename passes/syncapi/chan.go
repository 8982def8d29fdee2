package syncapi

import "golang.org/x/tools/go/ssa"

// Close recognizes close(ch) and returns the channel. A receive that
// close wakes happens after it.
func Close(call *ssa.CallCommon) (ssa.Value, bool) {
	if b, ok := call.Value.(*ssa.Builtin); ok && b.Name() == "close" && len(call.Args) == 1 {
		return call.Args[0], true
	}
	return nil, false
}
