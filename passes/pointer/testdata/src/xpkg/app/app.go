// Command app asserts what the summaries of package lib tell it.
package main

import (
	"pta"
	"xpkg/lib"
)

func main() {
	a, b := new(int), new(int)

	t1, t2 := lib.New(), lib.New()
	pta.NoAlias(t1, t2) // a constructor in another package, called twice
	pta.PointsTo(t1, `unknown\(lib.T made by lib.New\)\[o\d+\]\.leaf0`)

	t3 := lib.NewWith(a)
	pta.MayAlias(t3.P, a)
	pta.MayAlias(t3.GetP(), a)

	t1.SetQ(b)
	pta.MayAlias(t1.Q, b)
	pta.NoAlias(t1.Q, a)

	lib.Swap(t3)
	pta.MayAlias(t3.Q, a)

	n := lib.Chain(t1)
	pta.MayAlias(t1.Next(), n)
	pta.NoAlias(n, t1)

	x, y := lib.Pair()
	pta.NoAlias(x, y)
}
