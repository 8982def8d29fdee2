package degradedtests

import (
	"sync"
	"testing"
)

// TestPut gives its registry a node it made and writes it while the
// registry's goroutine may read it (reported in testobjects).
func TestPut(t *testing.T) {
	r := newRegistry()
	n := &node{}
	r.put("a", n)
	r.in <- "a"
	n.port = 2 // with one context, the registries' channels are one, and their sends and receives order this pair: a miss of the degraded analysis
}

// TestLookup reads what its own registry holds: the node TestPut made
// is TestPut's, which TestLookup's registry never gets: silent. With one
// context every test's registry channel is one, whose sends and receives
// order the pair before test-objects is asked.
func TestLookup(t *testing.T) {
	r := newRegistry()
	r.in <- "b"
	if n := r.lookup("b"); n != nil {
		println(n.addr) // silent "happens-before"
	}
}

// TestHashCount's hash function counts its calls on the test's own
// goroutine; the goroutines of TestParallelGets call their own cache's
// function: silent.
func TestHashCount(t *testing.T) {
	calls := 0
	c := newCache(func(k string) int {
		calls++ // silent "test-objects"
		return len(k)
	})
	c.get("a")
	if calls != 1 {
		t.Error("hash not called")
	}
}

// TestParallelGets's own hash function counts its calls from two
// goroutines at once: reported.
func TestParallelGets(t *testing.T) {
	n := 0
	c := newCache(func(k string) int {
		n++ // want `data race on n: write at degradedtests_test.go:\d+ \(goroutine started at degradedtests_test.go:\d+, in a loop\) vs write at degradedtests_test.go:\d+ \(goroutine started at degradedtests_test.go:\d+, in a loop\)`
		return len(k)
	})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.get("x")
		}()
	}
	wg.Wait()
}

// TestStartEarly starts a worker of its own and leaves its goroutine
// running.
func TestStartEarly(t *testing.T) {
	w := &worker{done: make(chan struct{})}
	go w.watch()
	w.start()
}

// TestStart makes a worker once, hands it to a watcher and starts it
// through an interface: what start writes, directly and one call down in
// prepare, its go statement orders before the goroutine's read. With one
// context, start runs for every test that starts a worker; the walk
// follows the receiver of the interface call back to the worker the
// interface value was made of, TestStart's, and so finds the goroutine
// its go statement starts there. Silent.
func TestStart(t *testing.T) {
	w := &worker{done: make(chan struct{})}
	go w.watch()
	var s starter = w
	s.start()
	<-w.done
}

type starter interface{ start() }

// TestStartRacy's own goroutine writes the worker TestStartRacy made,
// while the test reads it: both sides are the test's code. Reported.
func TestStartRacy(t *testing.T) {
	w := &worker{done: make(chan struct{})}
	go func() {
		w.state = 3 // want `data race on worker.state: write at degradedtests_test.go:\d+ \(goroutine started at degradedtests_test.go:\d+\) vs read at degradedtests_test.go:\d+ \(test goroutine\)`
		close(w.done)
	}()
	println(w.state)
	<-w.done
}

// TestLoad starts enough goroutines, each making objects of its own, to
// pass the node limit TestDegraded sets: the package is analyzed with
// one context for all goroutines.
func TestLoad(t *testing.T) {
	go func() { sink(&node{addr: "0"}, newRegistry(), newCache(nil)) }()
	go func() { sink(&node{addr: "1"}, newRegistry(), newCache(nil)) }()
	go func() { sink(&node{addr: "2"}, newRegistry(), newCache(nil)) }()
	go func() { sink(&node{addr: "3"}, newRegistry(), newCache(nil)) }()
	go func() { sink(&node{addr: "4"}, newRegistry(), newCache(nil)) }()
	go func() { sink(&node{addr: "5"}, newRegistry(), newCache(nil)) }()
	go func() { sink(&node{addr: "6"}, newRegistry(), newCache(nil)) }()
	go func() { sink(&node{addr: "7"}, newRegistry(), newCache(nil)) }()
	go func() { sink(&node{addr: "8"}, newRegistry(), newCache(nil)) }()
	go func() { sink(&node{addr: "9"}, newRegistry(), newCache(nil)) }()
	go func() { sink(&node{addr: "10"}, newRegistry(), newCache(nil)) }()
	go func() { sink(&node{addr: "11"}, newRegistry(), newCache(nil)) }()
	go func() { sink(&node{addr: "12"}, newRegistry(), newCache(nil)) }()
	go func() { sink(&node{addr: "13"}, newRegistry(), newCache(nil)) }()
	go func() { sink(&node{addr: "14"}, newRegistry(), newCache(nil)) }()
	go func() { sink(&node{addr: "15"}, newRegistry(), newCache(nil)) }()
}

func sink(...any) {}

// A worker's start writes its state and then starts the goroutine that
// reads it: the go statement orders the two, on every worker. With one
// context, the loop's goroutine gets as parent the first root found to
// run start (TestLoad's goroutines), not the test that made the worker.
type worker struct {
	state int
	gen   int
	done  chan struct{}
}

func (w *worker) start() {
	w.gen++ // silent "happens-before"
	w.prepare()
	go w.loop()
}

func (w *worker) prepare() {
	w.state = 1 // silent "happens-before"
}

func (w *worker) watch() { <-w.done }

func (w *worker) loop() {
	println(w.state, w.gen)
	close(w.done)
}
