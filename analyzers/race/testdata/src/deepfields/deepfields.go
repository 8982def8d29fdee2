// Package deepfields checks accesses to parts nested deeper than a few
// levels: a field inside arrays of arrays is memory of its own, written
// by a copy of the whole (runtime/race's TestRaceNestedArrayCopy).
package main

type point struct{ x, y int }

type (
	p32  [2][2][2][2][2]point
	p1k  [2][2][2][2][2]p32
	p32k [2][2][2][2][2]p1k
)

type l1 struct{ a l2 }
type l2 struct{ b l3 }
type l3 struct{ c l4 }
type l4 struct{ d l5 }
type l5 struct{ e l6 }
type l6 struct{ f l7 }
type l7 struct{ g l8 }
type l8 struct{ h l9 }
type l9 struct{ i l10 }
type l10 struct{ j, k int }

func main() {
	copyWhole()
	deepStruct()
	deepOrdered()
}

// A field fifteen arrays deep, written while the whole is copied over.
func copyWhole() {
	var a, b p32k
	done := make(chan bool, 1)
	go func() {
		a[0][1][0][1][0][1][0][1][0][1][0][1][0][1][0].y = 1 // want `data race on a\[\*\].*\.y: write at deepfields.go:\d+ \(goroutine started at deepfields.go:\d+\) vs write at deepfields.go:\d+ \(main goroutine\)`
		done <- true
	}()
	a = b
	<-done
}

// A field ten structs deep, written on both sides; its sibling field
// is other memory.
func deepStruct() {
	var s l1
	done := make(chan bool, 1)
	go func() {
		s.a.b.c.d.e.f.g.h.i.j = 1 // want `data race on s.a.b.c.d.e.f.g.h.i.j: write at deepfields.go:\d+ \(goroutine started at deepfields.go:\d+\) vs write at deepfields.go:\d+ \(main goroutine\)`
		done <- true
	}()
	s.a.b.c.d.e.f.g.h.i.j = 2
	s.a.b.c.d.e.f.g.h.i.k = 3
	<-done
}

// The same write after the goroutine's result is received: ordered.
func deepOrdered() {
	var s l1
	done := make(chan bool, 1)
	go func() {
		s.a.b.c.d.e.f.g.h.i.j = 1
		done <- true
	}()
	<-done
	s.a.b.c.d.e.f.g.h.i.j = 2 // silent "happens-before"
}
