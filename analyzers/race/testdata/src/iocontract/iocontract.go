// Package iocontract checks the accesses the io contracts state for
// callees whose bodies the analysis does not see (a system call, an
// interface, another package): Read(p) writes p's elements, Write(p)
// reads them.
package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// readReuse sends each chunk it reads and reads the next into the same
// buffer while the receiver may still use it (Go's TestRaceIssue5567).
func readReuse(f *os.File) {
	in := make(chan []byte)
	go func() {
		defer close(in)
		b := make([]byte, 17)
		for {
			n, err := f.Read(b) // want `data race on an element of \[\]byte: write at iocontract.go:\d+ \(goroutine started at iocontract.go:\d+\) vs read at iocontract.go:\d+`
			if n > 0 {
				in <- b[:n]
			}
			if err != nil {
				return
			}
		}
	}()
	var sum int
	for b := range in {
		sum += int(b[0])
	}
	fmt.Println(sum)
}

// readFullReuse does the same through an io.Reader and io.ReadFull.
func readFullReuse(r io.Reader) {
	in := make(chan []byte)
	go func() {
		defer close(in)
		b := make([]byte, 8)
		for {
			if _, err := io.ReadFull(r, b); err != nil { // want `data race on an element of \[\]byte`
				return
			}
			in <- b
		}
	}()
	for b := range in {
		fmt.Println(string(b))
	}
}

// readFresh's twin reads each chunk into a buffer of its own: the send
// hands it over.
func readFresh(r io.Reader) {
	in := make(chan []byte)
	go func() {
		defer close(in)
		for {
			b := make([]byte, 17)
			n, err := r.Read(b) // silent "not-published"
			if n > 0 {
				in <- b[:n]
			}
			if err != nil {
				return
			}
		}
	}()
	for b := range in {
		fmt.Println(b[0])
	}
}

// writeWhileFilled writes a buffer out on a goroutine while its caller
// fills it again.
func writeWhileFilled(w io.Writer) {
	buf := []byte("hello")
	done := make(chan bool)
	go func() {
		w.Write(buf)
		done <- true
	}()
	buf[0] = 'j' // want `data race on an element of \[\]byte`
	<-done
}

// writeThenFill's twin fills it again once the write is done.
func writeThenFill(w io.Writer) {
	buf := []byte("hello")
	done := make(chan bool)
	go func() {
		w.Write(buf)
		done <- true
	}()
	<-done
	buf[0] = 'j' // silent "happens-before"
	fmt.Println(string(buf))
}

func main() {
	f, _ := os.Open(os.Args[0])
	readReuse(f)
	readFullReuse(f)
	readFresh(bytes.NewReader(nil))
	writeWhileFilled(os.Stdout)
	writeThenFill(new(bytes.Buffer))
}
