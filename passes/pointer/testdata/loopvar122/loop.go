// Package main captures a loop variable in goroutines started in the loop.
package main

import "pta"

func main() {
	for _, x := range []int{1, 2, 3} {
		go func() {
			x++ // Go 1.22: a new x in every iteration, one per goroutine
			pta.NotSharedByGoroutines(&x)
		}()
	}
}
