// Package main checks constructors that start a goroutine only where
// their configuration asks for one ("if config.CleanWindow > 0 { go
// ... }", "if !cfg.Quiet { go ... }"): a call that passes a composite
// literal leaving the field out, or setting it the other way, starts
// none, and what its callbacks write races with nothing. The pointer
// analysis tells the calls apart (a constructor is a factory), and
// starts no goroutine in a context whose constants rule its go
// statement out; a goroutine that never starts has no candidate pair,
// so origo why says there is none.
package main

import "time"

type Config struct {
	CleanWindow time.Duration
	Quiet       bool
	OnEvict     func()
}

type Cache struct {
	evict func()
	items map[string]int
}

// newCache starts its cleaner only when CleanWindow is positive; the
// cleaner captures the config, so go/ssa keeps it in a variable.
func newCache(config Config) *Cache {
	c := &Cache{evict: config.OnEvict, items: map[string]int{}}
	if config.CleanWindow > 0 {
		go func() {
			time.Sleep(config.CleanWindow)
			c.clean()
		}()
	}
	return c
}

// newLoudCache takes a pointer, and its goroutine runs unless Quiet.
func newLoudCache(cfg *Config) *Cache {
	c := &Cache{evict: cfg.OnEvict, items: map[string]int{}}
	if !cfg.Quiet {
		go c.clean()
	}
	return c
}

// NewCache passes its configuration on: the literal its caller gives
// decides, one call out.
func NewCache(config Config) *Cache { return newCache(config) }

func (c *Cache) clean() {
	for range c.items {
		c.evict()
	}
}

func main() {
	quiet := 0
	c := newCache(Config{OnEvict: func() { quiet++ }}) // no CleanWindow: no cleaner
	c.clean()
	println(quiet) // silent: no goroutine writes quiet

	still := 0
	d := newLoudCache(&Config{Quiet: true, OnEvict: func() { still++ }})
	d.clean()
	println(still) // silent: Quiet, no goroutine

	outer := 0
	e := NewCache(Config{OnEvict: func() { outer++ }})
	e.clean()
	println(outer) // silent: no CleanWindow, one call out

	cleaned := 0
	f := newCache(Config{CleanWindow: time.Second, OnEvict: func() {
		cleaned++ // want `data race on cleaned: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs read at main.go:\d+ \(main goroutine\)`
	}})
	_ = f
	println(cleaned)

	loud := 0
	g := newLoudCache(&Config{OnEvict: func() {
		loud++ // want `data race on loud: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs read at main.go:\d+ \(main goroutine\)`
	}})
	_ = g
	println(loud)
}
