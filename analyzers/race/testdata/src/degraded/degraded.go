// Package degraded is analyzed with a node limit too small for an origin
// per goroutine (TestDegraded), so that the pointer analysis runs
// context insensitive rather than skip the package: the race is still
// reported, and the synchronized look-alikes stay silent.
package main

import (
	"sync"
	"sync/atomic"
)

type stats struct {
	mu      sync.Mutex
	guarded int
	hits    int
	ops     atomic.Int64
	once    sync.Once
	config  map[string]string
}

func (s *stats) record(k string) {
	s.mu.Lock()
	s.guarded++ // silent "common-lock": mutex-protected
	s.mu.Unlock()
	s.ops.Add(1) // atomic: silent
	s.once.Do(func() { s.config = map[string]string{k: k} })
	s.hits++ // want `data race on stats.hits`
}

type job struct{ n int }

func main() {
	s := &stats{}
	var wg sync.WaitGroup
	for _, k := range []string{"a", "b", "c"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.record(k) // silent "not-published": k is per iteration since Go 1.22
		}()
	}
	wg.Wait()
	_ = s.hits // silent "happens-before": after the join

	jobs, done := make(chan *job), make(chan bool)
	go func() {
		for j := range jobs {
			j.n++ // silent "not-published": the job is written only as it is made, before the send
		}
		done <- true
	}()
	for i := range 3 {
		j := &job{n: i}
		jobs <- j
	}
	close(jobs)
	<-done
}
