// Package builders checks calls that return the pointer they are given:
// a builder's methods, which return their receiver so that calls chain
// (o.AddServer(s).AddServer(t)), a function that returns its
// argument, and one that returns it with an error (a filler:
// parse(s, &Options{}) returning o, nil). Each call returns its own caller's pointer: the options a
// test or a caller fills for itself are not the ones a client copied
// and reads on its goroutine, though both pass through AddServer.
package main

import (
	"fmt"
	"strings"
)

type Options struct {
	Servers []string
	Retries int
	Name    string
	Timeout int
	Label   string
}

// AddServer returns its receiver, so that calls chain.
func (o *Options) AddServer(s string) *Options {
	o.Servers = append(o.Servers, strings.TrimSpace(s))
	return o
}

// logged returns the options it is given, after logging them.
func logged(o *Options) *Options {
	fmt.Println(len(o.Servers), o.Name)
	return o
}

// parse fills the options it is given and returns them, with an
// error: its first result is always the caller's own pointer (or nil).
func parse(s string, o *Options) (*Options, error) {
	if s == "" {
		return nil, fmt.Errorf("no name")
	}
	return o, nil
}

// Load is parse as a method: it returns its receiver, or an error.
func (o *Options) Load(s string) (*Options, error) {
	if s == "" {
		return nil, fmt.Errorf("no servers")
	}
	return o, nil
}

type Client struct {
	opts Options
}

// NewClient copies the options and reads its copy on a goroutine.
func NewClient(o *Options) *Client {
	c := &Client{opts: *o}
	go c.run()
	return c
}

func (c *Client) run() { fmt.Println(c.opts.Retries, c.opts.Name, c.opts.Timeout, c.opts.Label) }

func main() {
	c := NewClient(new(Options).AddServer("a"))
	c.opts.AddServer("b") // the client's options pass through AddServer too
	logged(&c.opts)

	// The caller's own options, chained and passed through logged: no
	// other goroutine has them.
	o := new(Options)
	o.AddServer("c").AddServer("d").Retries = 3
	logged(o).Name = "mine"
	_ = NewClient(o)

	// The caller's own options, passed through parse and Load, which
	// return them with an error.
	if p, err := parse("x", new(Options)); err == nil {
		p.Timeout = 5 // silent: no other goroutine has p
	}
	if q, err := new(Options).Load("y"); err == nil {
		q.Label = "own" // silent: no other goroutine has q
	}

	// The client's options, through them.
	if r, err := parse("z", &c.opts); err == nil {
		r.Timeout = 6 // want `data race on Client.opts.Timeout`
	}
	if r, err := c.opts.Load("w"); err == nil {
		r.Label = "x" // want `data race on Client.opts.Label`
	}

	// The client's options, chained and passed through logged, which
	// its goroutine reads.
	c.opts.AddServer("e").AddServer("f").Retries = 4 // want `data race on Client.opts.Retries: write at builders.go:\d+ \(main goroutine\) vs read at builders.go:\d+ \(goroutine started at builders.go:\d+\)`
	logged(&c.opts).Name = "theirs"                  // want `data race on Client.opts.Name: write at builders.go:\d+ \(main goroutine\) vs read at builders.go:\d+ \(goroutine started at builders.go:\d+\)`
}
