package main

import (
	"errors"
	"sync"
	"time"
)

// noDone counts a worker that never says it is done.
func noDone() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { println("work") }()
	wg.Wait() // want `WaitGroup.Wait blocks forever: goroutine started at waits.go:\d+ waits for wg, whose counter Add raises, but nothing calls Done on it`
}

// done counts the worker that says so: silent.
func done() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		println("work")
	}()
	wg.Wait() // silent "partner"
}

// neverSignalled waits on a Cond that nothing signals.
func neverSignalled() {
	c := sync.NewCond(&sync.Mutex{})
	c.L.Lock()
	c.Wait() // want `Cond.Wait blocks forever: goroutine started at waits.go:\d+ waits on c, which nothing signals`
	c.L.Unlock()
}

type queue struct {
	mu    sync.Mutex
	ready *sync.Cond
	items []int
}

// pop waits until push signals: silent.
func (q *queue) pop() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 {
		q.ready.Wait() // silent "partner"
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v
}

func (q *queue) push(v int) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	q.ready.Signal()
}

// doneLater hands wg.Done to a timer: silent.
func doneLater() {
	var wg sync.WaitGroup
	wg.Add(1)
	time.AfterFunc(0, wg.Done)
	wg.Wait() // silent "partner"
}

// collectAll waits for its workers before it drains their results.
func collectAll(xs []int) int {
	results := make(chan int)
	var wg sync.WaitGroup
	for _, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- x * 2 // sequel `send blocks forever: goroutine started at waits.go:\d+, in a loop sends on results \(made at waits.go:\d+, unbuffered\), but every goroutine that receives from it may block forever before it does: goroutine started at waits.go:\d+ at waits.go:\d+ \(reported there\)`
		}()
	}
	wg.Wait() // want `WaitGroup.Wait blocks forever: the goroutine started at waits.go:\d+ calls Done on wg only after it sends on results \(made at waits.go:\d+, unbuffered\) at waits.go:\d+, and collectAll receives from results only after this Wait`
	close(results)
	sum := 0
	for r := range results {
		sum += r
	}
	return sum
}

// collectAllOK waits and closes in a goroutine while it drains: silent.
func collectAllOK(xs []int) int {
	results := make(chan int)
	var wg sync.WaitGroup
	for _, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- x * 2 // silent "partner"
		}()
	}
	go func() {
		wg.Wait() // silent "partner"
		close(results)
	}()
	sum := 0
	for r := range results {
		sum += r
	}
	return sum
}

// doneFirst says Done before it sends: silent.
func doneFirst() int {
	ch := make(chan int)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		wg.Done()
		ch <- 1
	}()
	wg.Wait() // silent "partner"
	return <-ch
}

// startAll counts every worker up front, but waits inside the loop
// that starts them.
func startAll(items []int) {
	var wg sync.WaitGroup
	wg.Add(len(items))
	for _, it := range items {
		go func() {
			defer wg.Done()
			_ = it
		}()
		wg.Wait() // want `WaitGroup.Wait blocks forever: it waits in the loop that starts the goroutines it waits for \(at waits.go:\d+\), but the Add at waits.go:\d+ counted them all before the loop`
	}
}

// startAllThenWait waits after the loop: silent.
func startAllThenWait(items []int) {
	var wg sync.WaitGroup
	wg.Add(len(items))
	for _, it := range items {
		go func() {
			defer wg.Done()
			_ = it
		}()
	}
	wg.Wait() // silent "partner"
}

// startOneAtATime counts each worker in its iteration: silent.
func startOneAtATime(items []int) {
	var wg sync.WaitGroup
	for _, it := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = it
		}()
		wg.Wait() // silent "counted"
	}
}

func waitCases() {
	go startAll([]int{1, 2})
	go startAllThenWait([]int{1, 2})
	go startOneAtATime([]int{1, 2})
	go collectAll(nil)
	go collectAllOK(nil)
	go doneFirst()
	go doneLater()
	go noDone()
	go done()
	go neverSignalled()
	q := &queue{}
	q.ready = sync.NewCond(&q.mu)
	go q.push(1)
	go q.pop()
	go condFields()
}

// plant has two Conds. Only drain, which nothing calls, broadcasts on
// one of them: the analysis cannot name the Cond there, but knows its
// field.
type plant struct {
	mu      sync.Mutex
	started *sync.Cond
	drained *sync.Cond
}

func (p *plant) drain() { p.drained.Broadcast() }

func condFields() {
	p := &plant{}
	p.started = sync.NewCond(&p.mu)
	drained := sync.NewCond(&p.mu)
	p.drained = drained
	go func() {
		p.mu.Lock()
		drained.Wait() // silent "partner": stored in p.drained, which drain may broadcast on
		p.mu.Unlock()
	}()
	go func() {
		p.mu.Lock()
		p.started.Wait() // want `Cond.Wait blocks forever: goroutine started at waits.go:\d+ waits on p.started, which nothing signals`
		p.mu.Unlock()
	}()
	p.mu.Lock()
	p.drained.Wait() // silent "partner": drain may broadcast on it
	p.mu.Unlock()
}

func init() { go waitCases() }

func check(i int) error {
	if i < 0 {
		return errNegative
	}
	return nil
}

var errNegative = errors.New("negative")

// checkAll's goroutines return on an error before Done: Wait never
// returns then.
func checkAll(xs []int) {
	var wg sync.WaitGroup
	for _, x := range xs {
		wg.Add(1)
		go func() {
			if err := check(x); err != nil {
				return
			}
			wg.Done()
		}()
	}
	wg.Wait() // want `WaitGroup.Wait blocks forever when the goroutine started at waits.go:\d+ returns early: it may return at waits.go:\d+ without calling Done on wg; defer the Done`
}

// checkAllDeferred defers the Done: silent.
func checkAllDeferred(xs []int) {
	var wg sync.WaitGroup
	for _, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := check(x); err != nil {
				return
			}
		}()
	}
	wg.Wait() // silent "every-path"
}

func finish(wg *sync.WaitGroup) { wg.Done() }

// overcount adds three for two goroutines.
func overcount() {
	var wg sync.WaitGroup
	wg.Add(3)
	go finish(&wg)
	go func() { defer wg.Done() }()
	wg.Wait() // want `WaitGroup.Wait blocks forever: Add counts 3 \(the first at waits.go:\d+\), but only 2 goroutines that call Done once each are started`
}

// count adds two for two: silent.
func count() {
	var wg sync.WaitGroup
	wg.Add(1)
	go finish(&wg)
	wg.Add(1)
	go func() { defer wg.Done() }()
	wg.Wait() // silent "counted"
}

func init() {
	go checkAll(nil)
	go checkAllDeferred(nil)
	go overcount()
	go count()
}
