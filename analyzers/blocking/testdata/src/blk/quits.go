package main

import "errors"

func lookup(k int) (int, error) {
	if k < 0 {
		return 0, errors.New("negative")
	}
	return k, nil
}

// load's goroutine returns on an error without sending: the receive
// waits forever.
func load(k int) int {
	ch := make(chan int)
	go func() {
		v, err := lookup(k)
		if err != nil {
			return
		}
		ch <- v
	}()
	return <-ch // want `receive blocks forever when the goroutine started at quits.go:\d+ returns early: it may return at quits.go:\d+ without sending on ch \(made at quits.go:\d+\), and nothing else sends on or closes it`
}

// loadAlways sends on the error path too: silent.
func loadAlways(k int) int {
	ch := make(chan int)
	go func() {
		v, err := lookup(k)
		if err != nil {
			ch <- -1
			return
		}
		ch <- v
	}()
	return <-ch // silent "every-path"
}

// loadOrPanic panics on the error: no return without the send. Silent.
func loadOrPanic(k int) int {
	ch := make(chan int)
	go func() {
		v, err := lookup(k)
		if err != nil {
			panic(err)
		}
		ch <- v
	}()
	return <-ch // silent "panics"
}

func init() {
	go load(1)
	go loadAlways(1)
	go loadOrPanic(1)
}
