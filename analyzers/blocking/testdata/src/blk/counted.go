package main

// A loop that receives as many times as the goroutines started before
// it send, with no other way out, takes every send, whatever their
// order: no sender is left blocked once the receiver returns.

func countedWork() int { return 1 }

// gather starts three goroutines that send once each, and receives
// three times. Silent.
func gather() {
	results := make(chan int)
	for i := 0; i < 3; i++ {
		go func() {
			results <- countedWork() // silent "counted"
		}()
	}
	sum := 0
	for i := 0; i < 3; i++ {
		sum += <-results
	}
	println(sum)
}

// collectNamed starts a named function that sends once, three times
// in a loop that counts from one, and receives three times. Silent.
func sendDone(done chan<- bool) {
	done <- true // silent "counted"
}

func collectNamed() {
	done := make(chan bool)
	for i := 1; i < 4; i++ {
		go sendDone(done)
	}
	n := 0
	for i := 0; i < 3; i++ {
		if <-done {
			n++
		}
	}
	println(n)
}

// collectFew receives twice for three senders: the third blocks
// forever once it returns. Reported.
func collectFew() {
	results := make(chan int)
	for i := 0; i < 3; i++ {
		go func() {
			results <- countedWork() // want `send blocks forever once its receiver has returned`
		}()
	}
	for i := 0; i < 2; i++ {
		println(<-results)
	}
}

// collectFirst leaves its loop on the first result it likes. Reported.
func collectFirst() {
	results := make(chan int)
	for i := 0; i < 3; i++ {
		go func() {
			results <- countedWork() // want `send blocks forever once its receiver has returned`
		}()
	}
	for i := 0; i < 3; i++ {
		if <-results > 0 {
			return
		}
	}
}

func init() {
	go gather()
	go collectNamed()
	go collectFew()
	go collectFirst()
}
