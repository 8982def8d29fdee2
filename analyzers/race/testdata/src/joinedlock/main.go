// Package main checks goroutines that a lock holder starts and waits
// for before it unlocks (rule joined-under-lock): they run inside the
// holder's critical section, ordered with every other goroutine's
// section of that mutex, but not with each other nor with their starter
// inside the section.
package main

import "sync"

type tree struct {
	mu    sync.Mutex
	size  int
	nodes []int
	count int
	width int
	depth int
}

// split's workers write size inside split's section; Size reads it
// holding the mutex: silent. Two splits' workers write it in two
// sections of the mutex: silent too.
func (t *tree) split() {
	t.mu.Lock()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t.size++ // silent "joined-under-lock"
	}()
	wg.Wait()
	t.mu.Unlock()
}

// The same with WaitGroup.Go.
func (t *tree) splitGo() {
	t.mu.Lock()
	var wg sync.WaitGroup
	wg.Go(func() {
		t.size-- // silent "joined-under-lock"
	})
	wg.Wait()
	t.mu.Unlock()
}

func (t *tree) Size() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.size
}

// The same one call down: Rebalance holds the mutex around balance,
// which starts the workers and waits for them on a channel.
func (t *tree) Rebalance() {
	t.mu.Lock()
	t.balance()
	t.mu.Unlock()
}

func (t *tree) balance() {
	done := make(chan struct{})
	go func() {
		t.nodes = append(t.nodes, 1) // silent "joined-under-lock"
		close(done)
	}()
	<-done
}

func (t *tree) Nodes() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.nodes)
}

// Its twins. Two workers of one section run at once: reported. So does
// a worker with its starter's own access inside the section, and a
// worker that its starter waits for only after it unlocked.
func (t *tree) countAll() {
	t.mu.Lock()
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.count++ // want `data race on tree.count`
		}()
	}
	wg.Wait()
	t.mu.Unlock()
}

func (t *tree) grow() {
	t.mu.Lock()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t.width++ // want `data race on tree.width: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs read`
	}()
	println(t.width)
	wg.Wait()
	t.mu.Unlock()
}

func (t *tree) deepen() {
	t.mu.Lock()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t.depth++ // want `data race on tree.depth`
	}()
	t.mu.Unlock()
	wg.Wait()
}

func (t *tree) Depth() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.depth
}

func main() {
	t := &tree{}
	go t.split()
	go t.split()
	go t.Size()
	go t.splitGo()
	go t.Rebalance()
	go t.Nodes()
	go t.countAll()
	go t.grow()
	go t.deepen()
	println(t.Depth())
}
