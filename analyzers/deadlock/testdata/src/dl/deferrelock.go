package main

import (
	"errors"
	"sync"
)

var errSeek = errors.New("seek")

// Journal's shrink returns on its error path with mu still held, but the
// function it deferred locks mu first: sync.Mutex is not reentrant, so
// that path blocks forever in the deferred call (the double lock
// reported there, and the return that leaves mu held, where the fix
// goes) and never returns holding mu. Its callers' next Lock is not
// blocked by a lock shrink left held.
type Journal struct {
	mu        sync.Mutex
	shrinking bool
	size      int
}

// seek fails when the journal is broken.
func (j *Journal) seek() error {
	if j.size < 0 {
		return errSeek
	}
	return nil
}

func (j *Journal) shrink() error {
	j.mu.Lock()
	j.shrinking = true
	defer func() { // want `double lock: j.mu is held .* when this goroutine runs the deferred`
		j.mu.Lock() // silent "not-held"
		j.shrinking = false
		j.mu.Unlock()
	}()
	if err := j.seek(); err != nil {
		return err // want `lock left held: j.mu \(locked at deferrelock.go:31\) is still locked when shrink returns`
	}
	j.mu.Unlock()
	return nil
}

func (j *Journal) config() int {
	j.mu.Lock() // silent "not-held"
	defer j.mu.Unlock()
	return j.size
}

// compact's deferred call locks another mutex, so its error path does
// return holding mu.
func (j *Journal) compact(other *sync.Mutex) error {
	j.mu.Lock()
	defer func() {
		other.Lock()
		other.Unlock()
	}()
	if err := j.seek(); err != nil {
		return err // want `lock left held: j.mu`
	}
	j.mu.Unlock()
	return nil
}

func (j *Journal) resize() {
	j.mu.Lock() // want `Lock blocks forever \(deadlock\): j.mu is left locked by compact`
	j.size++
	j.mu.Unlock()
}

func useJournal() {
	j := &Journal{size: -1}
	j.shrink()
	j.config()
	k := &Journal{size: -1}
	k.compact(new(sync.Mutex))
	k.resize()
}
