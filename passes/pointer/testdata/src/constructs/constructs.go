// Package constructs asserts points-to facts for each construct of Go
// as SSA presents it. main calls every function, so each is analyzed.
package main

import (
	"pta"
	"unsafe"
)

type T struct {
	p, q *int
	next *T
}

func allocs() {
	x, y := new(int), new(int)
	pta.NoAlias(x, y)
	pta.PointsTo(x, `alloc\(int\)@constructs.go:16\[o\d+\]`)
}

func fields() {
	a, b := new(int), new(int)
	t := &T{p: a, q: b}
	pta.MayAlias(t.p, a)
	pta.NoAlias(t.p, t.q) // field-sensitive
	pta.NoAlias(&t.p, &t.q)
	pta.PointsTo(&t.q, `alloc\(main.T\)@constructs.go:23\[o\d+\]\.q`)
	v := *t // a struct value keeps its fields apart too
	pta.MayAlias(v.q, b)
	pta.NoAlias(v.q, a)
}

func slices() {
	s := make([]*int, 2)
	a := new(int)
	s[0] = a
	pta.MayAlias(s[1], a) // one element stands for all
	pta.MayAlias(s[1:][0], a)
	pta.MayAlias(append(s, new(int))[0], a)
	d := make([]*int, 1)
	copy(d, s)
	pta.MayAlias(d[0], a)
	arr := [2]*int{a, nil}
	pta.MayAlias(arr[:][1], a)
	ap := &arr
	pta.MayAlias(ap[0], a)
	e := make([]*int, 1)
	pta.NoAlias(e, s)
}

func maps() {
	m := make(map[string]*int)
	a := new(int)
	m["k"] = a
	pta.MayAlias(m["x"], a)
	v, ok := m["y"]
	_ = ok
	pta.MayAlias(v, a)
	for _, w := range m {
		pta.MayAlias(w, a)
	}
	k := new(int)
	keys := map[*int]bool{k: true}
	for key := range keys {
		pta.MayAlias(key, k)
		pta.NoAlias(key, a)
	}
}

func chans() {
	ch := make(chan *int, 1)
	a := new(int)
	ch <- a
	pta.MayAlias(<-ch, a)
	v, ok := <-ch
	_ = ok
	pta.MayAlias(v, a)
	for w := range ch {
		pta.MayAlias(w, a)
	}
	b := new(int)
	other := make(chan *int, 1)
	select {
	case w := <-ch:
		pta.MayAlias(w, a)
	case other <- b:
	}
	pta.MayAlias(<-other, b)
	pta.NoAlias(<-other, a)
}

func closures() {
	a := new(int)
	f := func() *int { return a }
	pta.MayAlias(f(), a)
	var g func() *int = f
	pta.MayAlias(g(), a)
	b := new(int)
	set := func(p **int) { *p = b }
	var q *int
	set(&q)
	pta.MayAlias(q, b)
}

type I interface{ Get() *int }

type impl struct{ p *int }

func (i impl) Get() *int { return i.p }

type pimpl struct{ p *int }

func (i *pimpl) Get() *int { return i.p }

func interfaces() {
	a, b := new(int), new(int)
	var i I = impl{a}
	pta.MayAlias(i.Get(), a)
	var j I = &pimpl{b}
	pta.MayAlias(j.Get(), b)
	pta.NoAlias(j.Get(), a)
	if p, ok := j.(*pimpl); ok {
		pta.MayAlias(p.p, b)
	}
	var e any = a
	pta.MayAlias(e.(*int), a)
	var e2 any = e
	if G != nil {
		e2 = j
	}
	if k, ok := e2.(I); ok { // only the *pimpl box has Get
		pta.PointsTo(k, `iface\(\*main.pimpl\)\[o\d+\]`) // implicit conversions have no position
	}
	var ii any = i
	pta.MayAlias(ii.(I).Get(), a) // interface to interface
}

func methodValues() {
	a := new(int)
	v := &pimpl{a}
	f := v.Get // bound method
	pta.MayAlias(f(), a)
	g := (*pimpl).Get // method expression
	pta.MayAlias(g(v), a)
}

func pair() (*int, *int) { return new(int), new(int) }

func tuples() {
	x, y := pair()
	pta.NoAlias(x, y)
}

var G *int

func globals() {
	a := new(int)
	G = a
	pta.MayAlias(G, a)
	pta.PointsTo(&G, `constructs.G`)
}

func deferred() {
	a := new(int)
	var got *int
	defer func() { got = a }()
	pta.MayAlias(got, a) // flow-insensitive: what the deferred call stores
}

func phis(c bool) {
	a, b := new(int), new(int)
	p := a
	if c {
		p = b
	}
	pta.MayAlias(p, a)
	pta.MayAlias(p, b)
}

type P *int

func conversions() {
	a := new(int)
	p := P(a)
	pta.MayAlias((*int)(p), a)
	u := unsafe.Pointer(a)
	pta.MayAlias((*int)(u), a)
}

type holder struct{ n *int }

type named holder // a change of name: the same fields

type other struct{ s *string }

// typeFilter: a *T dereferences only the locations that begin a T. A
// pointer whose set holds another type's object (here by unsafe; on
// real code by merged owners or a summary applied by position) keeps it
// in its own set, and its loads, stores and field addresses pass over
// it; a conversion between names of one type passes.
func typeFilter() {
	a := new(int)
	h := &holder{n: a}
	o := (*other)(unsafe.Pointer(h))
	pta.MayAlias(unsafe.Pointer(o), unsafe.Pointer(h)) // the set keeps the location
	pta.PointsToNothing(o.s)                           // the load passes over it
	pta.PointsToNothing(&o.s)                          // and so does the field's address
	c := (*named)(h)
	pta.MayAlias(c.n, a) // a change of name is the same type
	pta.MayAlias(h.n, a)
}

func seq(p *int) func(func(*int) bool) {
	return func(yield func(*int) bool) { yield(p) }
}

func rangeFunc() {
	a := new(int)
	var got *int
	for v := range seq(a) {
		got = v
	}
	pta.MayAlias(got, a)
}

func id[X any](x X) X { return x }

func generics() {
	a, b := new(int), new(string)
	pta.MayAlias(id(a), a)
	pta.MayAlias(id(b), b)
	// id returns its parameter: each call returns its own argument,
	// though its calls share one context per origin.
	c := new(int)
	pta.NoAlias(id(c), a)
	pta.MayAlias(id(c), c)
}

func main() {
	allocs()
	fields()
	slices()
	maps()
	chans()
	closures()
	interfaces()
	methodValues()
	tuples()
	globals()
	deferred()
	phis(G != nil)
	conversions()
	typeFilter()
	rangeFunc()
	generics()
	rangeKeysOnly()
	selectEmpty(make(chan struct{}), make(chan *int, 1))
	initializers()
	factoryChain()
	embeddedInit()
}

type key struct{ a, b, c *int }

// rangeKeysOnly ranges over a map of multi-leaf keys without using the
// value, and over its values without the key (regression: a crash on
// grpc, where the unused part has the invalid type).
func rangeKeysOnly() {
	a := new(int)
	m := map[key]*int{{a: a}: a}
	for k := range m {
		pta.MayAlias(k.a, a)
	}
	for _, v := range m {
		pta.MayAlias(v, a)
	}
	for range m {
	}
}

// selectEmpty receives a struct{} in the last case of a select
// (regression: an empty struct had no node inside the select's tuple
// and the load ran past its block; crashed on net/http).
func selectEmpty(done chan struct{}, ch chan *int) {
	a := new(int)
	ch <- a
	select {
	case v := <-ch:
		pta.MayAlias(v, a)
	case e := <-done:
		_ = e
	}
}

type meta struct{ n int }

type bucket struct{ nodes map[int]*int }

type txn struct {
	m    *meta
	root bucket
	rw   bool
}

// newBucket returns a struct value holding what it made for it: a
// factory, as one returning a pointer is.
func newBucket(rw bool) bucket {
	b := bucket{}
	if rw {
		b.nodes = make(map[int]*int)
	}
	return b
}

// init fills its receiver with what it makes.
func (t *txn) init() {
	t.m = &meta{}
	t.root = newBucket(t.rw)
}

func beginRead() *txn {
	t := &txn{}
	t.init()
	return t
}

func beginWrite() *txn {
	t := &txn{rw: true}
	t.init()
	return t
}

// reset fills a receiver it did not make: one analysis for all calls.
func (t *txn) reset() { t.init() }

// initializers checks that an initializer called on what its caller
// just made is analyzed per call site, as the factory is: a read-only
// transaction's objects are not a writable one's.
func initializers() {
	r, w := beginRead(), beginWrite()
	pta.NoAlias(r.m, w.m)
	pta.NoAlias(r.root.nodes, w.root.nodes)
	pta.NoAlias(newBucket(true).nodes, newBucket(true).nodes)
	u, v := new(txn), new(txn)
	u.reset()
	v.reset()
	pta.MayAlias(u.m, v.m)
}

// future embeds the part its init fills.
type future struct {
	deferError
	index int
}

type deferError struct{ errCh chan error }

func (d *deferError) init() { d.errCh = make(chan error, 1) }

// embeddedInit checks an initializer called on a field of what the
// caller just made: two futures, two channels.
func embeddedInit() {
	f := &future{}
	f.init()
	g := &future{}
	g.init()
	pta.NoAlias(f.errCh, g.errCh)
}

type hooked struct{ onDelete func(int) }

type hookedCache struct{ h *hooked }

func newHooked(f func(int)) *hooked { return &hooked{onDelete: f} }

func newHookedCache(f func(int)) *hookedCache { return &hookedCache{h: newHooked(f)} }

func mustHookedCache(f func(int)) *hookedCache {
	c := newHookedCache(f)
	if c == nil {
		panic("nil")
	}
	return c
}

// factoryChain checks that a chain of three factory calls keeps the
// call that entered it (rule factory-chain): the two innermost calls
// are the same for both caches, only the outermost tells them apart,
// and each cache holds its own hook.
func factoryChain() {
	a := mustHookedCache(func(int) {})
	b := mustHookedCache(func(int) {})
	pta.NoAlias(a.h, b.h)
	pta.NoAlias(a.h.onDelete, b.h.onDelete)
	c, d := newHookedCache(nil), newHookedCache(nil) // two calls: as before
	pta.NoAlias(c.h, d.h)
}
