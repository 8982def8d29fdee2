package main

import "sync"

// A helper that runs a transaction calls the method of the transaction
// its caller passed: transact(t) calls t.run(), and the pointer analysis,
// which merges what every caller passes to transact, finds the run
// method of every kind of transaction given to it anywhere. The walk
// calls, in each chain of calls, the method of the dynamic type the
// chain's interface value was made of. An adapter that wraps the
// function it is given (transactFunc(run) passing &funcTx{run} on) is
// analyzed per call site, so that the wrapper of one call holds that
// call's function and no other's.

type transaction interface{ run() error }

// funcTx gives a function the run method.
type funcTx struct{ fn func() error }

func (t *funcTx) run() error { return t.fn() }

// build is a transaction of another kind, run without the store's lock.
type build struct {
	s     *store
	steps int
}

func (b *build) run() error {
	b.steps++
	b.s.c++ // want `data race on store.c: write at transact.go:\d+ \(goroutine started at transact.go:\d+\) vs write at transact.go:\d+ \(goroutine started at transact.go:\d+\)`
	return nil
}

// transact retries t until it succeeds; the deferred literal captures t.
func transact(t transaction) {
	defer func() {
		if recover() != nil {
			_ = t
		}
	}()
	for t.run() != nil {
	}
}

// transactFunc wraps run in a transaction: an adapter.
func transactFunc(run func() error) { transact(&funcTx{run}) }

type store struct {
	mu         sync.Mutex
	a, b, c, d int
}

// commitA writes a under the lock, through a literal that transact
// calls through the interface: the build transactions the goroutines
// also run never call it. Silent.
func (s *store) commitA() {
	s.mu.Lock()
	defer s.mu.Unlock()
	transact(&funcTx{func() error {
		s.a++ // silent "common-lock"
		return nil
	}})
}

// commitB writes b under the lock, one call away: the wrappers
// transactFunc makes for the goroutines' unlocked work are other
// objects, holding other functions. Silent.
func (s *store) commitB() {
	s.mu.Lock()
	defer s.mu.Unlock()
	transactFunc(func() error {
		s.b++ // silent "common-lock"
		return nil
	})
}

// commitC and commitD write c and d under the lock, where the build
// transaction and flushD write them without it: reported, at those.
func (s *store) commitC() {
	s.mu.Lock()
	defer s.mu.Unlock()
	transactFunc(func() error {
		s.c++
		return nil
	})
}

func (s *store) commitD() {
	s.mu.Lock()
	defer s.mu.Unlock()
	transactFunc(func() error {
		s.d++
		return nil
	})
}

// flush runs a transaction of its own without the lock.
func (s *store) flush() {
	n := 0
	transactFunc(func() error {
		n++
		return nil
	})
}

// flushD writes d without the lock: reported.
func (s *store) flushD() {
	transactFunc(func() error {
		s.d++ // want `data race on store.d: write at transact.go:\d+ \(goroutine started at transact.go:\d+\) vs write at transact.go:\d+ \(goroutine started at transact.go:\d+\)`
		return nil
	})
}

func (s *store) work() {
	s.flush()
	transact(&build{s: s})
	s.commitA()
	s.commitB()
	s.commitC()
	s.commitD()
	s.flushD()
}

func startStore() {
	s := &store{}
	go s.work()
	go s.work()
}
