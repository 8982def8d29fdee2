package main

import (
	"errors"
	"sync"
)

type proxy struct {
	mu    sync.Mutex
	conns int
}

func dial(i int) error {
	if i > 0 {
		return errors.New("refused")
	}
	return nil
}

// run skips the Unlock when dial fails and locks again in the next
// iteration.
func (p *proxy) run() {
	for i := range 2 {
		p.mu.Lock() // want `double lock on some paths: p.mu is locked at paths.go:\d+ while still held on a path from the Lock at paths.go:\d+ that skips every Unlock`
		if err := dial(i); err != nil {
			continue
		}
		p.conns++
		p.mu.Unlock()
	}
}

// runOK unlocks before it continues: silent.
func (p *proxy) runOK() {
	for i := range 2 {
		p.mu.Lock() // silent "not-held"
		if err := dial(i); err != nil {
			p.mu.Unlock()
			continue
		}
		p.conns++
		p.mu.Unlock()
	}
}

// runDeferred unlocks in a function literal each iteration: silent.
func (p *proxy) runDeferred() {
	for i := range 2 {
		func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			if dial(i) != nil {
				return
			}
			p.conns++
		}() // silent "not-held"
	}
}

// lookup locks once, when the flag says it does not hold the lock yet:
// silent.
func (p *proxy) lookup(keys []int) {
	held := false
	for _, k := range keys {
		if k > p.conns && !held {
			p.mu.Lock() // silent "lock-flag"
			held = true
		}
	}
	if !held {
		p.mu.Lock() // silent "lock-flag"
	}
	p.conns++
	p.mu.Unlock()
}

// handOver locks in a loop and lets main unlock each time: the mutex
// is handed from one goroutine to the other, not left held (silent).
func handOver(p *proxy, locked chan<- bool) {
	for range 2 {
		p.mu.Lock() // silent "lock-handover"
		locked <- true
	}
}

type node struct {
	mu     sync.Mutex
	done   bool
	parent *node
}

// firstOpen locks each ancestor in turn, another mutex each time around
// the loop (silent).
func (n *node) firstOpen() *node {
	for p := n.parent; p != nil; p = p.parent {
		p.mu.Lock() // silent "other-instance"
		defer p.mu.Unlock()
		if !p.done {
			return p
		}
	}
	return nil
}

// relockIgnored is silenced on purpose.
func relockIgnored(p *proxy) {
	p.mu.Lock()
	p.mu.Lock() //origo:ignore deadlock the test checks that this blocks // silent "ignored"
}

func init() {
	relockIgnored(&proxy{})
	(&node{}).firstOpen()
	q := &proxy{}
	locked := make(chan bool)
	go handOver(q, locked)
	for range 2 {
		<-locked
		q.mu.Unlock()
	}
	p := &proxy{}
	p.lookup(nil)
	p.run()
	p.runOK()
	p.runDeferred()
}
