// Package blklib is used by blkx: functions that operate on the
// channels they are given.
package blklib

import (
	"context"
	"reflect"
	"sync"
)

// Produce sends one value on out.
func Produce(out chan<- int) { out <- 1 }

// Drain receives from in until it is closed.
func Drain(in <-chan int) {
	for range in {
	}
}

// Compute returns a value.
func Compute() int { return 2 }

// Tx waits for its context; its importer calls Rollback, which this
// package never does: silent in a library.
type Tx struct {
	ctx    context.Context
	cancel context.CancelFunc
}

func Begin() *Tx {
	ctx, cancel := context.WithCancel(context.Background())
	t := &Tx{ctx: ctx, cancel: cancel}
	go func() { <-t.ctx.Done() }() // silent "library-callers"
	return t
}

func (t *Tx) Rollback() { t.cancel() }

// Send sends v on out and never closes it.
func Send(out chan<- int, v int) { out <- v }

// SendAll sends vs on out, then closes it.
func SendAll(out chan<- int, vs []int) {
	for _, v := range vs {
		out <- v
	}
	close(out)
}

// AwaitAll waits for wg.
func AwaitAll(wg *sync.WaitGroup) { wg.Wait() }

// Finish marks one task of wg done.
func Finish(wg *sync.WaitGroup) { wg.Done() }

// Sleep waits on c until woken.
func Sleep(c *sync.Cond) {
	c.L.Lock()
	c.Wait()
	c.L.Unlock()
}

// Wake wakes every sleeper on c.
func Wake(c *sync.Cond) { c.Broadcast() }

// Keep stores its channel, where any code may use it: a channel given to
// it has escaped.
func Keep(ch chan int) { kept = ch }

var kept chan int

// FinishOK marks its task done unless it failed: then it returns first.
func FinishOK(wg *sync.WaitGroup, failed bool) {
	if failed {
		return
	}
	wg.Done()
}

// Pump receives, on a goroutine of its own, every value of the channel
// that v boxes, through reflection, until the channel is closed (nats's
// BindSendChan).
func Pump(v any) {
	ch := reflect.ValueOf(v)
	go func() {
		for {
			if _, ok := ch.Recv(); !ok {
				return
			}
		}
	}()
}
