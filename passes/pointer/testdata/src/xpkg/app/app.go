// Command app asserts what the summaries of package lib tell it.
package main

import (
	"pta"
	"xpkg/lib"
)

func main() {
	a, b := new(int), new(int)

	t1, t2 := lib.New(), lib.New()
	pta.NoAlias(t1, t2) // a constructor in another package, called twice
	pta.PointsTo(t1, `unknown\(lib.T made by lib.New\)\[o\d+\]\.leaf0`)

	t3 := lib.NewWith(a)
	pta.MayAlias(t3.P, a)
	pta.MayAlias(t3.GetP(), a)

	t1.SetQ(b)
	pta.MayAlias(t1.Q, b)
	pta.NoAlias(t1.Q, a)

	lib.Swap(t3)
	pta.MayAlias(t3.Q, a)

	n := lib.Chain(t1)
	pta.MayAlias(t1.Next(), n)
	pta.NoAlias(n, t1)

	x, y := lib.Pair()
	pta.NoAlias(x, y)

	more()
	boundary()
	factories()
}

// handler returns what another package's constructor makes, a Mux that
// carries a mutex: a factory, as if it allocated the Mux itself.
func handler(h *int) *lib.Mux {
	m := lib.NewMux()
	m.Handle(h)
	return m
}

// plain returns another package's object with no mutex: no factory.
func plain(p *int) *lib.T {
	t := lib.New()
	t.SetQ(p)
	return t
}

func factories() {
	a, b := new(int), new(int)
	m1, m2 := handler(a), handler(b)
	pta.NoAlias(m1, m2) // two calls, two Muxes
	pta.NoAlias(m2.Handler(), a)
	pta.MayAlias(m1.Handler(), a)

	t1, t2 := plain(a), plain(b)
	pta.MayAlias(t1, t2) // one T for both calls
	pta.MayAlias(t2.Q, a)
}

func more() {
	a := new(int)

	g := lib.Box(a)
	pta.MayAlias(g.Get(), a) // a method of an unexported type, through its summary

	get := lib.GetterFunc(a)
	pta.MayAlias(get(), a) // a closure made in lib

	t := lib.New()
	set := lib.Setter(t)
	b := new(int)
	set(b)
	pta.MayAlias(t.P, b)

	pta.MayAlias(lib.Current(), lib.Current()) // one variable, whoever asks
	pta.MayAlias(lib.DefaultPtr(), lib.Default)
	pta.NoAlias(lib.Current(), lib.DefaultPtr())

	m, ch, s := lib.Index(a)
	pta.MayAlias(m["x"], a)
	pta.MayAlias(<-ch, a)
	pta.MayAlias(s[0], a)
}

// boundary asserts constructs whose values come from lib.
func boundary() {
	a := new(int)
	ch := lib.Feed(a)
	select {
	case v := <-ch:
		pta.MayAlias(v, a)
	default:
	}
	for v := range ch {
		pta.MayAlias(v, a)
	}
	pta.MayAlias((*int)(lib.AsPtr(a)), a)
	pta.MayAlias(lib.Any(a).(*int), a)
	var got *int
	for v := range lib.Seq(a) {
		got = v
	}
	pta.MissedAlias(got, a) // the iterator calls its yield argument: a callback (see knownfn)
}
