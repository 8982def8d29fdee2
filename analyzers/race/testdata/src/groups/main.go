// Package main checks channels that one expression names for several
// objects (l.doneC of two lessors): the close and the receive through
// the same expression order as one channel would.
package main

type lessor struct {
	stopC, doneC chan struct{}
	n            int
}

func newLessor() *lessor {
	l := &lessor{stopC: make(chan struct{}), doneC: make(chan struct{})}
	go l.run()
	return l
}

func (l *lessor) run() {
	defer close(l.doneC)
	l.n = 1
	<-l.stopC
}

// Stop closes stopC and waits for run to return: what run wrote is
// ordered before Stop returns.
func (l *lessor) Stop() {
	close(l.stopC)
	<-l.doneC
}

// The same shape, read before Stop: reported.
type worker struct {
	stopC, doneC chan struct{}
	n            int
}

func newWorker() *worker {
	w := &worker{stopC: make(chan struct{}), doneC: make(chan struct{})}
	go w.run()
	return w
}

func (w *worker) run() {
	defer close(w.doneC)
	w.n = 1 // want `data race on worker.n: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs read at main.go:\d+ \(main goroutine\)`
	<-w.stopC
}

func (w *worker) Stop() {
	close(w.stopC)
	<-w.doneC
}

func main() {
	a, b := newLessor(), newLessor()
	a.Stop()
	b.Stop()
	println(a.n, b.n) // silent "happens-before": after Stop

	c, d := newWorker(), newWorker()
	println(c.n) // before Stop
	c.Stop()
	d.Stop()
}
