// Package drain checks pools that wait for their workers by filling
// the semaphore channel that bounds them: each worker holds a token
// (a send) until it is done (a receive), and the pool's shutdown sends
// cap(ch) tokens of its own. The k-th receive on a channel of capacity
// C happens before the (k+C)-th send completes, so the last of those
// sends completes only after every worker has released its token, with
// no count of either known.
package main

import (
	"fmt"
	"os"
	"sync"
)

// Pool takes a token in a select with its quit channel, and drains
// with a three-clause loop.
type Pool struct {
	sema  chan struct{}
	quit  chan struct{}
	mu    sync.Mutex
	total int
	late  int
}

func (p *Pool) Run(tasks []int) {
	for _, t := range tasks {
		select {
		case <-p.quit:
			return
		case p.sema <- struct{}{}:
		}
		go func() {
			defer func() { <-p.sema }()
			p.mu.Lock()
			p.total += t // silent "common-lock" "happens-before"
			p.mu.Unlock()
		}()
	}
}

// RunLate writes after its worker released the token: the drain does
// not wait for that write.
func (p *Pool) RunLate() {
	p.sema <- struct{}{}
	go func() {
		<-p.sema
		p.late++ // want `data race on Pool.late`
	}()
}

func (p *Pool) Shutdown() {
	close(p.quit)
	for i := 0; i < cap(p.sema); i++ {
		p.sema <- struct{}{}
	}
}

// Limiter takes a token with a plain send, and drains with a range
// over cap.
type Limiter struct {
	slots chan struct{}
	mu    sync.Mutex
	hits  map[string]int
	seen  int
}

func (l *Limiter) Do(key string) {
	l.slots <- struct{}{}
	go func() {
		defer func() { <-l.slots }()
		l.mu.Lock()
		defer l.mu.Unlock()
		l.hits[key]++ // silent "happens-before"
	}()
}

// Peek takes a token that it never gives back and sees the count: no
// drain can complete while it holds it, and it is no release either.
func (l *Limiter) Peek() {
	go func() {
		<-l.slots
		l.seen++ // want `data race on Limiter.seen`
	}()
}

func (l *Limiter) Wait() {
	for range cap(l.slots) {
		l.slots <- struct{}{}
	}
}

// fillLocal bounds its workers with a channel in a local variable that
// the workers' literal captures, and drains it with a three-clause loop
// (Go's TestNoRaceChanWaitGroup); fillRange with a range over cap, its
// workers a literal's literal.
func fillLocal(n int) {
	sem := make(chan bool, n/2+1)
	data := make([]int, n)
	for i := 0; i < n; i++ {
		sem <- true
		go func(i int) {
			data[i] = 42 // silent "happens-before"
			<-sem
		}(i)
	}
	for i := 0; i < cap(sem); i++ {
		sem <- true
	}
	for i := range n {
		fmt.Println(data[i])
	}
}

func fillRange(n int) {
	sem := make(chan struct{}, n)
	total := 0
	work := func() {
		sem <- struct{}{}
		go func() {
			total++ // silent "happens-before"
			<-sem
		}()
	}
	work()
	for range cap(sem) {
		sem <- struct{}{}
	}
	fmt.Println(total)
}

// fillShort's twin drains one token short: the last worker may still
// run.
func fillShort(n int) {
	sem := make(chan bool, n)
	data := make([]int, n)
	for i := 0; i < n; i++ {
		sem <- true
		go func(i int) {
			data[i] = 42 // want `data race on an element of \[\]int`
			<-sem
		}(i)
	}
	for i := 0; i < cap(sem)-1; i++ {
		sem <- true
	}
	for i := range n {
		fmt.Println(data[i])
	}
}

func main() {
	fillLocal(len(os.Args) + 3)
	fillRange(len(os.Args) + 3)
	fillShort(len(os.Args) + 3)
	n := len(os.Args) + 3
	p := &Pool{sema: make(chan struct{}, n), quit: make(chan struct{})}
	p.Run([]int{1, 2, 3})
	p.RunLate()
	p.Shutdown()
	fmt.Println(p.total, p.late)

	l := &Limiter{slots: make(chan struct{}, n), hits: make(map[string]int)}
	l.Do("a")
	l.Do("b")
	l.Wait()
	fmt.Println(l.hits["a"])

	m := &Limiter{slots: make(chan struct{}, n), hits: make(map[string]int)}
	m.Peek()
	m.Wait()
	fmt.Println(m.seen)
}
