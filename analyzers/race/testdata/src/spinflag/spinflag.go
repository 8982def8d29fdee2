// Package main checks words used as locks through sync/atomic alone
// (rule spin-flag): every write of the flag is a CompareAndSwap from free
// to held or a Store of free, so the goroutine whose swap succeeded holds
// it until it stores free again.
package main

import (
	"runtime"
	"sync"
	"sync/atomic"
)

type batcher struct {
	running uint32
	items   []int
	busy    atomic.Bool
	m       map[int]int
	state   int32
	total   int
	pending []int
	seen    int
}

// flush takes the flag with a swap and clears it with a store, both of
// package sync/atomic's functions: two flushes never run the branch at
// once.
func (b *batcher) flush(x int) {
	if atomic.CompareAndSwapUint32(&b.running, 0, 1) {
		b.items = append(b.items, x) // silent "spin-flag"
		atomic.StoreUint32(&b.running, 0)
	}
}

// put is the typed shape, the swap negated and the store deferred.
func (b *batcher) put(k, v int) {
	if !b.busy.CompareAndSwap(false, true) {
		return
	}
	defer b.busy.Store(false)
	b.m[k] = v // silent "spin-flag"
}

// spin retries the swap until it wins (a spin lock's Lock); its Unlock
// is a helper, one call down.
func (b *batcher) add(n int) {
	for !atomic.CompareAndSwapInt32(&b.state, 0, 1) {
		runtime.Gosched()
	}
	b.total += n // silent "spin-flag"
	b.release()
}

func (b *batcher) release() { atomic.StoreInt32(&b.state, 0) }

// drain hands the held flag to the goroutine it starts, which clears it
// when done: the goroutine runs in the section that drain began.
func (b *batcher) drain() {
	if atomic.CompareAndSwapUint32(&b.running, 0, 1) {
		b.items = append(b.items, 0) // silent "spin-flag"
		go b.finish()
	}
}

func (b *batcher) finish() {
	b.items = b.items[:0] // silent "spin-flag"
	atomic.StoreUint32(&b.running, 0)
}

// Its twins. A write after the store is outside the section: reported.
func (b *batcher) late(x int) {
	if atomic.CompareAndSwapUint32(&b.running, 0, 1) {
		atomic.StoreUint32(&b.running, 0)
		b.seen = x // want `data race on batcher.seen`
	}
}

type counter struct {
	gate    int32
	hits    int
	weights []int
}

// A flag that is also added to is a counter, not a lock: its swap does
// not exclude a goroutine that came in by the Add.
func (c *counter) hit() {
	if atomic.CompareAndSwapInt32(&c.gate, 0, 1) {
		c.hits++ // want `data race on counter.hits`
		atomic.StoreInt32(&c.gate, 0)
	}
}

func (c *counter) force() {
	atomic.AddInt32(&c.gate, 1)
	c.hits++
	atomic.AddInt32(&c.gate, -1)
}

func main() {
	b := &batcher{m: make(map[int]int)}
	c := &counter{}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.flush(i)
			b.put(i, i)
			b.add(i)
			b.drain()
			b.late(i)
			c.hit()
			c.force()
		}()
	}
	wg.Wait()
}
