package testobjects

import (
	"sync"
	"testing"
)

// TestPut gives its registry a node it made and writes it while the
// registry's goroutine may read it: reported.
func TestPut(t *testing.T) {
	r := newRegistry()
	n := &node{}
	r.put("a", n)
	r.in <- "a"
	n.port = 2 // want `data race on node.port: write at testobjects_test.go:\d+ \(test goroutine\) vs read at testobjects.go:\d+ \(goroutine started at testobjects.go:\d+\); locks held: \{\} vs \{r.mu\}`
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
		n++ // want `data race on n: write at testobjects_test.go:\d+ \(goroutine started at testobjects_test.go:\d+, in a loop\) vs write at testobjects_test.go:\d+ \(goroutine started at testobjects_test.go:\d+, in a loop\)`
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

// TestWatch starts the goroutine that reads a session, its own;
// TestLogin, which runs after it, writes the one newSession made for it,
// once it has sent it on a channel: silent.
func TestWatch(t *testing.T) {
	newSession().watch()
}

func TestLogin(t *testing.T) {
	s := newSession()
	logins := make(chan *session, 1)
	logins <- s
	s.user = "a" // silent "test-objects"
	<-logins
}

// TestWatchShared's goroutine reads the package's one session, which
// TestLoginShared writes after: reported.
func TestWatchShared(t *testing.T) {
	currentSession().watch()
}

func TestLoginShared(t *testing.T) {
	s := currentSession()
	s.user = "b" // want `data race on session.user`
}
