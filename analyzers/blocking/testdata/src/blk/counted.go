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

// gatherWorkers starts as many workers as its parameter says and
// receives as many times, with the same bound (fastcache's save).
// Silent.
func gatherWorkers(workers int) error {
	results := make(chan error)
	for i := 0; i < workers; i++ {
		go func() {
			results <- nil // silent "counted"
		}()
	}
	var err error
	for i := 0; i < workers; i++ {
		if r := <-results; r != nil && err == nil {
			err = r
		}
	}
	return err
}

// gatherCounted counts the goroutines it starts, skipping some items,
// and receives once per count (fastcache's load). Silent.
func gatherCounted(items []string) error {
	results := make(chan error)
	n := 0
	for _, it := range items {
		if it == "" {
			continue
		}
		n++
		go func() {
			results <- nil // silent "counted"
		}()
	}
	var err error
	for i := 0; i < n; i++ {
		if r := <-results; r != nil && err == nil {
			err = r
		}
	}
	return err
}

// gatherMiscounted starts a goroutine for every item but counts only
// the named ones, and receives once per count: the senders of the
// others are left blocked. Reported.
func gatherMiscounted(items []string) error {
	results := make(chan error)
	n := 0
	for _, it := range items {
		if it != "" {
			n++
		}
		go func() {
			results <- nil // want `send blocks forever once its receiver has returned`
		}()
	}
	var err error
	for i := 0; i < n; i++ {
		if r := <-results; r != nil && err == nil {
			err = r
		}
	}
	return err
}

func init() {
	go gatherWorkers(3)
	go gatherCounted([]string{"a", ""})
	go gatherMiscounted([]string{"a", ""})
	go gather()
	go collectNamed()
	go collectFew()
	go collectFirst()
}
