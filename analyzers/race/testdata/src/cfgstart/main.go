// Package main checks constructors that start a goroutine only where
// their configuration asks for one ("if config.CleanWindow > 0 { go
// ... }", "if !cfg.Quiet { go ... }"): a call that passes a composite
// literal leaving the field out, or setting it the other way (or a copy
// of one that "with" methods return, setting other fields), starts
// none, and what its callbacks write races with nothing. So does a
// call that passes a constant parameter the go statement's condition
// reads, directly (if workers > 0) or through a normalized copy kept in
// the literal the constructor returns (if ttl <= 0 { ttl = Never };
// e := T{ttl: ttl}; if e.ttl != Never). The pointer
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
	Name        string
}

// WithEvict, WithName and WithCleanWindow return a copy of the
// configuration with one field set, the others as they were: a copy of
// a literal leaves CleanWindow as the literal does, unless it is the
// field set.
func (c Config) WithEvict(f func()) Config { c.OnEvict = f; return c }

func (c Config) WithName(n string) Config {
	c.Name = n
	return c
}

func (c Config) WithCleanWindow(d time.Duration) Config {
	c.CleanWindow = d
	return c
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

// Never is the TTL of entries that never expire.
const Never = time.Hour * 24 * 365

// Expiring expires its entries in the background unless their TTL is
// Never; newExpiring normalizes a TTL of zero or less to Never first,
// then keeps it in the literal it returns, whose field decides.
type Expiring struct {
	ttl     time.Duration
	onEvict func()
}

func newExpiring(ttl time.Duration, onEvict func()) *Expiring {
	if ttl <= 0 {
		ttl = Never
	}
	e := Expiring{ttl: ttl, onEvict: onEvict}
	if e.ttl != Never {
		go func() {
			time.Sleep(e.ttl)
			e.onEvict()
		}()
	}
	return &e
}

// newPool starts its workers only when asked for some: its parameter
// decides.
func newPool(workers int, job func()) {
	if workers > 0 {
		go job()
	}
}

func expiring() {
	never := 0
	newExpiring(0, func() { never++ }) // zero TTL: no expiry goroutine
	println(never)                     // silent: no goroutine writes never

	idle := 0
	newPool(0, func() { idle++ }) // no workers
	println(idle)                 // silent: no goroutine writes idle

	expired := 0
	newExpiring(time.Second, func() {
		expired++ // want `data race on expired: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs read at main.go:\d+ \(main goroutine\)`
	})
	println(expired)

	busy := 0
	newPool(2, func() {
		busy++ // want `data race on busy: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs read at main.go:\d+ \(main goroutine\)`
	})
	println(busy)
}

func main() {
	expiring()
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

	copied := 0
	h := newCache(Config{}.WithEvict(func() { copied++ })) // a copy of a literal without CleanWindow
	h.clean()
	println(copied) // silent: no goroutine writes copied

	chained := 0
	cfg := Config{Quiet: true}.WithName("x").WithEvict(func() { chained++ })
	k := NewCache(cfg) // two copies, one call out
	k.clean()
	println(chained) // silent: no goroutine writes chained

	windowed := 0
	m := newCache(Config{OnEvict: func() {
		windowed++ // want `data race on windowed: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs read at main.go:\d+ \(main goroutine\)`
	}}.WithCleanWindow(time.Second))
	_ = m
	println(windowed)

	loud := 0
	g := newLoudCache(&Config{OnEvict: func() {
		loud++ // want `data race on loud: write at main.go:\d+ \(goroutine started at main.go:\d+\) vs read at main.go:\d+ \(main goroutine\)`
	}})
	_ = g
	println(loud)
}
