package main

import (
	"context"
	"errors"
	"time"
)

func compute() int { return 1 }

var errEmpty = errors.New("empty")

// fetch stops listening when ctx is done.
func fetch(ctx context.Context) (int, error) {
	ch := make(chan int)
	go func() {
		ch <- compute() // want `send blocks forever when fetch returns early: the goroutine started at leaks.go:\d+ sends on ch \(made at leaks.go:\d+, unbuffered\), and fetch may return at leaks.go:\d+ without receiving it`
	}()
	select {
	case v := <-ch:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// fetchThenClose's goroutine closes the channel after its send: the
// send still has no receiver once fetchThenClose returns.
func fetchThenClose(ctx context.Context) (int, error) {
	ch := make(chan int)
	go func() {
		ch <- compute() // want `send blocks forever when fetchThenClose returns early: the goroutine started at leaks.go:\d+ sends on ch`
		close(ch)
	}()
	select {
	case v := <-ch:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// fetchThenCloseOK receives on every path: silent.
func fetchThenCloseOK(ctx context.Context) (int, error) {
	ch := make(chan int)
	go func() {
		ch <- compute() // silent "every-path"
		close(ch)
	}()
	select {
	case v := <-ch:
		return v, nil
	case <-ctx.Done():
		<-ch
		return 0, ctx.Err()
	}
}

// search's goroutine answers on found or on errs, never both: the
// return on found has heard from it (silent).
func search(ok bool) error {
	found := make(chan struct{})
	errs := make(chan error)
	go func() {
		if ok {
			close(found)
			return
		}
		errs <- errEmpty // silent "answered-otherwise"
	}()
	select {
	case <-found:
		return nil
	case err := <-errs:
		return err
	}
}

// searchLate's goroutine announces it started, then sends its result:
// the return on started leaves the send behind.
func searchLate() error {
	started := make(chan struct{})
	errs := make(chan error)
	go func() {
		close(started)
		errs <- errEmpty // want `send blocks forever when searchLate returns early`
	}()
	select {
	case <-started:
		return nil
	case err := <-errs:
		return err
	}
}

// fetchBuffered gives the late send a place to go: silent.
func fetchBuffered(ctx context.Context) (int, error) {
	ch := make(chan int, 1)
	go func() { ch <- compute() }() // silent "buffered"
	select {
	case v := <-ch:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// fetchGuarded sends in a select on ctx.Done too: silent.
func fetchGuarded(ctx context.Context) (int, error) {
	ch := make(chan int)
	go func() {
		select { // silent "other-case"
		case ch <- compute():
		case <-ctx.Done():
		}
	}()
	select {
	case v := <-ch:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

func worker(out chan<- int) {
	out <- compute() // want `send blocks forever when validate returns early: the goroutine started at leaks.go:\d+ sends on ch`
}

// validate returns on an error before it receives.
func validate(err error) int {
	ch := make(chan int)
	go worker(ch) // the send in worker is reported
	if err != nil {
		return 0
	}
	return <-ch
}

// validateAfter receives on every path: silent.
func validateAfter(err error) int {
	ch := make(chan int)
	go func() { ch <- compute() }() // silent "every-path"
	v := <-ch
	if err != nil {
		return 0
	}
	return v
}

// first starts a goroutine per server and takes the first answer.
func first(servers []string) int {
	ch := make(chan int)
	for range servers {
		go func() {
			ch <- compute() // want `send blocks forever: the goroutines started at leaks.go:\d+ in a loop each send on ch \(made at leaks.go:\d+, unbuffered\), and first receives from it once, at leaks.go:\d+: all but one block forever`
		}()
	}
	return <-ch
}

// all receives one answer per goroutine: silent.
func all(servers []string) int {
	ch := make(chan int)
	for range servers {
		go func() { ch <- compute() }() // silent "values"
	}
	sum := 0
	for range servers {
		sum += <-ch
	}
	return sum
}

// timed gives up after a second.
func timed() error {
	done := make(chan error)
	go func() {
		done <- errors.New("late") // want `send blocks forever when timed returns early`
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Second):
		return errors.New("timeout")
	}
}

// sendTwice reports an error, and then the result too.
func sendTwice(ch chan<- int, err error) {
	if err != nil {
		ch <- 0
	}
	ch <- 1 // want `send blocks forever: a goroutine may send on ch \(made at leaks.go:\d+, unbuffered\) twice, at leaks.go:\d+ and then here, and once receives from it at most once`
}

// sendOnce returns after reporting the error: silent.
func sendOnce(ch chan<- int, err error) {
	if err != nil {
		ch <- 0
		return
	}
	ch <- 1 // silent "every-path"
}

func once(err error) int {
	ch := make(chan int)
	go sendTwice(ch, err)
	return <-ch
}

func onceOK(err error) int {
	ch := make(chan int)
	go sendOnce(ch, err)
	return <-ch
}

// loop makes a channel per call and stops listening when told to stop.
func loop(stop <-chan bool) {
	for {
		done := make(chan bool)
		go func() {
			done <- true // want `send blocks forever when loop moves on early: the goroutine started at leaks.go:\d+ sends on done \(made at leaks.go:\d+ in each iteration, unbuffered\), and loop may return at leaks.go:\d+ without receiving it`
		}()
		select {
		case <-stop:
			return
		case <-done:
		}
	}
}

// loopOK receives each iteration's answer before it looks at stop:
// silent.
func loopOK(stop <-chan bool) {
	for {
		done := make(chan bool)
		go func() { done <- true }() // silent "every-path"
		<-done
		select {
		case <-stop:
			return
		default:
		}
	}
}

func produce(out chan<- bool) { out <- true } // silent "values"

// collect starts two producers and receives in a loop as many times as
// n says: whether that is two depends on n (silent).
func collect(n int) {
	ch := make(chan bool)
	go produce(ch)
	go produce(ch)
	for range n {
		<-ch
	}
}

func init() {
	ctx := context.Background()
	collect(2)
	stop := make(chan bool)
	go loop(stop)
	go loopOK(stop)
	close(stop)
	once(nil)
	onceOK(nil)
	fetch(ctx)
	search(true)
	searchLate()
	fetchThenClose(ctx)
	fetchThenCloseOK(ctx)
	fetchBuffered(ctx)
	fetchGuarded(ctx)
	validate(nil)
	validateAfter(nil)
	first(nil)
	all(nil)
	timed()
}
