package main

import "context"

// node serves status requests in a loop until it is told to stop.
type node struct {
	status chan chan int
	stop   chan struct{}
}

func newNode() *node {
	return &node{status: make(chan chan int), stop: make(chan struct{})}
}

func (n *node) run() {
	for {
		select {
		case c := <-n.status:
			c <- 1
		case <-n.stop:
			return
		}
	}
}

func (n *node) Status() int {
	c := make(chan int)
	n.status <- c // want `send blocks forever once its receiver has returned: goroutine started at gone.go:\d+ sends on n.status \(made at gone.go:\d+, unbuffered\), whose only receiver, goroutine started at gone.go:\d+, receives in a loop that it may leave \(when it receives from n.stop\) and return at gone.go:\d+`
	return <-c
}

func (n *node) Stop() { n.stop <- struct{}{} }

// statusRace asks for the status while another goroutine stops the
// node: the request may come after run returned.
func statusRace() {
	n := newNode()
	go n.run()
	go n.Status()
	go n.Stop()
}

// guardedNode's requests select on stop too: silent.
type guardedNode struct {
	status chan chan int
	stop   chan struct{}
}

func (n *guardedNode) run() {
	for {
		select {
		case c := <-n.status:
			c <- 1
		case <-n.stop:
			return
		}
	}
}

func (n *guardedNode) Status() int {
	c := make(chan int, 1)
	select { // silent "other-case"
	case n.status <- c:
		return <-c
	case <-n.stop:
		return 0
	}
}

func statusGuarded() {
	n := &guardedNode{status: make(chan chan int), stop: make(chan struct{})}
	go n.run()
	go n.Status()
	go func() { close(n.stop) }()
}

// orderedNode is asked before it is stopped, by the same goroutine:
// silent.
type orderedNode struct {
	status chan chan int
	stop   chan struct{}
}

func (n *orderedNode) run() {
	for {
		select {
		case c := <-n.status:
			c <- 1
		case <-n.stop:
			return
		}
	}
}

func (n *orderedNode) Status() int {
	c := make(chan int)
	n.status <- c // silent "happens-before"
	return <-c
}

func statusThenStop() {
	n := &orderedNode{status: make(chan chan int), stop: make(chan struct{})}
	go n.run()
	n.Status()
	go func() { n.stop <- struct{}{} }()
}

// agent's loop returns once no epoch is active: a later epoch's report
// has no receiver.
type agent struct {
	statusCh chan int
	active   int
}

func (a *agent) Run() {
	for {
		n := <-a.statusCh
		a.active -= n
		if a.active == 0 {
			return
		}
	}
}

func (a *agent) report(epoch int) {
	a.statusCh <- epoch // want `send blocks forever once its receiver has returned: .* receives in a loop that it may leave \(on a value it received\)`
}

func restarts() {
	a := &agent{statusCh: make(chan int), active: 1}
	go a.Run()
	go a.report(1)
	go a.report(2)
}

// wrappedAgent's loop runs in a function its goroutine calls: the same.
type wrappedAgent struct {
	statusCh chan int
	active   int
}

func (a *wrappedAgent) Run() {
	for {
		n := <-a.statusCh
		a.active -= n
		if a.active == 0 {
			return
		}
	}
}

func (a *wrappedAgent) report(epoch int) {
	a.statusCh <- epoch // want `send blocks forever once its receiver has returned: .* receives in a loop that it may leave \(on a value it received\)`
}

func restartsWrapped() {
	a := &wrappedAgent{statusCh: make(chan int), active: 1}
	go func() { a.Run() }()
	go a.report(1)
	go a.report(2)
}

// firstBad ranges over in but returns at the first bad value: the other
// producers' sends after that have no receiver (and nothing closes in).
func firstBad(in chan int) {
	for v := range in { // want `range over channel blocks forever: goroutine started at gone.go:\d+ ranges over in`
		if v < 0 {
			return
		}
	}
}

func produceAll() {
	in := make(chan int)
	go firstBad(in)
	for i := range 3 {
		go func() {
			in <- i // want `send blocks forever once its receiver has returned: .* receives in a loop that it may leave \(on a value it received\)`
		}()
	}
}

// watchAll's watchers each send on out, which its consumer may stop
// receiving; each closes its running channel after, and watchAll waits
// for every one (reported). The consumer's range, whose closer is
// watchAll, is not left stuck by that: it is the one that left (silent).
type watch struct{ running chan struct{} }

func watchAll() {
	out := make(chan int)
	go func() {
		for v := range out { // silent "happens-before"
			if v < 0 {
				return
			}
		}
	}()
	var ws []*watch
	for i := range 2 {
		w := &watch{running: make(chan struct{})}
		ws = append(ws, w)
		go func() {
			defer close(w.running)
			out <- i // want `send blocks forever once its receiver has returned`
		}()
	}
	for _, w := range ws {
		<-w.running // sequel `receive blocks forever: goroutine started at gone.go:\d+ receives from the channel \(made at gone.go:\d+\), but every goroutine that sends on or closes it may block forever before it does`
	}
	close(out)
}

// scatter sends 8 times on a buffer of 6; restore takes one value and
// may return on ctx.Done(): the last sends have no receiver.
func restore(ctx context.Context) int {
	ready := make(chan int, 6)
	go func() {
		defer close(ready)
		scatter(ready)
	}()
	for v := range ready {
		<-ctx.Done()
		return v
	}
	return 0
}

func scatter(out chan int) {
	for i := 0; i < 8; i++ {
		out <- i // want `send blocks forever once its receiver has returned: goroutine started at gone.go:\d+ sends on out \(made at gone.go:\d+, a buffer of 6, and the loop around it sends 8 times\), whose only receiver, goroutine started at gone.go:\d+, receives once and may then return`
	}
}

// restoreFits' sends fit the buffer: silent.
func restoreFits(ctx context.Context) int {
	ready := make(chan int, 6)
	go func() {
		defer close(ready)
		scatterFew(ready)
	}()
	for v := range ready {
		<-ctx.Done()
		return v
	}
	return 0
}

func scatterFew(out chan int) {
	for i := 0; i < 6; i++ {
		out <- i // silent "buffered"
	}
}

// drainer leaves its loop only when the channel is closed: a send after
// that panics rather than blocks (silent).
func drainer(in chan int) {
	for v := range in {
		_ = v
	}
}

func drained() {
	in := make(chan int)
	go drainer(in)
	go func() { in <- 1 }() // silent "closed-send"
	go func() { close(in) }()
}

// idleNode is never stopped: nothing runs its Stop, so its loop never
// leaves (silent).
type idleNode struct{ ch, stop chan int }

func (n *idleNode) run() {
	for {
		select {
		case <-n.ch:
		case <-n.stop:
			return
		}
	}
}

func (n *idleNode) Stop() { close(n.stop) }

func neverStopped() {
	n := &idleNode{ch: make(chan int), stop: make(chan int)}
	go n.run()
	go func() { n.ch <- 1 }() // silent "never-runs"
}

// conn's loop calls back into Close on a message, and Close waits for
// the loop to stop: the loop waits for itself.
type conn struct {
	inbox   chan int
	stopped chan struct{}
	closed  chan struct{}
	onMsg   func()
}

func (c *conn) loop() {
	defer close(c.stopped)
	for {
		select {
		case <-c.inbox:
			c.onMsg()
		case <-c.closed:
			return
		}
	}
}

func (c *conn) Close() {
	close(c.closed)
	<-c.stopped // want `receive blocks forever: goroutine started at gone.go:\d+ receives from c.stopped \(made at gone.go:\d+\), which only it sends on or closes, later \(at gone.go:\d+\): it waits for itself`
}

func selfClose() {
	c := &conn{inbox: make(chan int), stopped: make(chan struct{}), closed: make(chan struct{})}
	c.onMsg = c.Close
	go c.loop()
	c.inbox <- 1
}

// peer is closed from outside its loop: silent.
type peer struct {
	inbox   chan int
	stopped chan struct{}
	closed  chan struct{}
}

func (p *peer) loop() {
	defer close(p.stopped)
	for {
		select {
		case <-p.inbox:
		case <-p.closed:
			return
		}
	}
}

func (p *peer) Close() {
	close(p.closed)
	<-p.stopped // silent "partner"
}

func closeOutside() {
	p := &peer{inbox: make(chan int), stopped: make(chan struct{}), closed: make(chan struct{})}
	go p.loop()
	p.inbox <- 1
	p.Close()
}

func init() {
	go restore(context.Background())
	go restoreFits(context.Background())
	go watchAll()
	go produceAll()
	go restartsWrapped()
	go selfClose()
	go closeOutside()
	go neverStopped()
	go statusRace()
	go statusGuarded()
	go statusThenStop()
	go restarts()
	go drained()
}
