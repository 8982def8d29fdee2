// Package main checks methods that set their object up and then start a
// goroutine on it: the goroutine reads its own receiver, which the
// method wrote before the go statement, when every call of the method
// is on an object made for that call, though the pointer analysis
// merges the objects of all calls.
package main

type reader struct {
	done  chan struct{}
	name  string
	tally *tally
}

func (r *reader) start() {
	r.done = make(chan struct{})
	r.name = "reader" // silent "not-published": before the go statement publishes the call's own reader
	r.tally = newTally()
	go r.run()
}

func (r *reader) run() {
	println(r.name)
	r.tally.n++ // silent "twins": the readers' goroutines, told apart only by their reader, are one to the analysis
	close(r.done)
}

// tally is each reader's own, but newTally, which every start calls,
// makes one object for them all to the pointer analysis.
type tally struct{ n int }

func newTally() *tally { return &tally{} }

type peer struct{ msg, app *reader }

// startPeer makes each reader for the call that starts it: silent.
func startPeer(id int) *peer {
	p := &peer{}
	go func() { println(p, id) }()
	p.msg = &reader{}
	p.app = &reader{}
	p.msg.start()
	p.app.start()
	return p
}

type worker struct{ n int }

func (w *worker) start() {
	w.n++ // want `data race on worker.n: write at main.go:\d+ \(main goroutine\) vs read at main.go:\d+ \(goroutine started at main.go:\d+\)`
	go w.loop()
}

func (w *worker) loop() { println(w.n) }

// restart starts the same worker twice: the second start writes what
// the first goroutine reads.
func restart() {
	w := &worker{}
	w.start()
	w.start()
}

func main() {
	a, b := startPeer(1), startPeer(2)
	<-a.msg.done
	<-b.app.done
	for range 2 {
		r := &reader{}
		r.start()
		<-r.done
	}
	restart()
}
