package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestPeakProfile checks that the profile written is the one of the
// largest live heap: 64 MiB kept across collections, then let go, and
// the profile still holds them.
func TestPeakProfile(t *testing.T) {
	p := startPeakProfile()
	live := make([][]byte, 64)
	for i := range live {
		live[i] = make([]byte, 1<<20)
	}
	// Collections until the profile of the peak is taken: the
	// finalizer that sees each one runs when the runtime gets to it.
	deadline := time.Now().Add(2 * time.Minute) // a bound on a failure, not a timing
	for {
		runtime.GC()
		p.mu.Lock()
		peak := p.live
		p.mu.Unlock()
		if peak >= 64<<20 {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("no profile of the peak after 2 minutes of collections with 64 MiB live")
		}
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(live)
	live = nil
	for range 3 {
		runtime.GC()
	}
	file := filepath.Join(t.TempDir(), "mem.prof")
	var stderr bytes.Buffer
	p.write(file, &stderr)
	var mb int
	if _, err := fmt.Sscanf(stderr.String(), "origo: heap profile of the peak, %d MB live", &mb); err != nil || mb < 64 {
		t.Errorf("stderr %q; want the line that says where the profile is, of a peak of 64 MB live or more", stderr.String())
	}
	// The profile names the function that allocated each sample: this
	// test, for the 64 MiB.
	if data := readProfile(t, file); !bytes.Contains(data, []byte("TestPeakProfile")) {
		t.Errorf("the profile does not show TestPeakProfile's 64 MiB")
	}
}

// TestMemProfileFlag checks that origo -memprofile writes a heap profile
// and changes nothing else: the demo's findings and exit code.
func TestMemProfileFlag(t *testing.T) {
	t.Parallel()
	functional(t)
	demo, err := filepath.Abs("../../testdata/demo")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "mem.prof")
	stdout, stderr, code := run(t, demo, "-memprofile", file, ".")
	if code != exitFindings || !strings.Contains(stdout, "data race on Bank.processed") || !strings.Contains(stdout, "double lock") {
		t.Errorf("origo -memprofile on the demo: exit %d, stdout %q; want %d and the race and the deadlock", code, stdout, exitFindings)
	}
	if !strings.Contains(stderr, "origo: heap profile of the peak, ") {
		t.Errorf("stderr %q; want the line that says where the profile is", stderr)
	}
	if data := readProfile(t, file); !bytes.Contains(data, []byte("go/types")) {
		t.Errorf("the profile shows no type-checking; is it a heap profile?")
	}
}

// readProfile returns the uncompressed bytes of a pprof profile.
func readProfile(t *testing.T, file string) []byte {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s is not a pprof profile: %v", file, err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s is not a pprof profile: %v", file, err)
	}
	return data
}
