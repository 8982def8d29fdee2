// Package basic pairs each happens-before edge and lock form with its
// race: the racy version carries a want, its race-free twin none.
package main

import (
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	goBefore()
	goAfter()
	goOwn()
	chanHandoff()
	chanSendFirst()
	unbuffered()
	buffered()
	closeRange()
	wgJoin()
	wgAddInside()
	wgAddShort()
	wgAddCounted()
	wgGo()
	locked()
	unlocked()
	deferUnlock()
	readers()
	writerUnderRLock()
	atomics()
	atomicTypes()
	atomicVsPlain()
	once()
	onceBefore()
	onceThen()
	perIteration()
	sharedCounter()
	tryLock()
	lockHelper()
	mapWrites()
	appendShared()
	capturedErr()
	ownErr()
	namedResult()
	wgAddSignalled()
	shortCircuit()
	condSignal()
	condAfterSignal()
	shortCircuitRead()
	capturedConst()
	capturedChanged()
	zeroLocal()
	flagUnderLock()
	loopOnce()
	loopTwice()
	mutexOverwrite()
	handlers()
	mutexResetJoined()
	appendReads()
	appendReadsJoined()
	stringOfBytes()
	stringOfBytesJoined()
	flagSetFirst()
	zeroLocalSet()
	returnNamed(make(chan int, 1))
	ignored()
	selectCase()
	selectOther()
	soleSender()
	spinWait()
	noSpin()
	useGlobal()
	globalMutex()
	globalOnce()
	elementsApart()
	elementsTogether()
	semaphore()
	semaphoreDeferred()
	semaphoreSelect()
	semaphoreSelectCallee()
	semaphoreSelectRetry()
	semaphoreSelectFallThrough()
	semaphoreNeverCase()
	semaphoreOwnNever()
	handoffNeverCase()
	semaphoreLiveCase()
	handoff()
	publish()
	capacity()
	capacityShort()
	deadCase()
	liveCases()
	ready := make(chan bool, 1)
	ready <- true
	unknownCase(ready)
	unknownCase(make(chan bool))
}

func use(int) {}

// The go statement orders what the parent did before it.
func goBefore() {
	x := 0
	x = 1
	done := make(chan bool)
	go func() {
		use(x) // silent "not-published": x is written before the go statement captures it
		done <- true
	}()
	<-done
}

func goAfter() {
	x := 0
	done := make(chan bool)
	go func() {
		use(x)
		done <- true
	}()
	x = 1 // want `data race on x: write at main.go:\d+ \(main goroutine\) vs read at main.go:\d+ \(goroutine started at main.go:\d+\)`
	<-done
}

// The goroutine writes x after its own read: one goroutine's accesses
// are in program order.
func goOwn() {
	x := 0
	done := make(chan bool)
	go func() {
		use(x)
		x = 1 // silent "one-goroutine"
		done <- true
	}()
	<-done
}

// A send happens before the receive that completes.
func chanHandoff() {
	x := 0
	done := make(chan bool)
	go func() {
		x = 1
		done <- true
	}()
	<-done
	use(x) // silent "happens-before"
}

func chanSendFirst() {
	x := 0
	done := make(chan bool, 1)
	go func() {
		done <- true
		x = 1 // want `data race on x`
	}()
	<-done
	use(x)
}

// A receive from an unbuffered channel happens before the send returns.
func unbuffered() {
	x := 0
	c := make(chan bool)
	go func() {
		x = 1
		<-c
	}()
	c <- true
	use(x) // silent "happens-before"
}

func buffered() {
	x := 0
	c := make(chan bool, 1)
	go func() {
		x = 1 // want `data race on x`
		<-c
	}()
	c <- true
	use(x)
}

// Closing a channel happens before a receive that sees it closed.
func closeRange() {
	x := 0
	c := make(chan int)
	go func() {
		x = 1
		c <- 1
		close(c)
	}()
	for v := range c {
		use(v)
	}
	use(x) // silent "happens-before"
}

// WaitGroup.Done happens before Wait returns.
func wgJoin() {
	x := 0
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		x = 1
	}()
	wg.Wait()
	use(x) // silent "happens-before"
}

// An Add inside the goroutine may come after Wait has returned.
func wgAddInside() {
	x := 0
	var wg sync.WaitGroup
	go func() {
		wg.Add(1) // want `WaitGroup.Add inside the goroutine: wg.Add at main.go:\d+ runs in the goroutine started at main.go:\d+, so wg.Wait at main.go:\d+ \(main goroutine\) may return before it`
		x = 1     // want `data race on x`
		wg.Done()
	}()
	wg.Wait()
	use(x)
}

// Add(1) covers the first goroutine only: its Done may bring the count
// to zero before the second goroutine's own Add, and Wait return then.
func wgAddShort() {
	x, z := 0, 0
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		x = 1
	}()
	go func() {
		wg.Add(1) // want `WaitGroup.Add inside the goroutine: wg.Add at main.go:\d+ runs in the goroutine started at main.go:\d+, so wg.Wait at main.go:\d+ \(main goroutine\) may return before it`
		z = 1     // want `data race on z`
		wg.Done()
	}()
	wg.Wait()
	use(x) // silent "happens-before": Add(1) covers the first goroutine
	use(z)
}

// Add(2) covers both goroutines.
func wgAddCounted() {
	x, z := 0, 0
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		x = 1
	}()
	go func() {
		z = 1
		wg.Done()
	}()
	wg.Wait()
	use(x)
	use(z) // silent "happens-before"
}

func wgGo() {
	x := 0
	var wg sync.WaitGroup
	wg.Go(func() {
		x = 1
	})
	wg.Wait()
	use(x) // silent "happens-before": after Wait, which waits for the function wg.Go ran
}

type counter struct {
	mu sync.Mutex
	n  int
}

func locked() {
	c := new(counter)
	for range 2 {
		go func() {
			c.mu.Lock()
			c.n++ // silent "common-lock": both goroutines hold c.mu
			c.mu.Unlock()
		}()
	}
}

func unlocked() {
	c := new(counter)
	go func() {
		c.mu.Lock()
		c.n++
		c.mu.Unlock()
	}()
	go func() {
		c.n++ // want `data race on counter.n: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs write at main.go:\d+ \(goroutine started at main.go:\d+\); locks held: \{\} vs \{c.mu\}`
	}()
}

func (c *counter) inc() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++ // silent "common-lock": the deferred Unlock holds c.mu to the end
}

func deferUnlock() {
	c := new(counter)
	for range 2 {
		go c.inc()
	}
}

type table struct {
	mu sync.RWMutex
	m  int
}

func readers() {
	t := new(table)
	for range 2 {
		go func() {
			t.mu.RLock()
			use(t.m) // silent "common-lock": read-locked here, write-locked by the writer
			t.mu.RUnlock()
		}()
	}
	go func() {
		t.mu.Lock()
		t.m = 1
		t.mu.Unlock()
	}()
}

func writerUnderRLock() {
	t := new(table)
	for range 2 {
		go func() {
			t.mu.RLock()
			t.m++ // want `data race on table.m: .* locks held: \{t.mu \(read\)\} vs \{t.mu \(read\)\}`
			t.mu.RUnlock()
		}()
	}
}

// The goroutines' Adds are both atomic: no race between them (the read
// after Wait is ordered; atomicVsPlain's read is not).
func atomics() {
	var n int64
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			atomic.AddInt64(&n, 1) // silent "both-atomic"
		}()
	}
	wg.Wait()
	use(int(n))
}

// The same through atomic.Int64's methods, reset by a plain store once
// the goroutines are done.
func atomicTypes() {
	var n atomic.Int64
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n.Add(1) // silent "both-atomic"
		}()
	}
	wg.Wait()
	n = atomic.Int64{}
}

func atomicVsPlain() {
	var n int64
	go func() {
		atomic.AddInt64(&n, 1) // want `data race on n`
	}()
	use(int(n))
}

func once() {
	var o sync.Once
	x := 0
	for range 2 {
		go func() {
			o.Do(func() { x = 1 })
			use(x) // silent "once": after Do, which returns after the callback
		}()
	}
}

// Do orders the callback, not what the goroutine did before its Do:
// main's Do may be the one that runs setup.
func onceBefore() {
	var o sync.Once
	x, y := 0, 0
	setup := func() { x = 1 }
	go func() {
		y = 1 // want `data race on y`
		o.Do(setup)
	}()
	o.Do(setup)
	use(x) // silent "once"
	use(y)
}

// The callback, whichever goroutine ran it, happens before main's Do
// returns, and so before what main starts after.
func onceThen() {
	var o sync.Once
	x, k := 0, 2
	setup := func() { x = 1 }
	go func() {
		use(k)
		o.Do(setup)
	}()
	use(k)
	o.Do(setup)
	done := make(chan bool)
	go func() {
		use(x) // silent "happens-before"
		done <- true
	}()
	<-done
}

// Since Go 1.22 each iteration has its own i.
func perIteration() {
	for i := range 3 {
		go func() {
			use(i) // silent "not-published"
		}()
	}
}

func sharedCounter() {
	n := 0
	for range 3 {
		go func() {
			n++ // want `data race on n: write at main.go:\d+ \(goroutine started at main.go:\d+, in a loop\)`
		}()
	}
}

func tryLock() {
	c := new(counter)
	for range 2 {
		go func() {
			if c.mu.TryLock() {
				c.n++ // silent "common-lock": only where TryLock took c.mu
				c.mu.Unlock()
			}
		}()
	}
}

func (c *counter) lock()   { c.mu.Lock() }
func (c *counter) unlock() { c.mu.Unlock() }

func lockHelper() {
	c := new(counter)
	for range 2 {
		go func() {
			c.lock()
			c.n++ // silent "common-lock": c.lock returns holding c.mu
			c.unlock()
		}()
	}
}

func mapWrites() {
	m := make(map[int]int)
	for i := range 2 {
		go func() {
			m[i] = i // want `concurrent map access: data race on a map\[int\]int`
		}()
	}
}

func appendShared() {
	var s []int
	for i := range 2 {
		go func() {
			s = append(s, i) // want `concurrent append: data race on s`
		}()
	}
}

func ignored() {
	n := 0
	for range 2 {
		go func() {
			n++ //origo:ignore race the test only checks that the comment silences // silent "ignored"
		}()
	}
}

// A select case happens where its body starts.
func selectCase() {
	x := 0
	done := make(chan bool)
	quit := make(chan bool)
	go func() {
		x = 1
		close(done)
	}()
	select {
	case <-done:
		use(x) // silent "happens-before"
	case <-quit:
	}
}

func selectOther() {
	x := 0
	done := make(chan bool)
	quit := make(chan bool)
	defer close(quit) // a quit that nothing closed would never be chosen
	go func() {
		x = 1 // want `data race on x`
		close(done)
	}()
	select {
	case <-done:
	case <-quit:
		use(x)
	}
}

// Every send comes from one goroutine: what it did before its first
// send happens before any receive.
func soleSender() {
	x := 0
	c := make(chan int)
	go func() {
		x = 1
		for i := range 3 {
			c <- i
		}
	}()
	<-c
	use(x) // silent "happens-before"
}

// A loop that spins on an atomic load waits for the one goroutine that
// stores.
func spinWait() {
	x := 0
	var ready int32
	go func() {
		x = 1
		atomic.StoreInt32(&ready, 1)
	}()
	for atomic.LoadInt32(&ready) == 0 {
	}
	use(x) // silent "atomic-observed"
}

func noSpin() {
	x := 0
	var ready int32
	go func() {
		x = 1 // want `data race on x`
		atomic.StoreInt32(&ready, 1)
	}()
	_ = atomic.LoadInt32(&ready) // reads, but waits for nothing
	use(x)
}

// Package initialization happens before main.
var global = 1

func useGlobal() {
	go func() { use(global) }() // silent "happens-before"
}

var (
	mu      sync.Mutex
	guarded int
)

// A mutex in a package variable.
func globalMutex() {
	for range 2 {
		go func() {
			mu.Lock()
			guarded++ // silent "common-lock"
			mu.Unlock()
		}()
	}
}

var (
	setup  sync.Once
	config int
)

func initConfig() { config = 1 }

// Once.Do with a named function, on a Once in a package variable.
func globalOnce() {
	for range 2 {
		go func() {
			setup.Do(initConfig)
			use(config) // silent "once"
		}()
	}
}

// Constant indices that differ touch different elements.
func elementsApart() {
	var a [4]int
	s := make([]int, 10)
	done := make(chan bool)
	go func() {
		a[0] = 1
		s[7] = 1
		done <- true
	}()
	a[1] = 2                 // silent "other-elements"
	copy(s[:5], []int{1, 2}) // silent "other-elements"
	<-done
}

func elementsTogether() {
	var a [4]int
	done := make(chan bool)
	go func() {
		a[2] = 1 // want `data race on a\[\*\]`
		done <- true
	}()
	copy(a[:], []int{1, 2, 3})
	<-done
}

// A channel with a buffer of one is a lock: send to acquire, receive to
// release.
func semaphore() {
	x := 0
	sem := make(chan bool, 1)
	for range 2 {
		go func() {
			sem <- true
			x++ // silent "common-lock"
			<-sem
		}()
	}
}

// The receive that releases may be deferred.
func semaphoreDeferred() {
	x := 0
	sem := make(chan struct{}, 1)
	for range 2 {
		go func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			x++ // silent "common-lock"
		}()
	}
}

// A semaphore taken in a select whose other case returns: the code
// after the select runs only once the send took the buffer, and holds
// it until the receive. Once in a single select, once in either of two
// (the code after them is reached from both).
func semaphoreSelect() {
	x, z := 0, 0
	sem := make(chan struct{}, 1)
	quit := make(chan struct{})
	for i := range 2 {
		go func() {
			select {
			case sem <- struct{}{}:
			case <-quit:
				return
			}
			x++ // silent "common-lock"
			<-sem
		}()
		go func() {
			if i == 0 {
				select {
				case sem <- struct{}{}:
				case <-quit:
					return
				}
			} else {
				select {
				case sem <- struct{}{}:
				case <-time.After(time.Second):
					return
				}
			}
			z++ // silent "common-lock"
			<-sem
		}()
	}
	close(quit)
}

// The same as a method, given back in a function it calls, taken in
// one of two selects, with a timeout or until closed: the code after
// them runs only once one of the sends took the buffer.
type writeLock struct {
	lockC, closeC chan struct{}
	n             int
}

var errClosed = errors.New("closed")

func (w *writeLock) write(d time.Duration) error {
	if d > 0 {
		select {
		case w.lockC <- struct{}{}:
		case <-time.After(d):
			return errors.New("timeout")
		}
	} else {
		select {
		case w.lockC <- struct{}{}:
		case <-w.closeC:
			return errClosed
		}
	}
	return w.locked()
}

func (w *writeLock) locked() error {
	w.n++ // silent "common-lock"
	w.unlock()
	return nil
}

func (w *writeLock) unlock() { <-w.lockC }

func semaphoreSelectCallee() {
	w := &writeLock{lockC: make(chan struct{}, 1), closeC: make(chan struct{})}
	for i := range 2 {
		go w.write(time.Duration(i))
	}
	close(w.closeC)
}

// Taken in a select in a loop whose other case goes round again.
func semaphoreSelectRetry() {
	x := 0
	sem := make(chan struct{}, 1)
	quit := make(chan struct{})
	tick := time.NewTicker(time.Millisecond)
	for range 2 {
		go func() {
			for {
				select {
				case sem <- struct{}{}:
				case <-tick.C:
					continue
				case <-quit:
					return
				}
				break
			}
			x++ // silent "common-lock"
			<-sem
		}()
	}
	close(quit)
}

// Its twin: a case that goes on to the code after the select without
// the semaphore (a timeout that only logs).
func semaphoreSelectFallThrough() {
	y := 0
	sem := make(chan struct{}, 1)
	for range 2 {
		go func() {
			select {
			case sem <- struct{}{}:
			case <-time.After(time.Second):
				println("slow")
			}
			y++ // want `data race on y`
		}()
	}
}

// A case on a channel that nothing sends on or closes is never chosen
// (Go's TestNoRaceSelectMutex): the select takes the semaphore, in the
// goroutine, which captures aux, and in the function that made it.
func semaphoreNeverCase() {
	data := 0
	mtx := make(chan struct{}, 1)
	aux := make(chan bool)
	done := make(chan bool)
	go func() {
		select {
		case mtx <- struct{}{}:
		case <-aux:
		}
		data = 42 // silent "common-lock"
		select {
		case <-mtx:
		case <-aux:
		}
		done <- true
	}()
	select {
	case mtx <- struct{}{}:
	case <-aux:
	}
	data = 43
	select {
	case <-mtx:
	case <-aux:
	}
	<-done
	use(data)
}

// The same with a channel each goroutine makes for itself and never
// lets go of, in a named function.
func semaphoreOwnNever() {
	data := 0
	mtx := make(chan struct{}, 1)
	done := make(chan bool)
	for range 2 {
		go takeNever(mtx, &data, done)
	}
	<-done
	<-done
}

func takeNever(mtx chan struct{}, data *int, done chan bool) {
	aux := make(chan bool)
	select {
	case mtx <- struct{}{}:
	case <-aux:
	}
	*data++ // silent "common-lock"
	<-mtx
	done <- true
}

// A handoff through selects whose other case is never chosen, in a
// literal that captures the channel (Go's TestNoRaceSelect4, without
// its worker's loop).
func handoffNeverCase() {
	x := 0
	queue := make(chan func())
	dummy := make(chan bool)
	done := make(chan bool, 1)
	go func() {
		f := <-queue
		f()
		done <- true
	}()
	doit := func(f func()) {
		select {
		case queue <- f:
		case <-dummy:
		}
		select {
		case <-done:
		case <-dummy:
		}
	}
	doit(func() { x = 1 }) // silent "happens-before"
	use(x)
}

// Its twin: the other case's channel is closed (here by a deferred
// close), so the select may take it instead of the semaphore.
func semaphoreLiveCase() {
	data := 0
	mtx := make(chan struct{}, 1)
	aux := make(chan bool)
	defer close(aux)
	done := make(chan bool)
	go func() {
		select {
		case mtx <- struct{}{}:
		case <-aux:
		}
		data = 42 // want `data race on data`
		select {
		case <-mtx:
		case <-aux:
		}
		done <- true
	}()
	select {
	case mtx <- struct{}{}:
	case <-aux:
	}
	data = 43
	select {
	case <-mtx:
	case <-aux:
	}
	<-done
	use(data)
}

// A send on a buffer of one that the goroutine never takes back is a
// handoff, not a lock.
func handoff() {
	y := 0
	ch := make(chan int, 1)
	for n := range 2 {
		go func() {
			ch <- n
			y += n // want `data race on y`
		}()
	}
	use(<-ch)
}

type settings struct{ name string }

var current *settings

// Initializing a fresh object is not a race; publishing it without
// synchronization is, and is reported where it is published.
func publish() {
	go func() {
		if c := current; c != nil {
			use(len(c.name)) // silent "not-published"
		}
	}()
	current = &settings{name: "x"} // want `data race on current: write at main.go:\d+ \(main goroutine\) vs read`
}

// The k-th receive happens before the (k+C)-th send completes: with the
// buffer of two full, the third and fourth sends wait for both receives.
func capacity() {
	x, y := 0, 0
	c := make(chan bool, 2)
	c <- true
	c <- true
	go func() {
		x = 1
		<-c
	}()
	go func() {
		y = 1
		<-c
	}()
	c <- true
	c <- true
	use(x + y) // silent "happens-before"
}

func capacityShort() {
	x := 0
	c := make(chan bool, 2)
	c <- true
	go func() {
		x = 1 // want `data race on x`
		<-c
	}()
	c <- true // fits in the buffer: waits for no receive
	use(x)
}

// A select case on a channel nothing ever sends on cannot be chosen:
// the select performs its other case for sure.
func deadCase() {
	x := 0
	done := make(chan bool)
	never := make(chan bool)
	go func() {
		x = 1
		done <- true
	}()
	select {
	case <-done:
	case <-never:
	}
	use(x) // silent "happens-before"
}

func liveCases() {
	x := 0
	done := make(chan bool)
	other := make(chan bool, 1)
	other <- true
	go func() {
		x = 1 // want `data race on x`
		done <- true
	}()
	select {
	case <-done:
	case <-other:
	}
	use(x)
}

// A select on a channel that a parameter carries is judged with each
// caller's channel: the first call's holds a value, so the select may
// take it before the goroutine's write.
func unknownCase(in chan bool) {
	x := 0
	done := make(chan bool)
	go func() {
		x = 1 // want `data race on x`
		done <- true
	}()
	select {
	case <-done:
	case <-in:
	}
	use(x)
}

func step() error { return errors.New("step") }

// The goroutine assigns the function's err while the function does.
func capturedErr() error {
	err := step()
	done := make(chan bool)
	go func() {
		err = step() // want `captured err: data race on err: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs write at main.go:\d+ \(main goroutine\).*declare its own with :=`
		done <- true
	}()
	err = step()
	<-done
	return err
}

// The goroutine declares its own err: safe.
func ownErr() error {
	err := step()
	done := make(chan bool)
	go func() {
		err := step()
		_ = err
		done <- true
	}()
	<-done
	return err
}

// The goroutine sets the named result after the function may have
// returned it.
func namedResult() (n int) {
	go func() {
		n = 1 // want `captured named result: data race on n: .*named result n`
	}()
	return n
}

// Each goroutine adds, then tells the waiter, which waits only after
// hearing from all of them: the Adds happen before the Wait.
func wgAddSignalled() {
	waiting := make(chan bool, 4)
	var wg sync.WaitGroup
	for range 4 {
		go func() {
			wg.Add(1)
			waiting <- true
			wg.Done()
		}()
	}
	for range 4 {
		<-waiting
	}
	wg.Wait()
}

// "return n" reads n; go/ssa also stores it back, which is no write.
func returnNamed(c chan int) (n int) {
	n = 42
	go func() {
		use(n)
		c <- 1
	}()
	return n // silent "self-store"
}

// y is still 0: the read of x is behind a condition that is always
// false, and never runs.
func shortCircuit() {
	c := make(chan bool)
	x, y := 0, 0
	go func() {
		x = 1
		c <- true
	}()
	if y == 1 && x == 1 {
		use(x) // silent "dead-code"
	}
	<-c
}

// The same read first: it runs.
func shortCircuitRead() {
	c := make(chan bool)
	x, y := 0, 0
	go func() {
		x = 1 // want `data race on x`
		c <- true
	}()
	if x == 1 || y == 1 {
		use(y)
	}
	<-c
}

// z is 1 wherever it is read: the goroutine's second case never runs.
func capturedConst() {
	var x, z int
	c := make(chan bool, 2)
	z = 1
	go func() {
		use(x)
		c <- true
	}()
	go func() {
		switch {
		case z == 1:
		case z == 2:
			x = 2 // silent "dead-code"
		}
		c <- true
	}()
	<-c
	<-c
}

// z is stored twice with different values: the case may run.
func capturedChanged() {
	var x, z int
	c := make(chan bool, 2)
	z = 1
	go func() {
		use(x)
		c <- true
	}()
	go func() {
		if z == 2 {
			x = 2 // want `data race on x`
		}
		c <- true
	}()
	z = 2 // want `data race on z`
	<-c
	<-c
}

// A flag polled under the mutex that guards it: the poller sees true
// only after the writer's critical section, which follows x = 1.
func flagUnderLock() {
	var mu sync.Mutex
	x, written := 0, false
	c := make(chan bool, 2)
	go func() {
		x = 1
		mu.Lock()
		written = true
		mu.Unlock()
		c <- true
	}()
	go func() {
		mu.Lock()
		for !written {
			mu.Unlock()
			time.Sleep(time.Millisecond)
			mu.Lock()
		}
		mu.Unlock()
		x = 2 // silent "atomic-observed": the poller saw written, set under mu after x = 1
		c <- true
	}()
	<-c
	<-c
	use(x)
}

// The writer sets the flag before it writes x.
func flagSetFirst() {
	var mu sync.Mutex
	x, written := 0, false
	c := make(chan bool, 2)
	go func() {
		mu.Lock()
		written = true
		mu.Unlock()
		x = 1 // want `data race on x`
		c <- true
	}()
	go func() {
		mu.Lock()
		for !written {
			mu.Unlock()
			time.Sleep(time.Millisecond)
			mu.Lock()
		}
		mu.Unlock()
		x = 2
		c <- true
	}()
	<-c
	<-c
	use(x)
}

// A loop whose body runs once starts one goroutine. (A counter that a
// closure captures is a variable of each iteration, which the closure
// may change: such a loop counts as a loop.)
func loopOnce() {
	x := 0
	var wg sync.WaitGroup
	n := 1
	for i := 0; i < n; i++ {
		wg.Add(1)
		j := i
		go func() {
			x = j
			wg.Done()
		}()
	}
	wg.Wait()
	use(x)
}

func loopTwice() {
	x := 0
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			x = i // want `data race on x`
			wg.Done()
		}()
	}
	wg.Wait()
	use(x)
}

var hits int

// A handler serves each request on a goroutine of its own.
func handlers() {
	http.HandleFunc("/", func(http.ResponseWriter, *http.Request) {
		hits++ // want `data race on hits: write at main.go:\d+ \(HTTP handler registered at main.go:\d+, one per request\) vs write at main.go:\d+ \(HTTP handler registered at main.go:\d+, one per request\)`
	})
}

// Lock changes the mutex's state atomically; a plain store over the
// mutex races with it.
func mutexOverwrite() {
	c := make(chan bool, 1)
	var mu sync.Mutex
	go func() {
		mu = sync.Mutex{} // want `data race on mu: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs Lock at main.go:\d+ \(main goroutine\)`
		c <- true
	}()
	mu.Lock()
	<-c
}

func mutexResetJoined() {
	c := make(chan bool, 1)
	var mu sync.Mutex
	go func() {
		mu = sync.Mutex{}
		c <- true
	}()
	<-c
	mu.Lock() // silent "happens-before": the receive orders the reset before the Lock
	mu.Unlock()
}

// append(s, t...) reads t's elements; string(b) reads b's.
func appendReads() {
	c := make(chan bool, 1)
	s, t := make([]int, 10), make([]int, 10)
	go func() {
		_ = append(s, t...)
		c <- true
	}()
	t[5] = 42 // want `data race on an element of \[\]int: write at main.go:\d+ \(main goroutine\) vs read at main.go:\d+`
	<-c
}

func appendReadsJoined() {
	c := make(chan bool, 1)
	s, t := make([]int, 10), make([]int, 10)
	go func() {
		_ = append(s, t...)
		c <- true
	}()
	<-c
	t[5] = 42 // silent "happens-before": after the receive that joins the reader
}

func stringOfBytes() {
	data := []byte("hello there")
	c := make(chan string, 1)
	go func() { c <- string(data) }()
	copy(data, data[2:]) // want `data race on an element of \[\]byte`
	<-c
}

func stringOfBytesJoined() {
	data := []byte("hello there")
	c := make(chan string, 1)
	go func() { c <- string(data) }()
	<-c
	copy(data, data[2:]) // silent "happens-before": after the receive that joins the reader
}

var sink *byte

// b is read as it is declared, still zero: the branch never runs.
func zeroLocal() {
	for range 2 {
		go func() {
			var b byte
			if b != 0 {
				sink = &b // silent "dead-code"
			}
			b = 42
		}()
	}
}

// The same after a call that may set b through its address.
func zeroLocalSet() {
	for range 2 {
		go func() {
			var b byte
			set(&b)
			if b != 0 {
				sink = &b // want `data race on sink`
			}
		}()
	}
}

func set(b *byte) { *b = 1 }

// The signaller writes x before it signals; the waiter writes it after
// its wait loop.
func condSignal() {
	x := 0
	ready := false
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	go func() {
		x = 1
		mu.Lock()
		ready = true
		cond.Signal()
		mu.Unlock()
	}()
	mu.Lock()
	for !ready {
		cond.Wait()
	}
	mu.Unlock()
	x = 2 // silent "atomic-observed": the waiter saw ready, set under mu after x = 1
	use(x)
}

// The signaller writes x after it signals: a race.
func condAfterSignal() {
	x := 0
	ready := false
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	done := make(chan bool)
	go func() {
		mu.Lock()
		ready = true
		cond.Signal()
		mu.Unlock()
		x = 3 // want `data race on x`
		done <- true
	}()
	mu.Lock()
	for !ready {
		cond.Wait()
	}
	mu.Unlock()
	x = 2
	<-done
	use(x)
}
