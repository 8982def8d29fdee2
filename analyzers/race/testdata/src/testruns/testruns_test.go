package testruns

import "testing"

// Each test makes its own server and writes it before start's go
// statement: silent, though TestA's goroutine may still run in TestB.
func TestA(t *testing.T) {
	s := &server{}
	s.start()
}

func TestB(t *testing.T) {
	s := &server{}
	s.start()
}

// A write after the goroutine started, in the same test: reported.
func TestC(t *testing.T) {
	s := &server{}
	s.start()
	s.cfg = 2 // want `data race on server.cfg: write at testruns_test.go:\d+ \(test goroutine\) vs read at testruns.go:\d+ \(goroutine started at testruns.go:\d+\)`
}

// A cache made by package initialization is every test's: the
// goroutine TestD leaves running races with TestE's write.
var shared = &cache{}

func TestD(t *testing.T) {
	shared.start()
}

func TestE(t *testing.T) {
	shared.size = 3 // want `data race on cache.size: write at testruns_test.go:\d+ \(test goroutine\) vs read at testruns.go:\d+ \(goroutine started at testruns.go:\d+\)`
}
