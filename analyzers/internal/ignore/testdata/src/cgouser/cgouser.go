// Package cgouser imports "C": cgo rewrites this file into a generated
// cgouser.cgo1.go, which is still the user's code.
package cgouser

// int twice(int x) { return 2 * x; }
import "C"

func Twice(x int) int { // want `function Twice`
	return int(C.twice(C.int(x)))
}
