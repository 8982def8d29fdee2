// Package cbuse hands callbacks to cblib, which calls them on its own
// goroutine: they run concurrently with the code that handed them.
package main

import (
	"fmt"
	"sync"

	"cblib"
)

func main() {
	handlerCount()
	handlerLocked()
	closedHandler()
	hookOnCaller()
}

// handlerCount counts messages in the handler and reads the count on
// the caller's goroutine.
func handlerCount() {
	n := 0
	s := cblib.Subscribe(func(string) {
		n++ // want `data race on n: write at cbuse.go:\d+ \(callback registered at cbuse.go:\d+\) vs read at cbuse.go:\d+ \(main goroutine\)`
	})
	s.Deliver("a")
	fmt.Println(n)
}

// handlerLocked's twin takes the mutex the reader takes.
func handlerLocked() {
	var mu sync.Mutex
	n := 0
	s := cblib.Subscribe(func(string) {
		mu.Lock()
		n++ // silent "common-lock"
		mu.Unlock()
	})
	s.Deliver("a")
	mu.Lock()
	fmt.Println(n)
	mu.Unlock()
}

// closedHandler's handler, set by a method, writes what the caller
// reads.
func closedHandler() {
	state := "open"
	s := cblib.Subscribe(func(string) {})
	s.SetClosedHandler(func() {
		state = "closed" // want `data race on state`
	})
	s.Close()
	fmt.Println(state)
}

// hookOnCaller's hook is kept too, but the package calls it only from
// Fire, on the caller's goroutine.
func hookOnCaller() {
	x := 0
	s := cblib.Subscribe(func(string) {})
	s.OnFire(func() {
		x++ // silent: no goroutine runs it, Fire is not async
	})
	s.Fire()
	fmt.Println(x)
}
