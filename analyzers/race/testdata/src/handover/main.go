// Package main checks hand-over through channels: what a goroutine
// writes to an object before it sends the object (or a value that
// carries it) is ordered before what the receiver does after the
// receive, for every object sent, and through a goroutine that passes
// it on.
package main

type job struct {
	id   int
	name string
}

type envelope struct{ j *job }

// Two fresh jobs sent one after the other, received in a loop: silent.
func pair(ch chan<- *job) {
	a := &job{}
	a.id = 1 // silent "not-published": written before it is sent
	b := &job{}
	b.id = 2
	ch <- a
	ch <- b
	close(ch)
}

// A job carried inside another value and passed on by a relay: silent.
func wrapped(ch chan<- envelope) {
	j := &job{}
	j.name = "wrapped" // silent "not-published": written before it is sent
	ch <- envelope{j}
	close(ch)
}

func relay(in <-chan envelope, out chan<- *job) {
	for e := range in {
		out <- e.j
	}
	close(out)
}

// A job written after it was sent: reported.
func late(ch chan<- *job) {
	j := &job{}
	ch <- j
	j.name = "late" // want `data race on job.name: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs read at main.go:\d+ \(main goroutine\)`
	close(ch)
}

// Workers, started in a loop, each send fresh jobs on a buffered
// channel that the main goroutine drains in a select loop: silent.
func worker(ch chan<- *job, done chan<- bool) {
	for i := range 3 {
		j := &job{}
		j.id = i // silent "not-published": written before it is sent
		ch <- j
	}
	done <- true
}

func drain() {
	ch, done := make(chan *job, 8), make(chan bool)
	for range 4 {
		go worker(ch, done)
	}
	for left := 4; left > 0; {
		select {
		case j := <-ch:
			println(j.id)
		case <-done:
			left--
		}
	}
}

// collect makes a fresh summary on each call and sends it. A goroutine
// that collects twice fills the second map after its first sends, which
// the receiver's first receives do not order; the receiver reads each
// map only through the value it received: silent.
type summary struct{ quantiles map[float64]float64 }

func collect(ch chan<- *summary) {
	q := make(map[float64]float64)
	for i := range 3 {
		q[float64(i)] = 1 // silent "not-published": each call fills its own map before it sends it
	}
	ch <- &summary{quantiles: q}
}

func collectTwice() {
	ch := make(chan *summary)
	go func() {
		collect(ch)
		collect(ch)
		close(ch)
	}()
	for s := range ch {
		println(len(s.quantiles))
	}
}

// A response sent by value, its pointers past its first field, on the
// channel of any of many watchers, and received from one of them: what
// the notifier wrote before the send is ordered before the receiver's
// reads. A write after the send is not.
type response struct {
	id     int
	events []*job
}

func notifyAll(in <-chan *job, chans []chan response) {
	j := <-in
	j.name = "event" // silent "handover"
	for _, ch := range chans {
		select {
		case ch <- response{id: 1, events: []*job{j}}:
		default:
		}
	}
	j.id = 2 // want `data race on job.id: write at main.go:\d+ \(goroutine started at main.go:\d+, in a loop\) vs read at main.go:\d+ \(main goroutine\)`
}

func watchMany() {
	few := []chan response{make(chan response, 1), make(chan response, 1)}
	many := []chan response{
		make(chan response, 1), make(chan response, 1), make(chan response, 1),
		make(chan response, 1), make(chan response, 1), make(chan response, 1),
		make(chan response, 1), make(chan response, 1), make(chan response, 1),
	}
	for _, chans := range [][]chan response{few, many} {
		in := make(chan *job, 1)
		in <- &job{}
		go notifyAll(in, chans)
		r := <-chans[0]
		println(r.events[0].name, r.events[0].id)
	}
}

func main() {
	drain()
	collectTwice()
	watchMany()
	jobs := make(chan *job)
	go pair(jobs)
	for j := range jobs {
		println(j.id)
	}

	in, out := make(chan envelope), make(chan *job, 4)
	go wrapped(in)
	go relay(in, out)
	for j := range out {
		println(j.name)
	}

	lates := make(chan *job)
	go late(lates)
	for j := range lates {
		println(j.name)
	}
}
