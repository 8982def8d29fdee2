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
