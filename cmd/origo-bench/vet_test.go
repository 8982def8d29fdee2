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

// TestVetxSizes splits a unitchecker's output file into its facts and
// its type information, and takes any other file for facts alone.
func TestVetxSizes(t *testing.T) {
	file := append([]byte("vetx\x03\x00\x00\x00\x02\x00\x00\x00"), "TTTFF"...)
	if facts, types := vetxSizes(file); facts != 2 || types != 3 {
		t.Errorf("vetxSizes(header 3+2) = %d facts, %d types; want 2, 3", facts, types)
	}
	if facts, types := vetxSizes([]byte("gob bytes")); facts != 9 || types != 0 {
		t.Errorf("vetxSizes(plain) = %d facts, %d types; want 9, 0", facts, types)
	}
	if facts, types := vetxSizes(file[:14]); facts != 14 || types != 0 {
		t.Errorf("vetxSizes(short) = %d facts, %d types; want 14, 0", facts, types)
	}
}
