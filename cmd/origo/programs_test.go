package main

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestProgramsMainAndTest checks a package main whose test calls the
// same function as main: its race and its deadlock are reported once
// each (the deadlock's other goroutine is a related position), under go vet and standalone, with its test and without: the
// test binary's goroutines are never paired with main's (see
// pointer.Origin.SameProgram).
func TestProgramsMainAndTest(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs("../../testdata/programs")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"main.go:22:31: data race on racy: write at main.go:22 (goroutine started at main.go:22) vs write at main.go:23 (goroutine started at main.go:23); locks held: {} vs {}",
		"main.go:27:9: lock order inversion: b is locked at main.go:27 while holding a (goroutine started at main.go:24), and the same two mutexes are taken in the opposite order at main.go:34 (goroutine started at main.go:31); the two goroutines can deadlock",
	}
	vetOut, vetErr, code := runCmd(t, exec.Command("go", "vet", "-vettool="+origoBin, "-json", "."), dir)
	if code != 0 {
		t.Fatalf("go vet exited %d:\n%s", code, vetOut+vetErr)
	}
	for name, got := range map[string][]string{
		"go vet":              findings(t, dir, vetOut+vetErr),
		"origo":               standaloneFindings(t, dir, "-json", "."),
		"origo with no tests": standaloneFindings(t, dir, "-json", "-test=false", "."),
	} {
		if !slices.Equal(got, want) {
			t.Errorf("%s reports:\n%s\nwant:\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

func standaloneFindings(t *testing.T, dir string, args ...string) []string {
	out, stderr, _ := run(t, dir, args...)
	if stderr != "" {
		t.Fatalf("origo %s wrote to stderr:\n%s", strings.Join(args, " "), stderr)
	}
	return findings(t, dir, out)
}

// TestWhy checks origo why on a line whose reads are ordered after the
// writes in each program, and never meet the other program's writes.
func TestWhy(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs("../../testdata/programs")
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, code := run(t, dir, "why", "main.go:48", ".")
	if code != exitClean {
		t.Fatalf("origo why exited %d:\n%s%s", code, out, stderr)
	}
	for _, want := range []string{
		"main.go:48:14: why: racy: read at main.go:48 (main goroutine, in main's program) vs write at main.go:22 (goroutine started at main.go:22, in main's program): ruled out by happens-before",
		"main.go:48:14: why: racy: read at main.go:48 (main goroutine, in main's program) vs write at main.go:22 (goroutine started at main.go:22, in the test binary): ruled out by other-program",
		"main.go:48:14: why: racy: read at main.go:48 (test goroutine, in the test binary) vs write at main.go:22 (goroutine started at main.go:22, in the test binary): ruled out by happens-before",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("origo why lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, ": reported") {
		t.Errorf("origo why reports a candidate on a line with no race:\n%s", out)
	}
	if _, stderr, code := run(t, dir, "why", "main.go", "."); code != exitUsage || !strings.Contains(stderr, "FILE:LINE") {
		t.Errorf("origo why main.go: exit %d, stderr %q; want a usage error", code, stderr)
	}
}
