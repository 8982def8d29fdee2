// Package finalizers checks finalizers and cleanups, which the runtime
// runs on goroutines of its own.
package main

import (
	"runtime"
	"sync"
)

type file struct{ fd int }

var (
	closed int
	mu     sync.Mutex
	count  int
)

func main() {
	finalizerWrites()
	finalizerLocks()
	cleanupOwnArg()
	cleanups()
}

// The finalizer writes closed while main may write it.
func finalizerWrites() {
	f := &file{fd: 3}
	runtime.SetFinalizer(f, func(f *file) {
		closed++ // want `data race on closed: write at finalizers.go:\d+ \(finalizer set at finalizers.go:\d+\) vs write at finalizers.go:\d+ \(main goroutine\)`
	})
	closed = 0
}

// The same under a mutex: silent.
func finalizerLocks() {
	f := &file{fd: 3}
	runtime.SetFinalizer(f, func(f *file) {
		mu.Lock()
		count++ // silent "common-lock"
		mu.Unlock()
	})
	mu.Lock()
	count = 0
	mu.Unlock()
}

// A cleanup that works on its own argument, which the program no longer
// uses: silent.
func cleanupOwnArg() {
	f, fd := new(file), new(int)
	runtime.AddCleanup(f, func(fd *int) { *fd = -1 }, fd)
	*fd = 3
	runtime.KeepAlive(f)
}

// Cleanups may run at once: two that write one variable race.
func cleanups() {
	n := new(int)
	cleanup := func(x int) { *n = x } // want `data race on int: write at finalizers.go:\d+ \(cleanup added at finalizers.go:\d+\)`
	runtime.AddCleanup(new(file), cleanup, 1)
	runtime.AddCleanup(new(file), cleanup, 2)
}
