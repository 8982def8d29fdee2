package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestFollowLiveHeap checks that the soft memory limit follows the live
// heap up past its floor, so that a package whose analysis keeps more
// than the floor live does not collect without pause.
func TestFollowLiveHeap(t *testing.T) {
	const floor = 1 << 20
	old := debug.SetMemoryLimit(floor) // as tuneGC sets it
	defer debug.SetMemoryLimit(old)
	stop := followLiveHeap(floor, 0.5)
	defer stop()
	live := make([][]byte, 64) // 64 MiB kept live across the collections
	for i := range live {
		live[i] = make([]byte, 1<<20)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		if limit := debug.SetMemoryLimit(-1); limit >= 64<<20*3/2 {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("limit %d MiB with 64 MiB live; want at least 96 MiB", limit>>20)
		}
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(live)
}
