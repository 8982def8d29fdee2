package main

import "testing"

// TestTable, a parallel test, runs a subtest without t.Parallel per
// row: t.Run returns when it has, so the next row's write comes after
// the subtest's read.
func TestTable(t *testing.T) {
	t.Parallel()
	var tt struct{ in string }
	for _, in := range []string{"a", "b"} {
		tt.in = in // silent "joined-per-iteration"
		t.Run(in, func(t *testing.T) {
			if tt.in == "" {
				t.Error("empty")
			}
		})
	}
}

// withHelper runs its callback, as a helper that sets something up for
// it does.
func withHelper(t *testing.T, f func()) {
	t.Helper()
	f()
}

// TestTableHelper's subtest gives a helper a callback that starts a
// goroutine reading the row and waits for what it sends last: t.Run
// returns after the subtest, which waited for the goroutine, so the
// next row's write comes after the read.
func TestTableHelper(t *testing.T) {
	var row struct{ in string }
	for _, in := range []string{"a", "b"} {
		row.in = in // silent "joined-per-iteration"
		t.Run(in, func(t *testing.T) {
			withHelper(t, func() {
				done := make(chan bool)
				go func() {
					defer func() { done <- true }()
					println(row.in)
				}()
				<-done
			})
		})
	}
}

// The same, but the callback leaves its goroutine running: the next
// row's write may come while it reads. Reported.
func TestTableHelperLeft(t *testing.T) {
	var row struct{ in string }
	for _, in := range []string{"a", "b"} {
		row.in = in // want `data race on row.in`
		t.Run(in, func(t *testing.T) {
			withHelper(t, func() {
				go func() { println(row.in) }()
			})
		})
	}
}
