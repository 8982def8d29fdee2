package main

import (
	"sync"
	"sync/atomic"
)

// A reference count: the Add that brings it to zero is the last, so
// what every other holder did before its own decrement happens before
// the free (a count that reached zero is counted neither down nor up
// again: that is a reference count's contract).
type job struct {
	refs int32
	buf  []byte
	hits uint32
	tag  string
}

func (j *job) release() {
	if atomic.AddInt32(&j.refs, -1) == 0 {
		j.buf = nil // silent "atomic-observed"
	}
}

func (j *job) use() {
	_ = len(j.buf)
	j.release()
}

// The unsigned form subtracts one by adding ^uint32(0).
func (j *job) unhit() {
	_ = j.tag
	if atomic.AddUint32(&j.hits, ^uint32(0)) == 0 {
		j.tag = "" // silent "atomic-observed"
	}
}

// Writing where the count is not yet zero frees under the others'
// feet: reported.
func (j *job) early() {
	if atomic.AddInt32(&j.refs, -1) != 0 {
		j.buf = nil // want `data race on job.buf`
	}
}

func refcount() {
	j := &job{refs: 2, buf: make([]byte, 4), hits: 2}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j.use()
			j.unhit()
		}()
	}
	wg.Wait()

	k := &job{refs: 2, buf: make([]byte, 4)}
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = len(k.buf)
			k.early()
		}()
	}
	wg.Wait()
}

// A countdown: each worker decrements once, and the one that reaches
// zero closes the results. What the others did before their decrement
// comes before the close.
func countdown() {
	var mu sync.Mutex
	results := map[int]int{}
	total := 0
	left := int64(3)
	done := make(chan struct{})
	for i := range 3 {
		go func() {
			mu.Lock()
			results[i] = i
			mu.Unlock()
			_ = total
			if atomic.AddInt64(&left, -1) == 0 {
				total = len(results) // silent "atomic-observed"
				close(done)
			}
		}()
	}
	<-done
}

func init() {
	refcount()
	countdown()
}
