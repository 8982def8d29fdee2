package main

// A writer hands each batch to the one goroutine that writes, waits for
// its answer and then lets it go on: the writing goroutine leaves its
// loop only once req is closed, and nothing closes req, so it is there
// for every ackack (never-closed). It waits for more forever: that is
// the range's report, and the writers' sends are its sequels, not
// reports of a receiver that returned.
func handshake() {
	req := make(chan int)
	ack := make(chan error)
	ackack := make(chan struct{})
	go func() {
		for b := range req { // want `range over channel blocks forever: goroutine started at neverclosed.go:\d+ ranges over req \(made at neverclosed.go:\d+\), which nothing closes`
			ack <- write(b)
			<-ackack
		}
	}()
	for i := 0; i < 3; i++ {
		go func() {
			req <- i
			if err := <-ack; err != nil {
				ackack <- struct{}{} // sequel `send blocks forever: goroutine started at neverclosed.go:\d+, in a loop sends on ackack \(made at neverclosed.go:\d+, unbuffered\), but every goroutine that receives from it may block forever before it does`
				return
			}
			ackack <- struct{}{} // sequel `send blocks forever: goroutine started at neverclosed.go:\d+, in a loop sends on ackack \(made at neverclosed.go:\d+, unbuffered\), but every goroutine that receives from it may block forever before it does`
		}()
	}
}

func write(b int) error { return nil }

// The same writer, one call away, on channels a struct holds, spelled
// v, ok := <-req: in this whole program nothing closes w.req either
// (never-closed), and the writing goroutine, which the program leaves
// waiting when it exits, is not reported: its channel is not one the
// function that makes it keeps to itself.
type batchWriter struct {
	req    chan int
	ack    chan error
	ackack chan struct{}
}

func (w *batchWriter) serve() {
	for {
		b, ok := <-w.req
		if !ok {
			return
		}
		w.ack <- write(b)
		<-w.ackack
	}
}

func handshakeHeld() {
	w := &batchWriter{req: make(chan int), ack: make(chan error), ackack: make(chan struct{})}
	go w.serve()
	for i := 0; i < 3; i++ {
		go func() {
			w.req <- i
			<-w.ack
			w.ackack <- struct{}{} // silent "never-closed"
		}()
	}
}

// Here the producer closes req after its one request: the serving
// goroutine then leaves its loop after one tick, and the other tick has
// no receiver, whichever of the two comes second.
func ticksClosed() {
	req := make(chan int)
	tick := make(chan struct{})
	go func() {
		for range req {
			<-tick
		}
	}()
	go func() {
		req <- 1
		close(req)
	}()
	go func() {
		tick <- struct{}{} // want `send blocks forever once its receiver has returned: goroutine started at neverclosed.go:\d+ sends on tick \(made at neverclosed.go:\d+, unbuffered\), whose only receiver, goroutine started at neverclosed.go:\d+, receives in a loop that it may leave`
	}()
	tick <- struct{}{} // want `send blocks forever once its receiver has returned: goroutine started at neverclosed.go:\d+ sends on tick`
}

func init() {
	go handshake()
	go handshakeHeld()
	go ticksClosed()
}
