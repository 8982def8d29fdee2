package syncapi

import "golang.org/x/tools/go/ssa"

// OnceDo recognizes once.Do(f) and returns the Once and f. Do calls f at
// most once, and every call of Do returns after f has returned.
func OnceDo(call *ssa.CallCommon) (once, f ssa.Value, ok bool) {
	if name, recv := method(call, "sync", "Once"); name == "Do" && len(call.Args) == 2 {
		return recv, call.Args[1], true
	}
	return nil, nil, false
}
