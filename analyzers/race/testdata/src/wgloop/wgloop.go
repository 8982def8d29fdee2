// Package wgloop checks worker loops that call Done once per item: the
// work of each item is followed, on every path of its iteration, by a
// Done, and Wait waits for every Done, so the work happens before Wait
// returns, though the next iteration runs after the Done.
package main

import "sync"

type errs struct {
	mu   sync.Mutex
	list []error
	last int
}

func (e *errs) add(err error) {
	e.mu.Lock()
	e.list = append(e.list, err)
	e.mu.Unlock()
}

// collect runs a worker that adds an error per job and then calls
// Done, and reads the errors after the channel that a closer closes
// after Wait: silent.
func collect(n int) int {
	jobs := make(chan int, n)
	for i := range n {
		jobs <- i
	}
	out := make(chan int, n)
	var wg sync.WaitGroup
	wg.Add(n)
	e := &errs{}
	go func() {
		for {
			select {
			case j := <-jobs:
				e.add(nil)
				out <- j
			default:
				return
			}
			wg.Done()
		}
	}()
	go func() {
		wg.Wait()
		close(out)
	}()
	for range out {
	}
	return len(e.list) // silent "done-per-item"
}

// early may leave the loop after its write without a Done: its write
// races with the read after Wait.
func early(n int) int {
	jobs := make(chan int, n)
	for i := range n {
		jobs <- i
	}
	var wg sync.WaitGroup
	wg.Add(n)
	e := &errs{}
	go func() {
		for j := range jobs {
			e.last = j // want `data race on errs.last`
			if j < 0 {
				return
			}
			wg.Done()
		}
	}()
	wg.Wait()
	return e.last
}

func main() {
	println(collect(4), early(4))
}
