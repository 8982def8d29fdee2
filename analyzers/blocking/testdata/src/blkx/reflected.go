package main

import (
	"fmt"

	"blklib"
)

// pumped sends on a channel that it boxed for blklib.Pump, which
// receives from it through reflection: another package's code holds the
// channel, whatever its summary shows. Silent.
func pumped() {
	ch := make(chan []byte)
	blklib.Pump(ch)
	ch <- nil // silent "out-of-view"
	close(ch)
}

// labeled boxes its channel only for a function of its own package,
// which prints it and never receives.
func labeled() {
	ch := make(chan []byte)
	fmt.Println(label(ch))
	ch <- nil // want `send blocks forever: goroutine started at main.go:\d+ sends on ch \(made at reflected.go:\d+, unbuffered\), which no other goroutine receives from`
}

func label(v any) string { return fmt.Sprint(v) }
