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
	w.result <- 1 // silent "buffered"
}

func init() {
	newWatcher(0)
	newBufferedWatcher(1)
}

// applyTo gives ch to a function value. Where every function it may be is
// the package's (and receives nothing), ch stays in view: reported.
func applyTo(f func(chan int), ch chan int) { f(ch) }

func handToLocal() {
	ch := make(chan int)
	go applyTo(func(c chan int) { _ = len(c) }, ch)
	go func() {
		ch <- 1 // want `send blocks forever: goroutine started at sizes.go:\d+ sends on ch \(made at sizes.go:\d+, unbuffered\), which no other goroutine receives from`
	}()
}

// Hook may be any function, set by any code: a channel given to it may
// be received from anywhere (silent).
var Hook func(chan int)

func applyHook(f func(chan int), ch chan int) { f(ch) }

func handToHook() {
	ch := make(chan int)
	go applyHook(Hook, ch)
	go func() {
		ch <- 1 // silent "out-of-view"
	}()
}

func init() {
	handToLocal()
	handToHook()
}
