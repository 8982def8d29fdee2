package factories

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
)

// A Conn holds writers: values of an interface type, which could hold a
// pointer back into the Conn. Only what the pointer analysis finds in
// them counts (ownership's "Publication"). Close's goroutine reads a
// Conn while other calls of the package make new ones, at the same
// allocation site.
type Conn struct {
	out io.Writer
	bw  *bufio.Writer
	n   int
}

func (c *Conn) Write(p []byte) (int, error) { return len(p) + c.n, nil }

// Close finishes the Conn in the background.
func (c *Conn) Close() { go c.Write(nil) }

var errRefused = errors.New("refused")

// Dial gives package bufio the writer package io made, which cannot
// hold the Conn: its write is silent, though the goroutine an earlier
// failed Dial started to close its Conn may still run.
func Dial(dst io.Writer, refused bool) (*Conn, error) {
	c := &Conn{out: io.MultiWriter(dst)}
	c.bw = bufio.NewWriter(c.out)
	c.n = 1 // silent "not-published"
	if refused {
		c.Close()
		return nil, errRefused
	}
	return c, nil
}

// DialStdout's writer is a box of this package, holding an *os.File,
// given to package fmt one call away: silent too.
func DialStdout(refused bool) (*Conn, error) {
	c := &Conn{out: os.Stdout}
	c.greet()
	c.n = 2 // silent "not-published"
	if refused {
		c.Close()
		return nil, errRefused
	}
	return c, nil
}

func (c *Conn) greet() { fmt.Fprintln(c.out, "hello") }

// Echo's Conn is its own writer, boxed by this package: given to serve
// through its field, it reaches serve's goroutine, and the write after
// races (fresh's selfLoaded is the same, directly).
func Echo() *Conn {
	c := &Conn{}
	c.out = c
	serve(c.out)
	c.n = 3 // want `data race on Conn.n`
	return c
}

func serve(w io.Writer) { go w.Write(nil) }
