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
// is TestPut's, which TestLookup's registry never gets: silent.
func TestLookup(t *testing.T) {
	r := newRegistry()
	r.in <- "b"
	if n := r.lookup("b"); n != nil {
		println(n.addr) // silent "test-objects"
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
