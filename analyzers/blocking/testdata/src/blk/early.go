package main

func consume(ch chan int) {
	for range ch {
	}
}

// The send comes before the goroutine that would receive it starts.
func sendFirst() {
	ch := make(chan int)
	ch <- 1 // want `send blocks forever: goroutine started at partners.go:\d+ sends on ch \(made at early.go:\d+, unbuffered\) before it starts any goroutine that receives from it \(the first at early.go:\d+\)`
	go consume(ch)
	close(ch)
}

// The second send finds the buffer full, the consumer not started yet.
func bufferFull() {
	ch := make(chan int, 1)
	ch <- 1
	ch <- 2 // want `send blocks forever: .* \(made at early.go:\d+, its buffer of 1 already full after the send at early.go:\d+\) before it starts`
	go consume(ch)
	close(ch)
}

// The consumer starts between the sends: silent.
func bufferRoom() {
	ch := make(chan int, 1)
	ch <- 1
	go consume(ch)
	ch <- 2 // silent "partner"
	close(ch)
}
