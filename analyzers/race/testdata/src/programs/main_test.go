package main

import "testing"

func TestRun(t *testing.T) { run() }

// TestOther writes a counter main reads: the test binary never runs
// main, so the write and main's read never meet.
func TestOther(t *testing.T) {
	guarded = 0 // silent "other-program"
}
