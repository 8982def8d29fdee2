// Package main checks ownership taken out of a mutex-guarded field: a
// goroutine that, holding the mutex, loads a field and resets it
// (pending := s.pending; s.pending = nil) is the only one left that
// reaches what the field held through it, so its unlocked accesses to
// those objects do not race with accesses made under the mutex.
package main

import "sync"

type watcher struct {
	rev int
	ch  chan int
}

type batch map[*watcher][]int

type store struct {
	mu      sync.Mutex
	synced  map[*watcher]bool
	victims []batch
	kick    chan struct{}
}

// notify bumps every synced watcher under mu and moves those whose
// channel is full to a victim batch.
func (s *store) notify() {
	s.mu.Lock()
	b := make(batch)
	for w := range s.synced {
		w.rev++
		select {
		case w.ch <- w.rev:
		default:
			delete(s.synced, w)
			b[w] = append(b[w], w.rev)
		}
	}
	s.victims = append(s.victims, b)
	s.mu.Unlock()
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// retry takes the victims out of the store and sends to them without
// the lock, then puts back those that were sent to: silent. (The
// batches it reads from the slice it took are also past the length of
// any later append, which decides first.)
func (s *store) retry() {
	for range s.kick {
		s.mu.Lock()
		victims := s.victims
		s.victims = nil
		s.mu.Unlock()
		var done []*watcher
		for _, b := range victims {
			for w, revs := range b { // silent "append-past-len"
				if w.resend(revs) {
					done = append(done, w)
				}
			}
		}
		s.mu.Lock()
		for _, w := range done {
			s.synced[w] = true
		}
		s.mu.Unlock()
	}
}

// A check is a condition verified only in tests.
type check func() bool

func verify(ok check) {
	if !ok() {
		panic("check failed")
	}
}

type response struct {
	revs []int
	last int
}

// resend reads the watcher it is given, the caller's taken one, also in
// a closure that a helper calls and through a response it builds.
func (w *watcher) resend(revs []int) bool {
	r := response{revs: revs, last: w.rev}                                // silent "taken-under-lock"
	verify(func() bool { return len(r.revs) == 0 || r.revs[0] <= w.rev }) // silent "taken-under-lock"
	select {
	case w.ch <- r.last + len(r.revs):
		return true
	default:
		return false
	}
}

type queue struct {
	mu    sync.Mutex
	items []*watcher
	kick  chan struct{}
}

// bump bumps every queued watcher under mu.
func (q *queue) bump() {
	q.mu.Lock()
	for _, w := range q.items {
		w.rev++ // want `data race on watcher.rev: write at main.go:\d+ \(main goroutine\) vs read at main.go:\d+ \(goroutine started at main.go:\d+\); locks held: \{[a-z]+\.mu\} vs \{\}`
	}
	q.mu.Unlock()
}

// peek loads the items under mu but leaves them in the queue: bump may
// still reach them, so reading them without the lock races.
func (q *queue) peek() {
	for range q.kick {
		q.mu.Lock()
		items := q.items
		q.mu.Unlock()
		for _, w := range items {
			println(w.rev)
		}
	}
}

type log struct {
	mu      sync.Mutex
	pending []*watcher
	kick    chan struct{}
}

// drain takes the pending watchers, but main writes one it keeps
// without the lock, so taking them orders nothing: reported.
func (l *log) drain() {
	for range l.kick {
		l.mu.Lock()
		ws := l.pending
		l.pending = nil
		l.mu.Unlock()
		for _, w := range ws {
			println(w.rev)
		}
	}
}

func main() {
	s := &store{synced: map[*watcher]bool{}, kick: make(chan struct{}, 1)}
	go s.retry()
	for range 3 {
		s.mu.Lock()
		s.synced[&watcher{ch: make(chan int)}] = true
		s.mu.Unlock()
		s.notify()
	}

	q := &queue{kick: make(chan struct{}, 1)}
	q.items = []*watcher{{}, {}}
	go q.peek()
	for range 3 {
		q.bump()
		q.kick <- struct{}{}
	}

	l := &log{kick: make(chan struct{}, 1)}
	go l.drain()
	for range 3 {
		w := &watcher{}
		l.mu.Lock()
		l.pending = append(l.pending, w)
		l.mu.Unlock()
		l.kick <- struct{}{}
		w.rev = 1 // want `data race on watcher.rev: write at main.go:\d+ \(main goroutine\) vs read at main.go:\d+ \(goroutine started at main.go:\d+\); locks held: \{\} vs \{\}`
	}
}
