// Package cgo calls C: origo models the C side as unknown, without crashing.
package cgo

/*
static int twice(int x) { return 2 * x; }
*/
import "C"

// Twice runs C code on another goroutine.
func Twice(x int) int {
	ch := make(chan int)
	go func() { ch <- int(C.twice(C.int(x))) }()
	return <-ch
}
