// Package main checks that a receive from ctx.Done(), on the context's
// own channel, does not make every chan struct{} of the package one that
// unknown code may receive from.
package main

import "context"

func waitCtx(ctx context.Context) { <-ctx.Done() }

type beacon struct{ ready chan struct{} }

func signalNobody() {
	b := &beacon{ready: make(chan struct{})}
	go func() {
		b.ready <- struct{}{} // want `send blocks forever: goroutine started at main.go:\d+ sends on b.ready \(made at main.go:\d+, unbuffered\), which no other goroutine receives from`
	}()
}

// Hook is called by code the analysis cannot see, on an object it does
// not see made: its receive may be on any chan struct{} kept in an
// other's field (silent).
type listener struct{ o *other }

func (l *listener) Hook() { <-l.o.ready }

type other struct{ ready chan struct{} }

func signalHooked() {
	o := &other{ready: make(chan struct{})}
	go func() { o.ready <- struct{}{} }() // silent "partner"
}

func main() {
	go waitCtx(context.Background())
	signalNobody()
	signalHooked()
}
