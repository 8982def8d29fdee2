// Package c is the bottom of the chain a→b→c: it starts the goroutines.
package c

import "sync"

// Pool runs submitted jobs on worker goroutines.
type Pool struct {
	mu   sync.Mutex
	size int
	jobs chan func()
}

func worker(jobs chan func()) {
	for job := range jobs {
		job()
	}
}

// Start starts a pool of n workers.
func Start(n int) *Pool { // want Start:`^origins\(go c.worker c.go:23 multi\)$`
	p := &Pool{jobs: make(chan func())}
	for range n {
		go worker(p.jobs)
	}
	p.size = n
	return p
}

// Grow adds one worker.
func (p *Pool) Grow() { // want Grow:`^origins\(go c.worker c.go:34\)$`
	p.mu.Lock()
	p.size++
	p.mu.Unlock()
	go worker(p.jobs)
}

// Submit hands a job to a worker; it starts no goroutine.
func (p *Pool) Submit(job func()) { p.jobs <- job }
