package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"
)

// peakProfile keeps a heap profile of the moment the live heap was
// largest: after each collection that finds more live than any before,
// it records a profile in memory at the next one (a heap profile shows
// the heap of a collection or two before), and write saves the last.
// The standalone command's peak is seldom at its end, where every
// package's syntax and SSA are gone: on client_golang ./..., 800 MB
// live at the peak, 110 MB at the end.
type peakProfile struct {
	stopped atomic.Bool
	wake    chan int64 // the live bytes of a new peak

	mu   sync.Mutex
	live int64 // the peak's live bytes
	prof []byte
	done chan struct{}
}

// startPeakProfile starts keeping the profile of the peak.
func startPeakProfile() *peakProfile {
	p := &peakProfile{wake: make(chan int64, 1), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		for live := range p.wake {
			var buf bytes.Buffer
			if err := pprof.Lookup("heap").WriteTo(&buf, 0); err == nil {
				p.mu.Lock()
				p.live, p.prof = live, buf.Bytes()
				p.mu.Unlock()
			}
		}
	}()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var peak, pending int64 // the largest live heap, and one not profiled yet
	var arm func()
	arm = func() {
		runtime.SetFinalizer(new(gcSentinel), func(*gcSentinel) {
			if pending > 0 {
				// A heap profile is that of an earlier collection:
				// one after the peak's describes the peak's heap.
				select {
				case p.wake <- pending:
					pending = 0
				default: // a profile is being taken: the next collection tries again
				}
			}
			if p.stopped.Load() {
				close(p.wake)
				return
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				if live := int64(sample[0].Value.Uint64()); live > peak {
					peak, pending = live, live
				}
			}
			arm()
		})
	}
	arm()
	return p
}

// write stops the profiling and writes the profile of the peak to file,
// and the peak's live heap on stderr. With no collection yet, it takes
// a profile now.
func (p *peakProfile) write(file string, stderr io.Writer) {
	p.stopped.Store(true)
	for stopped := false; !stopped; {
		runtime.GC() // the sentinel's finalizer ends the profiling goroutine
		select {
		case <-p.done:
			stopped = true
		case <-time.After(100 * time.Millisecond):
		}
	}
	p.mu.Lock()
	prof, live := p.prof, p.live
	p.mu.Unlock()
	if prof == nil {
		var buf bytes.Buffer
		pprof.Lookup("heap").WriteTo(&buf, 0)
		prof = buf.Bytes()
	}
	if err := os.WriteFile(file, prof, 0o666); err != nil {
		fmt.Fprintln(stderr, "origo: "+err.Error())
		return
	}
	fmt.Fprintf(stderr, "origo: heap profile of the peak, %d MB live, written to %s\n", live>>20, file)
}
