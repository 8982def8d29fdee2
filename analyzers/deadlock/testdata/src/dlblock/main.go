// Package main holds the blocking-while-locked scenarios: a goroutine
// that blocks on a channel or a WaitGroup while holding a mutex that the
// goroutine it waits for needs. Each has a safe twin.
package main

import "sync"

type Server struct {
	mu    sync.Mutex
	state int
}

// The sender holds s.mu; the receiver locks it before receiving.
func sendLocked() {
	s := &Server{}
	ch := make(chan int)
	go func() {
		s.mu.Lock()
		v := <-ch
		s.state = v
		s.mu.Unlock()
	}()
	s.mu.Lock()
	ch <- 1 // want `blocking while holding a lock: main goroutine sends on ch at main.go:\d+ while holding s.mu \(locked at main.go:\d+\); the receive that would unblock it \(at main.go:\d+, goroutine started at main.go:\d+\) runs with s.mu held too`
	s.mu.Unlock()
}

// The sender unlocks before it sends, but it must lock first: when the
// receiver locks s.mu before it, the receiver waits for the send
// holding the lock, and the sender waits for the lock.
func sendUnlocked() {
	s := &Server{}
	ch := make(chan int)
	go func() {
		s.mu.Lock()
		v := <-ch // want `blocking while holding a lock: goroutine started at main.go:\d+ receives from ch at main.go:\d+ while holding s.mu \(locked at main.go:\d+\); the send that would unblock it \(at main.go:\d+, main goroutine\) must first lock s.mu \(at main.go:\d+\): if this goroutine locks it first, both block forever`
		s.state = v
		s.mu.Unlock()
	}()
	s.mu.Lock() // the other side of the deadlock: a related position of the report
	s.state++
	s.mu.Unlock()
	ch <- 1
}

func (s *Server) touch() {
	s.mu.Lock() // the other side of the deadlock: a related position of the report
	s.state++
	s.mu.Unlock()
}

// The sender locks in a callee before it sends: the same deadlock.
func sendAfterTouch() {
	s := &Server{}
	ch := make(chan int)
	go func() {
		s.mu.Lock()
		v := <-ch // want `blocking while holding a lock: goroutine started at main.go:\d+ receives from ch at main.go:\d+ while holding s.mu .* must first lock s.mu \(at main.go:\d+\)`
		s.state = v
		s.mu.Unlock()
	}()
	s.touch()
	ch <- 1
}

// The sender sends before it locks: safe.
func sendFirst() {
	s := &Server{}
	ch := make(chan int)
	go func() {
		s.mu.Lock()
		v := <-ch // silent "free-partner"
		s.state = v
		s.mu.Unlock()
	}()
	ch <- 1
	s.mu.Lock()
	s.state++
	s.mu.Unlock()
}

// The sender locks before it sends only when flag is set. The deadlock
// needs that value; only a lock taken on every path to the partner's
// operation is reported, so this stays silent.
func sendMaybeLocked(flag bool) {
	s := &Server{}
	ch := make(chan int)
	go func() {
		s.mu.Lock()
		v := <-ch // silent "free-partner"
		s.state = v
		s.mu.Unlock()
	}()
	if flag {
		s.mu.Lock()
		s.state++
		s.mu.Unlock()
	}
	ch <- 1
}

// The receiver does not need the lock: safe.
func recvFree() {
	s := &Server{}
	ch := make(chan int)
	go func() {
		v := <-ch
		s.mu.Lock()
		s.state = v
		s.mu.Unlock()
	}()
	s.mu.Lock()
	ch <- 1 // silent "free-partner"
	s.mu.Unlock()
}

// A buffered channel takes the send without a receiver, but the receive
// still waits for the send: the receiver holding s.mu blocks the sender.
func sendBuffered() {
	s := &Server{}
	ch := make(chan int, 1)
	go func() {
		s.mu.Lock()
		s.state = <-ch // want `blocking while holding a lock: goroutine started at main.go:\d+ receives from ch at main.go:\d+ while holding s.mu \(locked at main.go:\d+\); the send that would unblock it \(at main.go:\d+, main goroutine\)`
		s.mu.Unlock()
	}()
	s.mu.Lock()
	ch <- 1 // silent "buffered"
	s.mu.Unlock()
}

// Waits for the workers while holding the lock that they take to finish.
func waitLocked() {
	s := &Server{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		defer wg.Done()
		s.state++
	}()
	s.mu.Lock()
	wg.Wait() // want `blocking while holding a lock: main goroutine waits for wg at main.go:\d+ while holding s.mu \(locked at main.go:\d+\); the Done that would unblock it`
	s.mu.Unlock()
}

// The worker calls Done after it unlocks: the defers run last first.
func waitAfterUnlock() {
	s := &Server{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.mu.Lock()
		defer s.mu.Unlock()
		s.state++
	}()
	s.mu.Lock()
	s.state++
	s.mu.Unlock()
	wg.Wait() // silent "not-held"
}

// Receives under the lock from a goroutine that sends under it.
func recvLocked() {
	s := &Server{}
	done := make(chan struct{})
	go func() {
		s.mu.Lock()
		s.state++
		close(done)
		s.mu.Unlock()
	}()
	s.mu.Lock()
	<-done // want `blocking while holding a lock: main goroutine receives from done at main.go:\d+ while holding s.mu`
	s.mu.Unlock()
}

// The same with a select that also watches a timeout channel: another
// case may complete it, so no report.
func recvSelect(quit chan struct{}) {
	s := &Server{}
	done := make(chan struct{})
	go func() {
		s.mu.Lock()
		close(done)
		s.mu.Unlock()
	}()
	s.mu.Lock()
	select { // silent "select-case"
	case <-done:
	case <-quit:
	}
	s.mu.Unlock()
}

type Cache struct {
	mu sync.RWMutex
	m  map[int]int
}

// Both sides hold the read lock only: readers do not block readers.
func readers() {
	c := &Cache{m: map[int]int{}}
	ch := make(chan int)
	go func() {
		c.mu.RLock()
		ch <- c.m[0] // silent "read-locks"
		c.mu.RUnlock()
	}()
	c.mu.RLock()
	<-ch // silent "read-locks"
	c.mu.RUnlock()
}

// broadcasts' worker locks b.mu for each update, and closes done after
// its loop; stop closes updates and waits for done holding b.mu: if the
// worker is in its loop waiting for b.mu, neither moves.
type broadcasts struct {
	mu      sync.Mutex
	updates chan int
	done    chan struct{}
	n       int
}

func newBroadcasts() *broadcasts {
	b := &broadcasts{updates: make(chan int, 1), done: make(chan struct{})}
	go func() {
		defer close(b.done)
		for v := range b.updates {
			b.add(v)
		}
	}()
	return b
}

func (b *broadcasts) add(v int) {
	b.mu.Lock() // the other side of the deadlock: a related position of the report
	b.n += v
	b.mu.Unlock()
}

func (b *broadcasts) stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	close(b.updates)
	<-b.done // want `blocking while holding a lock: goroutine started at main.go:\d+ receives from b.done at main.go:\d+ while holding b.mu \(locked at main.go:\d+\); the close that would unblock it \(at main.go:\d+, goroutine started at main.go:\d+\) comes after a loop that locks b.mu`
}

// feeds' stop lets f.mu go before it waits: silent.
type feeds struct {
	mu      sync.Mutex
	updates chan int
	done    chan struct{}
	n       int
}

func newFeeds() *feeds {
	f := &feeds{updates: make(chan int, 1), done: make(chan struct{})}
	go func() {
		defer close(f.done)
		for v := range f.updates {
			f.mu.Lock()
			f.n += v
			f.mu.Unlock()
		}
	}()
	return f
}

func (f *feeds) stop() {
	f.mu.Lock()
	close(f.updates)
	f.mu.Unlock()
	<-f.done // silent "not-held"
}

func main() {
	b := newBroadcasts()
	b.updates <- 1
	go b.stop()
	f := newFeeds()
	f.updates <- 1
	go f.stop()
	sendLocked()
	sendUnlocked()
	sendFirst()
	sendAfterTouch()
	sendMaybeLocked(true)
	recvFree()
	sendBuffered()
	waitLocked()
	waitAfterUnlock()
	recvLocked()
	recvSelect(make(chan struct{}))
	readers()
	condLocked()
	condOwnLock()
	statusTwoSenders()
	statusOneSender()
	statusMaybe()
	monitorLocked()
	monitorFree()
	endsHolding()
	handsOver()
	unlocks()
	lockedBeforeStart()
}

// lockedBeforeStart's Lock comes before it starts the sender: it never
// waits there while the sender holds s.mu.
func lockedBeforeStart() {
	s := &Server{}
	ch := make(chan int)
	s.mu.Lock()
	s.state = 1
	s.mu.Unlock()
	go func() {
		s.mu.Lock()
		ch <- s.state // silent "happens-before"
		s.mu.Unlock()
	}()
	<-ch
}

type Queue struct {
	mu    sync.Mutex // guards items
	cond  *sync.Cond // on mu
	big   sync.Mutex // guards the queue's configuration
	items []int
}

func newQueue() *Queue {
	q := &Queue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// Waits on the cond while holding q.big, which the producer takes
// before it signals.
func condLocked() {
	q := newQueue()
	go func() {
		q.big.Lock()
		q.mu.Lock()
		q.items = append(q.items, 1)
		q.cond.Signal()
		q.mu.Unlock()
		q.big.Unlock()
	}()
	q.big.Lock()
	q.mu.Lock()
	for len(q.items) == 0 {
		q.cond.Wait() // want `blocking while holding a lock: main goroutine waits on q.cond at main.go:\d+ while holding q.big \(locked at main.go:\d+\); the Signal that would unblock it`
	}
	q.mu.Unlock()
	q.big.Unlock()
}

// Holds only the cond's own lock, which Wait releases: safe.
func condOwnLock() {
	q := newQueue()
	go func() {
		q.mu.Lock()
		q.items = append(q.items, 1)
		q.cond.Signal()
		q.mu.Unlock()
	}()
	q.mu.Lock()
	for len(q.items) == 0 {
		q.cond.Wait() // silent "cond-wait"
	}
	q.mu.Unlock()
}
