package main

import "testing"

// Each parallel subtest copies c before t.Parallel, and t.Run returns
// only once the subtest calls t.Parallel: the copy is made before the
// loop assigns c again. Silent (subtests-wait).
func TestCopiedBeforeParallel(t *testing.T) {
	for _, c := range []int{1, 2, 3} {
		t.Run("case", func(t *testing.T) {
			c := c
			t.Parallel()
			use(c)
		})
	}
}

// This subtest reads c after t.Parallel, when the loop has moved on.
// Reported, with the copy as the fix.
func TestReadAfterParallel(t *testing.T) {
	for _, c := range []int{1, 2, 3} { // want `captured loop variable: data race on c`
		t.Run("case", func(t *testing.T) {
			t.Parallel()
			use(c)
		})
	}
}
