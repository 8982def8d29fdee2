// Package evidence checks the evidence of sharing a race report needs
// by default (see "Evidence of sharing" in the manual), in each shape,
// and the pairs nothing shows to be shared, which are possible data
// races reported only with -all (TestAll runs it so).
package main

import (
	"net/http"
	"sync"
	"sync/atomic"
)

// Atomic on one side.
type stats struct{ hits int64 }

func atomicOneSide(s *stats, done chan bool) {
	go func() {
		atomic.AddInt64(&s.hits, 1) // want `data race on stats.hits: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs read`
		done <- true
	}()
	_ = s.hits
}

// Locked on one side: the method that writes holds the mutex, the one
// that reads forgot it. Between goroutines of a program the lock shows
// that the field is shared, not that the two reach one object: here the
// go statement hands c over (a library's concurrent methods need no
// more: package libmode).
type cache struct {
	mu sync.Mutex
	n  int
}

func (c *cache) inc() {
	c.mu.Lock()
	c.n++ // want `data race on cache.n: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs read at main.go:\d+ \(main goroutine\); locks held: \{c.mu\} vs \{\}`
	c.mu.Unlock()
}

func (c *cache) peek() int { return c.n }

func lockedOneSide(c *cache, done chan bool) {
	go func() {
		c.inc()
		done <- true
	}()
	_ = c.peek()
}

// A package-level variable.
var counter int

func global(done chan bool) {
	go func() {
		counter++ // want `data race on counter`
		done <- true
	}()
	counter++
}

// Handed to the goroutine by its go statement: an argument, and a
// variable two literals capture.
type job struct{ n int }

func handedArg(done chan bool) {
	j := &job{}
	go func(j *job) {
		j.n++ // want `data race on job.n`
		done <- true
	}(j)
	j.n++
}

func handedCaptured(done chan bool) {
	total := 0
	go func() {
		total++ // want `data race on total`
		done <- true
	}()
	go func() {
		total++
		done <- true
	}()
}

// A map written on both sides.
func mapBothSides(done chan bool) {
	m := map[int]int{}
	go func() {
		m[1] = 1 // want `concurrent map access`
		done <- true
	}()
	m[2] = 2
}

// A type documented as safe for concurrent use.

// Registry is safe for concurrent use by multiple goroutines.
type Registry struct {
	names []string
}

func (r *Registry) Add(name string) { r.names = append(r.names, name) } // want `concurrent append`

// The same documented type, written outside its methods by two
// goroutines three pointers down from what their go statements pass:
// the documentation speaks of its methods, not of whether the two
// reach one Registry: a possible data race.
type shelf struct{ r *Registry }
type rack struct{ s *shelf }
type room struct{ k *rack }

func relabel(o *room, done chan bool) {
	o.k.s.r.names = nil // silent "no-sharing-evidence"
	done <- true
}

func documentedDeep(done chan bool) {
	o := &room{k: &rack{s: &shelf{r: &Registry{}}}}
	go relabel(o, done)
	go relabel(o, done)
}

func documented(r *Registry, done chan bool) {
	go func() {
		r.Add("a")
		done <- true
	}()
	r.Add("b")
}

// Three pointers down from what the go statements pass, with no lock or
// atomic anywhere: a real race here, but on real code such a pair is as
// a rule two requests' objects that the analysis took for one, so it is
// a possible data race, reported with -all only.
type inner struct{ n int }
type mid2 struct{ in *inner }
type mid struct{ m2 *mid2 }
type outer struct{ m *mid }

func work(o *outer, done chan bool) {
	o.m.m2.in.n++ // silent "no-sharing-evidence"
	done <- true
}

func deep(done chan bool) {
	o := &outer{m: &mid{m2: &mid2{in: &inner{}}}}
	go work(o, done)
	go work(o, done)
}

// Inconsistent locking between two goroutines of the program, three
// pointers down from what their go statements pass: the lock says that
// tally.n is shared by some goroutines, not that these two reach one
// tally, so it is a possible data race.
type tally struct {
	mu sync.Mutex
	n  int
}
type box struct{ c *tally }
type box2 struct{ b *box }
type box3 struct{ b2 *box2 }

func bump(o *box3, done chan bool) {
	o.b2.b.c.mu.Lock()
	o.b2.b.c.n++ // silent "no-sharing-evidence"
	o.b2.b.c.mu.Unlock()
	done <- true
}

func look(o *box3, done chan bool) {
	_ = o.b2.b.c.n
	done <- true
}

func lockedDeep(done chan bool) {
	o := &box3{b2: &box2{b: &box{c: &tally{}}}}
	go bump(o, done)
	go look(o, done)
	// Both sides unlocked where a third access locks: the same.
	go func() {
		o.b2.b.c.n = 0 // silent "no-sharing-evidence"
		done <- true
	}()
}

// The same, reached through a variable a literal captures.
func deepCaptured(done chan bool) {
	o := &outer{m: &mid{m2: &mid2{in: &inner{}}}}
	for range 2 {
		go func() {
			o.m.m2.in.n-- // silent "no-sharing-evidence"
			done <- true
		}()
	}
}

// A buffer a sender goes on writing after it sent it: shared by the
// send, reported.
type buf struct{ n int }

func newBuf() *buf { return &buf{} }

func sendAndKeep(done chan bool) {
	ch := make(chan *buf)
	go func() {
		b := <-ch
		println(b.n)
		done <- true
	}()
	b := newBuf()
	ch <- b
	b.n = 1 // want `data race on buf.n: write at main.go:\d+ \(main goroutine\) vs read at main.go:\d+ \(goroutine started at main.go:\d+\)`
}

// The same with the send one call down, in enqueue: shared by the
// call, reported. A helper that sends the request and waits for its
// reply before it returns (call) hands it over and back: silent (a
// possible data race with -all).
func enqueue(ch chan *buf, b *buf) { ch <- b }

func sendAndKeepVia(done chan bool) {
	ch := make(chan *buf)
	go func() {
		b := <-ch
		println(b.n)
		done <- true
	}()
	b := newBuf()
	enqueue(ch, b)
	b.n = 2 // want `data race on buf.n: write at main.go:\d+ \(main goroutine\) vs read at main.go:\d+ \(goroutine started at main.go:\d+\)`
}

func call(reqs chan *request, req *request) error {
	reqs <- req
	return <-req.reply
}

func callAndKeep(done chan bool) {
	reqs := make(chan *request)
	go func() {
		serve(reqs)
		done <- true
	}()
	req := newRequest(make(chan struct{}))
	if call(reqs, req) != nil {
		return
	}
	println(req.index)
}

// A request sent with the channel its reply comes on: the sender waits
// for the reply before it reads the result again, in a method of the
// request that may instead see the server shut down (a future's Error).
// The reply hands the request back: no evidence of sharing, silent (a
// possible data race with -all: the shutdown case orders nothing).
type request struct {
	reply    chan error
	shutdown chan struct{}
	err      error
	index    int
	term     int
	seq      int
}

func (r *request) Error() error {
	select {
	case r.err = <-r.reply:
	case <-r.shutdown:
		r.err = errShutdown
	}
	return r.err
}

type shutdownError struct{}

func (shutdownError) Error() string { return "shut down" }

var errShutdown error = shutdownError{}

func newRequest(shutdown chan struct{}) *request {
	return &request{reply: make(chan error, 1), shutdown: shutdown}
}

func awaitReply(done chan bool) {
	reqs := make(chan *request)
	shutdown := make(chan struct{})
	go func() {
		serve(reqs)
		done <- true
	}()
	req := newRequest(shutdown)
	reqs <- req
	if req.Error() != nil {
		return
	}
	println(req.index)
	// The same, waiting on the reply channel itself, in a select.
	req2 := newRequest(shutdown)
	reqs <- req2
	select {
	case <-req2.reply:
	case <-shutdown:
		return
	}
	println(req2.term)
}

// A sender that reads the result without waiting for the reply: shared
// by the send, reported.
func skipReply(done chan bool) {
	reqs := make(chan *request)
	go func() {
		serve(reqs)
		done <- true
	}()
	req := newRequest(nil)
	reqs <- req
	println(req.seq)
}

// serve answers each request it receives.
func serve(reqs chan *request) {
	for req := range reqs {
		req.index = 7 // silent "no-sharing-evidence"
		req.term = 2  // silent "no-sharing-evidence"
		req.seq = 1   // want `data race on request.seq: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs read at main.go:\d+ \(main goroutine\)`
		req.reply <- nil
	}
}

// A batch goroutine answers each future it is handed with a send, and
// then closes it: the one producer of each future. Two batches meet on
// one future only through the analysis's merging of the futures the
// requests made: no evidence of sharing, silent (a possible data race
// with -all).
func answer(futures chan chan int, done chan bool) {
	for f := range futures {
		f <- 1
		close(f) // silent "no-sharing-evidence"
	}
	done <- true
}

func batches(done chan bool) {
	futures := make(chan chan int)
	go answer(futures, done)
	go answer(futures, done)
	for range 2 {
		f := make(chan int, 1)
		futures <- f
		<-f
	}
}

// The same in a method of the batch, which answers each future it
// holds and closes it (raft's respond): silent.
type future struct{ ch chan error }

type batch struct{ futures []*future }

func (b *batch) respond(err error) {
	for _, f := range b.futures {
		f.ch <- err
		close(f.ch) // silent "no-sharing-evidence"
	}
}

func flush(batches chan *batch, done chan bool) {
	for b := range batches {
		b.respond(nil)
	}
	done <- true
}

func flushes(done chan bool) {
	batches := make(chan *batch)
	go flush(batches, done)
	go flush(batches, done)
	for range 2 {
		f := &future{ch: make(chan error, 1)}
		batches <- &batch{futures: []*future{f}}
		<-f.ch
	}
}

// A channel one goroutine sends on while another closes it: reported.
func sendOne(ch chan int, done chan bool) {
	ch <- 1
	done <- true
}

func closeIt(ch chan int, done chan bool) {
	close(ch) // want `data race on a chan int: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs read at main.go:\d+ \(goroutine started at main.go:\d+\)`
	done <- true
}

func closeWhileSending(done chan bool) {
	ch := make(chan int, 1)
	go sendOne(ch, done)
	go closeIt(ch, done)
}

// Each consumer fills the buffer it received: the sends hand each its
// own, though the analysis takes every buffer for one: silent.
func consume(ch chan *buf, done chan bool) {
	b := <-ch
	b.n = 3 // silent "no-sharing-evidence"
	done <- true
}

func consumed(done chan bool) {
	ch := make(chan *buf)
	go consume(ch, done)
	go consume(ch, done)
	ch <- newBuf()
	ch <- newBuf()
}

// Each goroutine of a go statement in a loop is handed what its own
// iteration made: a constructor called in the loop body makes a new
// session each time, which the analysis takes for one. The handing is
// no evidence: silent.
type session struct{ seen int }

func newSession() *session { return &session{} }

func perIteration(done chan bool) {
	for range 2 {
		s := newSession()
		go func(s *session) {
			s.seen++ // silent "no-sharing-evidence"
			done <- true
		}(s)
	}
}

// The same made one call further down, reached through a variable the
// literal captures.
type wrapper struct{ s *session }

func newWrapper() *wrapper { return &wrapper{s: newSession()} }

func perIterationCaptured(done chan bool) {
	for i := 0; i < 2; i++ {
		w := newWrapper()
		go func() {
			w.s.seen-- // silent "no-sharing-evidence"
			done <- true
		}()
	}
}

// Its twin: one session, made before the loop, handed to every
// goroutine: reported.
func sharedAcrossIterations(done chan bool) {
	s := newSession()
	for range 2 {
		go func(s *session) {
			s.seen += 2 // want `data race on session.seen`
			done <- true
		}(s)
	}
}

// A method that registers a new pump, fills it and then starts its
// goroutine on it, called twice: the analysis takes the pumps for one,
// and the second call's filling, which follows the first call's go
// statement, for a write to the first pump. Each call makes
// its own: the handing shows no sharing; silent, directly and one call
// down.
type pump struct{ rate, burst int }

type pumps struct {
	mu  sync.Mutex
	all []*pump
}

func (p *pump) setRate(r int) {
	p.rate = r // silent "no-sharing-evidence"
}

func (ps *pumps) start(rate int, done chan bool) {
	p := &pump{}
	ps.mu.Lock()
	ps.all = append(ps.all, p)
	ps.mu.Unlock()
	p.setRate(rate)
	p.burst = 2 * rate // silent "no-sharing-evidence"
	go func() {
		println(p.rate, p.burst)
		done <- true
	}()
}

// Its twin writes after its go statement: reported.
func (ps *pumps) startLate(rate int, done chan bool) {
	p := &pump{}
	ps.mu.Lock()
	ps.all = append(ps.all, p)
	ps.mu.Unlock()
	go func() {
		println(p.burst)
		done <- true
	}()
	p.burst = rate // want `data race on pump.burst`
}

// The same one goroutine further: a helper called twice makes a watch
// set, registers it, fills it, and starts a goroutine that starts the
// watcher on it (a literal, or a method that starts the loop). Each
// call's watcher reads the set its own call made, which the next call's
// filling, taken by the analysis for a write to the first set, does not
// touch: the handing shows no sharing, silent. Its twin fills after its
// go statement: reported.
type watchSet struct{ chans, limit int }

type watchers struct {
	mu  sync.Mutex
	all []*watchSet
}

func (ws *watchers) register() *watchSet {
	w := &watchSet{}
	ws.mu.Lock()
	ws.all = append(ws.all, w)
	ws.mu.Unlock()
	return w
}

func (w *watchSet) add(n int) {
	w.chans = n // silent "no-sharing-evidence"
}

func (ws *watchers) watch(n int, done chan bool) {
	w := ws.register()
	w.add(n)
	w.limit = n // silent "no-sharing-evidence"
	go func() {
		go func() {
			println(w.chans, w.limit)
			done <- true
		}()
	}()
}

func (w *watchSet) run(done chan bool) { go w.loop(done) }

func (w *watchSet) loop(done chan bool) {
	println(w.chans, w.limit)
	done <- true
}

func (ws *watchers) watchByMethod(n int, done chan bool) {
	w := ws.register()
	w.chans = n // silent "no-sharing-evidence"
	go w.run(done)
}

func (ws *watchers) watchLate(n int, done chan bool) {
	w := ws.register()
	go func() {
		go func() {
			println(w.limit)
			done <- true
		}()
	}()
	w.limit = n // want `data race on watchSet.limit`
}

// A meter is filled by start before its goroutine, as a pump is, and
// set again later by retune under the registry's mutex, which the
// goroutine holds too: the same write reached through retune holds a
// lock the other side holds, and is not the pair's. The fill of the
// next meter, which the analysis takes for the first one's (made three
// calls down from main, from one place), is still no sharing: silent.
// Its twin sets after its go statement: reported.
type meter struct{ level, peak int }

func (m *meter) set(l int) {
	m.level = l // silent "no-sharing-evidence"
}

func (m *meter) bump(l int) {
	m.peak = l // want `data race on meter.peak`
}

type meters struct {
	mu  sync.Mutex
	all []*meter
}

func (ms *meters) retune(m *meter, l int) {
	ms.mu.Lock()
	m.set(l)
	m.bump(l)
	ms.mu.Unlock()
}

func (ms *meters) start(l int, done chan bool) *meter {
	m := &meter{}
	ms.mu.Lock()
	ms.all = append(ms.all, m)
	ms.mu.Unlock()
	m.set(l)
	go func() {
		ms.mu.Lock()
		m.level++
		m.peak++
		ms.mu.Unlock()
		done <- true
	}()
	m.bump(l)
	return m
}

func (ms *meters) open(l int, done chan bool) *meter { return ms.start(l, done) }

func (ms *meters) reopen(l int, done chan bool) *meter { return ms.open(l, done) }

func startMeters(done chan bool) {
	ms := &meters{}
	m := ms.reopen(1, done)
	ms.retune(m, 3)
	ms.reopen(2, done)
}

func startPumps(done chan bool) {
	ps := &pumps{}
	ps.start(1, done)
	ps.start(2, done)
	ps.startLate(1, done)
	ps.startLate(2, done)
	ws := &watchers{}
	ws.watch(1, done)
	ws.watch(2, done)
	ws.watchByMethod(1, done)
	ws.watchByMethod(2, done)
	ws.watchLate(1, done)
	ws.watchLate(2, done)
}

// A package-level variable that keeps the last request made: the
// requests the goroutines make are one object to the analysis (one
// place in net/http makes them), and the variable that holds one of
// them seems to hold them all; each goroutine's request is its own. A
// possible data race (with -all); the variable itself, written by every
// goroutine, is one object, reported.
var lastRequest *http.Request

func runRequest(done chan bool) {
	req, _ := http.NewRequest("GET", "http://example.com", nil)
	lastRequest = req        // want `data race on lastRequest`
	req.Header.Set("X", "1") // silent "no-sharing-evidence"
	done <- true
}

// The same through a field of a package-level struct, set under its
// mutex: silent (a possible data race with -all).
var recent struct {
	mu   sync.Mutex
	last *http.Request
}

func runRecorded(done chan bool) {
	req, _ := http.NewRequest("GET", "http://example.com", nil)
	recent.mu.Lock()
	recent.last = req
	recent.mu.Unlock()
	req.Header.Add("Y", "2") // silent "no-sharing-evidence"
	done <- true
}

// An object of the package's making that a package-level variable
// holds is one object of the program where only the package's
// initialization makes it: the goroutines that read the variable share
// it (reported). Where other code calls the same constructor too, each
// goroutine's session is its own, and the variable that keeps the last
// one seems, to the pointer analysis, to keep them all: silent (a
// possible data race with -all).
type registry struct{ n int }
type server struct{ reg *registry }

func newRegistry() *registry { return &registry{} }

var (
	reg = newRegistry()
	srv = &server{reg: newRegistry2()}
)

func newRegistry2() *registry { return &registry{} }

func register(done chan bool) {
	r := reg
	r.n++ // want `data race on registry.n`
	done <- true
}

func registerVia(done chan bool) {
	s := srv
	s.reg.n-- // want `data race on registry.n`
	done <- true
}

func heldByInit(done chan bool) {
	go register(done)
	go register(done)
	go registerVia(done)
	go registerVia(done)
}

func heldByVariable(done chan bool) {
	go runRequest(done)
	go runRequest(done)
	go runRecorded(done)
	go runRecorded(done)
}

func main() {
	done := make(chan bool, 32)
	heldByVariable(done)
	heldByInit(done)
	startPumps(done)
	startMeters(done)
	perIteration(done)
	perIterationCaptured(done)
	sharedAcrossIterations(done)
	sendAndKeep(done)
	sendAndKeepVia(done)
	callAndKeep(done)
	awaitReply(done)
	batches(done)
	flushes(done)
	closeWhileSending(done)
	skipReply(done)
	consumed(done)
	atomicOneSide(&stats{}, done)
	lockedOneSide(&cache{}, done)
	global(done)
	handedArg(done)
	handedCaptured(done)
	mapBothSides(done)
	documented(&Registry{}, done)
	documentedDeep(done)
	deep(done)
	deepCaptured(done)
	lockedDeep(done)
	nodes(done)
}
