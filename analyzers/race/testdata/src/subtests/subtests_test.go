// Package subtests checks t.Run: subtests without t.Parallel run one at
// a time, even in a loop; parallel subtests run together.
package subtests

import "testing"

type state struct{ cur int }

func TestSequential(t *testing.T) {
	var s state
	for i := range 3 {
		t.Run("case", func(t *testing.T) {
			s.cur = i
		})
	}
	_ = s.cur
}

func TestParallel(t *testing.T) {
	var s state
	for i := range 3 {
		t.Run("case", func(t *testing.T) {
			t.Parallel()
			s.cur = i // want `data race on s.cur`
		})
	}
}
