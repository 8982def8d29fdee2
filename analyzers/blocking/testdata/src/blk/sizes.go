package main

// watcher's result channel gets its size from newWatcher's caller.
type watcher struct{ result chan int }

func newWatcher(size int) *watcher {
	w := &watcher{result: make(chan int, size)}
	go w.process()
	return w
}

func (w *watcher) process() {
	w.result <- 1 // want `send blocks forever: goroutine started at sizes.go:\d+ sends on w.result \(made at sizes.go:\d+, unbuffered\), which no other goroutine receives from`
}

// bufferedWatcher's only caller gives it a buffer: silent.
type bufferedWatcher struct{ result chan int }

func newBufferedWatcher(size int) *bufferedWatcher {
	w := &bufferedWatcher{result: make(chan int, size)}
	go w.process()
	return w
}

func (w *bufferedWatcher) process() {
	w.result <- 1
}

func init() {
	newWatcher(0)
	newBufferedWatcher(1)
}
