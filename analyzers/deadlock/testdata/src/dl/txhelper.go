package main

import (
	"errors"
	"sync"
)

var errShut = errors.New("shut")

// A Logbook's begin returns a logTx holding j.mu where it succeeds; the
// caller ends the logTx, which unlocks: a lock helper whose callers
// release the lock through what it returned.
type Logbook struct {
	mu    sync.Mutex
	shut  bool
	lines []string
}

type logTx struct{ j *Logbook }

func (j *Logbook) begin() (*logTx, error) {
	j.mu.Lock()
	if j.shut {
		j.mu.Unlock()
		return nil, errShut
	}
	return &logTx{j: j}, nil // silent "lock-helper"
}

func (t *logTx) end() { t.j.mu.Unlock() }

func (j *Logbook) Append(s string) error {
	t, err := j.begin()
	if err != nil {
		return err
	}
	defer t.end()
	j.lines = append(j.lines, s)
	return nil
}

func (j *Logbook) Reset() error {
	t, err := j.begin()
	if err != nil {
		return err
	}
	j.lines = nil
	t.end()
	return nil
}

// A Ledger's open looks the same, but what it returns only reads: no
// caller ever unlocks l.mu after a successful open.
type Ledger struct {
	mu   sync.Mutex
	shut bool
	n    int
}

type entry struct{ l *Ledger }

func (e *entry) count() int { return e.l.n }

func (l *Ledger) open() (*entry, error) {
	l.mu.Lock()
	if l.shut {
		l.mu.Unlock()
		return nil, errShut
	}
	return &entry{l: l}, nil // want `lock left held: l.mu \(locked at txhelper.go:\d+\) is still locked when open returns here, while its other returns unlock it`
}

func (l *Ledger) Count() int {
	e, err := l.open()
	if err != nil {
		return 0
	}
	return e.count()
}
