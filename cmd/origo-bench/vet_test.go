package main

import "testing"

func TestCrashed(t *testing.T) {
	for out, want := range map[string]bool{
		"x.go:1:2: data race on fakeStmt.panic: write at x.go:1":  false,
		"panic: runtime error: index out of range\n\ngoroutine 1": true,
		"origo: internal error in shb on package p: boom":         true,
		"": false,
	} {
		if got := crashed(out); got != want {
			t.Errorf("crashed(%q) = %v, want %v", out, got, want)
		}
	}
}
