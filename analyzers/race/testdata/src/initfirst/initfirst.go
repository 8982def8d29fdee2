// Package initfirst checks that package initialization happens before
// every goroutine it does not start itself, a context.AfterFunc
// callback too.
package main

import (
	"context"
	"errors"
)

// errStop is made by package initialization, limit set by init.
var errStop = errors.New("stop")

var limit int

func init() { limit = 3 }

// reason is written by main and by the callback.
var reason error

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	context.AfterFunc(ctx, func() {
		msg := errStop.Error()       // silent "happens-before"
		n := limit                   // silent "happens-before"
		reason = errors.New(msg[:n]) // want `data race on reason`
		close(done)
	})
	cancel()
	reason = nil
	<-done
}
