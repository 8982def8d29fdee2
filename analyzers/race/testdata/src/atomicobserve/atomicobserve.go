// Command atomicobserve checks that an atomic operation that saw
// another goroutine's write orders what that goroutine did before the
// write before the branch that knows it: the Go memory model's rule for
// sync/atomic.
package main

import "sync/atomic"

func main() {
	addSawAll()
	addFirst()
	casFailed()
	casFailedOwnWrite()
	loadFlag()
	loadFlagTwoWriters()
	loadZero()
	boolFlag()
	pointerPublish()
	afterBranch()
	casFailedCopies()
}

// The Add that brings the count to 2 saw both Adds: the other
// goroutine's write to x happens before it.
func addSawAll() {
	var x, y int
	_ = x + y
	var n int64
	done := make(chan bool, 2)
	go func() {
		x = 1
		if atomic.AddInt64(&n, 1) == 2 {
			y = 1
		}
		done <- true
	}()
	go func() {
		y = 2
		if atomic.AddInt64(&n, 1) == 2 {
			x = 2 // silent "atomic-observed"
		}
		done <- true
	}()
	<-done
	<-done
}

// The Add that returns 1 saw nothing: both may run the branch.
func addFirst() {
	var x int
	_ = x
	var n int64
	done := make(chan bool, 2)
	go func() {
		x = 1 // want `data race on x`
		if atomic.AddInt64(&n, 1) == 1 {
			x = 3
		}
		done <- true
	}()
	go func() {
		x = 2
		if atomic.AddInt64(&n, 1) == 1 {
			x = 4
		}
		done <- true
	}()
	<-done
	<-done
}

// A CompareAndSwap from 0 that fails saw the other goroutine's swap.
func casFailed() {
	var x, y int
	_ = x + y
	var s int32
	done := make(chan bool, 2)
	go func() {
		x = 1
		if !atomic.CompareAndSwapInt32(&s, 0, 1) {
			y = 1
		}
		done <- true
	}()
	go func() {
		y = 2
		if !atomic.CompareAndSwapInt32(&s, 0, 1) {
			x = 2 // silent "atomic-observed"
		}
		done <- true
	}()
	<-done
	<-done
}

// The goroutine stored to s itself: the failed swap may have seen its
// own write.
func casFailedOwnWrite() {
	var x int
	_ = x
	var s int32
	done := make(chan bool, 2)
	go func() {
		x = 1 // want `data race on x`
		atomic.StoreInt32(&s, 1)
		done <- true
	}()
	go func() {
		atomic.StoreInt32(&s, 2)
		if !atomic.CompareAndSwapInt32(&s, 0, 1) {
			x = 2
		}
		done <- true
	}()
	<-done
	<-done
}

// A flag seen set orders the data written before it was set.
func loadFlag() {
	var data int
	_ = data
	var ready int32
	go func() {
		data = 1
		atomic.StoreInt32(&ready, 1)
	}()
	if atomic.LoadInt32(&ready) == 1 {
		data = 2 // silent "atomic-observed"
	}
}

// With two goroutines setting the flag, the one seen may be the other.
func loadFlagTwoWriters() {
	var data int
	_ = data
	var ready int32
	go func() {
		data = 1 // want `data race on data`
		atomic.StoreInt32(&ready, 1)
	}()
	go func() {
		atomic.StoreInt32(&ready, 1)
	}()
	if atomic.LoadInt32(&ready) == 1 {
		data = 2
	}
}

// A flag seen clear saw no write.
func loadZero() {
	var data int
	_ = data
	var ready int32
	go func() {
		data = 1 // want `data race on data`
		atomic.StoreInt32(&ready, 1)
	}()
	if atomic.LoadInt32(&ready) == 0 {
		data = 2
	}
}

// The typed atomics count the same.
func boolFlag() {
	var data int
	_ = data
	var ready atomic.Bool
	go func() {
		data = 1
		ready.Store(true)
	}()
	if ready.Load() {
		data = 2 // silent "atomic-observed"
	}
}

type config struct{ n int }

// A pointer seen set was stored after what came before the Store.
func pointerPublish() {
	var data int
	_ = data
	var p atomic.Pointer[config]
	go func() {
		data = 1
		p.Store(&config{n: 1})
	}()
	if p.Load() != nil {
		data = 2 // silent "atomic-observed"
	}
}

// Only the branch knows: after it joins the other path, nothing does.
func afterBranch() {
	var data int
	_ = data
	var ready int32
	go func() {
		data = 1 // want `data race on data`
		atomic.StoreInt32(&ready, 1)
	}()
	if atomic.LoadInt32(&ready) == 1 {
		data = 2 // silent "atomic-observed"
	}
	data = 3
}

// The failed swap may have seen the swap of the other copy of its own
// goroutine, not the third goroutine's.
func casFailedCopies() {
	var x int
	_ = x
	var s int32
	for range 2 {
		go func() {
			if !atomic.CompareAndSwapInt32(&s, 0, 1) {
				x = 2 // want `data race on x: write at atomicobserve.go:218 .* vs write at atomicobserve.go:218` `data race on x: write at atomicobserve.go:218 .* vs write at atomicobserve.go:223`
			}
		}()
	}
	go func() {
		x = 1
		atomic.CompareAndSwapInt32(&s, 0, 1)
	}()
}
