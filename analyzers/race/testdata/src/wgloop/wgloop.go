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
	println(rounds([][]int{{1, 2}, {3}}), lateRounds([][]int{{1, 2}, {3}}))
}

// rounds sums each round's results in goroutines that the round's own
// WaitGroup joins before the round reads them: silent. The pointer
// analysis tells two rounds' WaitGroups apart and the Wait names one.
func rounds(parts [][]int) int {
	total := 0
	for _, part := range parts {
		var wg sync.WaitGroup
		sums := make([]int, len(part))
		for i, x := range part {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sums[i] = helperSum(x)
			}()
		}
		wg.Wait()
		for _, s := range sums {
			total += s // silent "happens-before"
		}
	}
	return total
}

// lateRounds waits for a round's goroutines only in the next round:
// the last round's are never joined, and the read after the loop races.
func lateRounds(parts [][]int) int {
	last := 0
	var prev *sync.WaitGroup
	for _, part := range parts {
		if prev != nil {
			prev.Wait()
		}
		wg := new(sync.WaitGroup)
		for _, x := range part {
			wg.Add(1)
			go func() {
				defer wg.Done()
				last = helperSum(x) // want `data race on last: write at wgloop.go:\d+ \(goroutine started at wgloop.go:\d+, in a loop\) vs read` `data race on last: write at wgloop.go:\d+ \(goroutine started at wgloop.go:\d+, in a loop\) vs write`
			}()
		}
		prev = wg
	}
	return last
}

func helperSum(x int) int { return x * 2 }
