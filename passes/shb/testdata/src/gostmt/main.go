// Package gostmt: a go statement.
//
// Memory model: "The go statement that starts a new goroutine is
// synchronized before the start of the goroutine's execution." Expected:
// one edge from main's spawn event (and everything before it) to the
// start (e0) of the goroutine, and no edge back: nothing orders the
// goroutine's end before anything of main's.
package main

var x, y int

func main() {
	x = 1
	go child()
	y = 2
}

func child() {
	_ = x
	y = 3
}
