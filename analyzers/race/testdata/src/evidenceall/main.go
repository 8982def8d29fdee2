// Package evidenceall is a pair nothing shows to be shared, under -all:
// reported as a possible data race, with its reason (TestAll; package
// evidence has the other shapes, which TestAll checks under -all too).
package main

type inner struct{ n int }
type mid2 struct{ in *inner }
type mid struct{ m2 *mid2 }
type outer struct{ m *mid }

func work(o *outer, done chan bool) {
	o.m.m2.in.n++ // want `possible data race: data race on inner.n: .*nothing shows that the memory is meant to be shared`
	done <- true
}

// deep makes the object outside main, which would make it once.
func deep(done chan bool) {
	o := &outer{m: &mid{m2: &mid2{in: &inner{}}}}
	go work(o, done)
	go work(o, done)
}

func main() {
	done := make(chan bool, 2)
	deep(done)
	<-done
	<-done
}
