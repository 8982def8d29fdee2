package main

import (
	"fmt"
	"sync"
)

// Queue is made by one constructor that many callers use: each call is
// its own context, so q.sema points to as many channels as there are
// callers. Channels made at one place are taken for one object however
// many contexts made them (a context-insensitive analysis has them as
// one), so the drain in Close still waits for the workers of its own
// queue. (The count of callers passes the bound of eight channels that
// objects made at different places may be merged under.)
type Queue struct {
	sema chan struct{}
	done chan struct{}
	mu   sync.Mutex
	sum  int
	last int
	late int
}

func newQueue() *Queue {
	return &Queue{sema: make(chan struct{}, 4), done: make(chan struct{})}
}

// Submit runs f on a worker that holds a token while it runs.
func (q *Queue) Submit(n int) {
	q.sema <- struct{}{}
	go func() {
		defer func() { <-q.sema }()
		q.sum += n // silent "happens-before"
	}()
}

// Watch starts a dispatcher goroutine that takes a token in a select
// and hands it to the worker it starts, which gives it back (asynq's
// processor): the token's holder is not the function that took it.
func (q *Queue) Watch(n int) {
	go func() {
		for {
			select {
			case <-q.done:
				return
			case q.sema <- struct{}{}:
				go func() {
					defer func() { <-q.sema }()
					q.mu.Lock()
					q.last = n // silent "common-lock" "happens-before"
					q.mu.Unlock()
				}()
			}
		}
	}()
}

// Leak gives the token back before it writes: the drain does not wait
// for the write.
func (q *Queue) Leak() {
	q.sema <- struct{}{}
	go func() {
		<-q.sema
		q.late++ // want `data race on Queue.late`
	}()
}

func (q *Queue) Close() int {
	for i := 0; i < cap(q.sema); i++ {
		q.sema <- struct{}{}
	}
	close(q.done)
	return q.sum + q.last + q.late
}

func use1()  { q := newQueue(); q.Submit(1); q.Watch(1); q.Leak(); fmt.Println(q.Close()) }
func use2()  { q := newQueue(); q.Submit(2); q.Watch(2); fmt.Println(q.Close()) }
func use3()  { q := newQueue(); q.Submit(3); q.Watch(3); fmt.Println(q.Close()) }
func use4()  { q := newQueue(); q.Submit(4); q.Watch(4); fmt.Println(q.Close()) }
func use5()  { q := newQueue(); q.Submit(5); q.Watch(5); fmt.Println(q.Close()) }
func use6()  { q := newQueue(); q.Submit(6); q.Watch(6); fmt.Println(q.Close()) }
func use7()  { q := newQueue(); q.Submit(7); q.Watch(7); fmt.Println(q.Close()) }
func use8()  { q := newQueue(); q.Submit(8); q.Watch(8); fmt.Println(q.Close()) }
func use9()  { q := newQueue(); q.Submit(9); q.Watch(9); fmt.Println(q.Close()) }
func use10() { q := newQueue(); q.Submit(10); q.Watch(10); fmt.Println(q.Close()) }

func init() {
	use1()
	use2()
	use3()
	use4()
	use5()
	use6()
	use7()
	use8()
	use9()
	use10()
}
