// Command linkname calls a function without a body of its own, bound
// to the runtime's by go:linkname.
package main

import _ "unsafe"

//go:linkname nanotime runtime.nanotime
func nanotime() int64

var last int64

func main() {
	go func() { last = nanotime() }()
	last = 2
}
