// Command knownfn pins the known false negatives of pointer summaries:
// each MissedAlias fails once the analysis finds the alias.
package main

import (
	"pta"
	"xpkg/lib"
)

func main() {
	a := new(int)

	// A function argument that the callee calls: the closure's store
	// into got is not seen.
	var got *int
	lib.Apply(func(p *int) { got = p }, a)
	pta.MissedAlias(got, a)

	// A bound method value made in lib.
	t := lib.NewWith(a)
	pta.MissedAlias(t.Method()(), a)

	// A store into an unexported variable, read back by another call.
	lib.Keep(a)
	pta.MissedAlias(lib.Kept(), a)
}
