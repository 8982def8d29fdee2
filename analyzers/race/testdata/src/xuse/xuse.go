// Package xuse races, or does not, through the functions of xlib: the
// accesses and locks are inside another package.
package main

import (
	"sync"

	"golang.org/x/sync/errgroup"
	"xlib"
)

func main() {
	lockedInLibrary()
	unlockedInLibrary()
	lockHelper(new(xlib.Counter), new(xlib.Point))
	lockHelperForgotten(new(xlib.Counter), new(xlib.Point))
	writeInLibrary()
	writeInLibraryThenSend()
	tableLocked()
	tableUnlocked()
	publish()
	publishGo()
	sendFirst()
	finish()
	closeFirst()
	work()
	doneFirst()
	onceInLibrary()
	onceBypassed()
	wgGoLibrary()
	wgGoEarlyRead()
	errgroupLibrary()
	errgroupEarlyRead()
	condInLibrary()
	condWriteAfterPut()
	serveInGoroutine()
	boxMadeInLibrary()
	fileMadeInLibrary()
	lockedThroughInterface()
	unlockedThroughInterface()
}

// locker is what xlib.Counter's lock helpers give, seen through an
// interface: their effects count at calls the pointer analysis resolves.
type locker interface {
	Lock()
	Unlock()
}

// acquire returns holding l's lock.
func acquire(l locker) { l.Lock() }

func lockedThroughInterface() {
	var l locker = new(xlib.Counter)
	p := new(xlib.Point)
	for range 2 {
		go func() {
			acquire(l)
			p.X++ // silent "common-lock"
			l.Unlock()
		}()
	}
}

func unlockedThroughInterface() {
	var l locker = new(xlib.Counter)
	p := new(xlib.Point)
	for range 2 {
		go func() {
			acquire(l)
			l.Unlock()
			p.Y++ // want `data race on Point.Y`
		}()
	}
}

// An object the library makes is named by its type and its maker, not
// by the pointer words of its summary's layout.
func boxMadeInLibrary() {
	b := xlib.NewBox()
	go b.Set(1) // want `data race on memory of xlib.Box made by xlib.NewBox: write at xlib/xlib.go:\d+ \(in \(\*xlib.Box\).Set, called at xuse.go:\d+\) \(goroutine started at xuse.go:\d+\) vs write at xlib/xlib.go:\d+ \(in \(\*xlib.Box\).Set, called at xuse.go:\d+\) \(main goroutine\)`
	b.Set(2)
}

// A library type that synchronizes itself with atomics: whether its
// methods may run at once is its package's contract, silent (the Box
// above, with no atomics, is reported).
func fileMadeInLibrary() {
	f := xlib.NewFile()
	go f.Sync()
	f.Close() // silent "self-synchronized"
}

// The library's method locks: silent.
func lockedInLibrary() {
	c := new(xlib.Counter)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.Inc()
	}()
	c.Inc() // silent "common-lock"
	wg.Wait()
	_ = c.Value()
}

// The library's method does not lock.
func unlockedInLibrary() {
	c := new(xlib.Counter)
	go func() {
		c.Bump() // want `data race on Counter.n: write at xlib/xlib.go:\d+ \(in \(\*xlib.Counter\).Bump, called at xuse.go:\d+\) \(goroutine started at xuse.go:\d+\) vs write at xlib/xlib.go:\d+ \(in \(\*xlib.Counter\).Bump, called at xuse.go:\d+\) \(main goroutine\)`
	}()
	c.Bump()
}

// Both sides hold the counter's mutex through the library's lock
// helper, which returns locked: silent.
func lockHelper(c *xlib.Counter, p *xlib.Point) {
	go func() {
		c.Lock()
		p.X++
		c.Unlock()
	}()
	c.Lock()
	p.X = 1 // silent "common-lock"
	c.Unlock()
}

// One side forgets the helper.
func lockHelperForgotten(c *xlib.Counter, p *xlib.Point) {
	go func() {
		c.Lock()
		p.Y++
		c.Unlock()
	}()
	p.Y = 1 // want `data race on Point.Y: write at xuse.go:\d+ \(main goroutine\) vs write at xuse.go:\d+ \(goroutine started at xuse.go:\d+\); locks held: \{\} vs \{c.mu\}`
}

// The library writes a field this package reads, with no order, in a
// goroutine that starts in the library.
func writeInLibrary() {
	p := new(xlib.Point)
	go xlib.Set(p, 1) // want `data race on Point.X: write at xlib/xlib.go:\d+ \(in xlib.Set, called at xuse.go:\d+\) \(goroutine started at xuse.go:\d+\) vs read at xuse.go:\d+ \(main goroutine\)`
	println(p.X)
}

// The same, ordered by a channel: silent.
func writeInLibraryThenSend() {
	p := new(xlib.Point)
	done := make(chan bool)
	go func() {
		xlib.Set(p, 2)
		done <- true
	}()
	<-done
	println(p.X) // silent "happens-before"
}

// Readers and writers of a map behind the library's RWMutex: silent.
func tableLocked() {
	t := &xlib.Table{M: map[string]int{}}
	go t.Put("a", 1)
	go func() { t.Put("b", 2) }()
	_ = t.Get("a") // silent "common-lock"
}

// A writer that forgets the lock races with the readers.
func tableUnlocked() {
	t := &xlib.Table{M: map[string]int{}}
	go func() {
		t.PutUnlocked("a", 1) // want `concurrent map access: data race on a map\[string\]int: write at xlib/xlib.go:\d+ \(in \(\*xlib.Table\).PutUnlocked, called at xuse.go:\d+\).*locks held: \{\} vs \{t.mu \(read\)\}`
	}()
	_ = t.Get("a")
}

// The library writes, then sends; the receive orders the read: silent.
func publish() {
	p := new(xlib.Point)
	ch := make(chan bool)
	go func() { xlib.Publish(p, ch) }()
	<-ch
	println(p.X) // silent "happens-before"
}

// The same in a goroutine that starts in the library: silent.
func publishGo() {
	p := new(xlib.Point)
	ch := make(chan bool)
	go xlib.Publish(p, ch)
	<-ch
	println(p.X) // silent "happens-before"
}

// The library sends before it writes.
func sendFirst() {
	p := new(xlib.Point)
	ch := make(chan bool, 1)
	go func() {
		xlib.SendFirst(p, ch) // want `data race on Point.X: write at xlib/xlib.go:\d+ \(in xlib.SendFirst, called at xuse.go:\d+\)`
	}()
	<-ch
	println(p.X)
}

// The library writes, then closes; the receive sees the close: silent.
func finish() {
	p := new(xlib.Point)
	done := make(chan struct{})
	go func() { xlib.Finish(p, done) }()
	<-done
	println(p.X) // silent "happens-before"
}

// The library closes before it writes.
func closeFirst() {
	p := new(xlib.Point)
	done := make(chan struct{})
	go func() {
		xlib.CloseFirst(p, done) // want `data race on Point.X: write at xlib/xlib.go:\d+ \(in xlib.CloseFirst`
	}()
	<-done
	println(p.X)
}

// The library's deferred Done, and its Wait, join: silent.
func work() {
	p := new(xlib.Point)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { xlib.Work(p, &wg) }()
	xlib.Wait(&wg)
	println(p.Y) // silent "happens-before"
}

// The library marks the group done before it writes.
func doneFirst() {
	p := new(xlib.Point)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		xlib.DoneFirst(p, &wg) // want `data race on Point.Y: write at xlib/xlib.go:\d+ \(in xlib.DoneFirst`
	}()
	wg.Wait()
	println(p.Y)
}

// Both goroutines load through the library's Once: silent.
func onceInLibrary() {
	c := new(xlib.Config)
	done := make(chan bool)
	go func() {
		c.Load()
		done <- true
	}()
	c.Load() // silent "once"
	<-done
}

// One goroutine reads the field while the other loads it.
func onceBypassed() {
	c := new(xlib.Config)
	done := make(chan bool)
	go func() {
		c.Load() // want `data race on Config.Val: write at xlib/xlib.go:\d+ \(in \(\*xlib.Config\).Load, called at xuse.go:\d+\) \(goroutine started at xuse.go:\d+\) vs read at xuse.go:\d+ \(main goroutine\); locks held: {} vs {}`
		done <- true
	}()
	println(c.Val)
	<-done
}

// WaitGroup.Go runs a library write; Wait orders it before the read.
func wgGoLibrary() {
	p := new(xlib.Point)
	var wg sync.WaitGroup
	wg.Go(func() { xlib.Set(p, 1) })
	wg.Wait()
	println(p.X) // silent "happens-before"
}

// The read comes before Wait.
func wgGoEarlyRead() {
	p := new(xlib.Point)
	var wg sync.WaitGroup
	wg.Go(func() { xlib.Set(p, 1) }) // want `data race on Point.X: write at xlib/xlib.go:\d+ \(in xlib.Set, called at xuse.go:\d+\) \(goroutine started at xuse.go:\d+\) vs read at xuse.go:\d+ \(main goroutine\)`
	println(p.X)
	wg.Wait()
}

// An errgroup goroutine runs a library write; Wait orders it before the
// read.
func errgroupLibrary() {
	p := new(xlib.Point)
	var g errgroup.Group
	g.Go(func() error { xlib.Set(p, 1); return nil })
	g.Wait()
	println(p.X) // silent "happens-before"
}

// The read comes before Wait.
func errgroupEarlyRead() {
	p := new(xlib.Point)
	var g errgroup.Group
	g.Go(func() error { xlib.Set(p, 1); return nil }) // want `data race on Point.X: write at xlib/xlib.go:\d+ \(in xlib.Set, called at xuse.go:\d+\) \(goroutine started at xuse.go:\d+\) vs read at xuse.go:\d+ \(main goroutine\)`
	println(p.X)
	g.Wait()
}

// The producer writes p.X before Put; the consumer reads it after Get:
// the library's Cond orders them.
func condInLibrary() {
	q := xlib.NewQueue()
	p := new(xlib.Point)
	go func() {
		p.X = 1
		q.Put(1)
	}()
	q.Get()
	println(p.X) // silent "happens-before"
}

// The producer writes p.X after Put.
func condWriteAfterPut() {
	q := xlib.NewQueue()
	p := new(xlib.Point)
	done := make(chan bool)
	go func() {
		q.Put(1)
		p.X = 2 // want `data race on Point.X`
		done <- true
	}()
	q.Get()
	println(p.X)
	<-done
}

// The Add inside a library's Serve is its protocol, not the caller's
// mistake: silent.
func serveInGoroutine() {
	s := new(xlib.Server)
	go s.Serve()
	s.Stop()
}
