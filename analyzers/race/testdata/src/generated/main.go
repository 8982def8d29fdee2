// Package main checks that nothing is reported in generated files.
package main

var total int

func add(done chan bool) {
	total++ // want `data race on total`
	done <- true
}

func main() {
	done := make(chan bool)
	go bump(done)
	go bump(done)
	go add(done)
	go add(done)
	for range 4 {
		<-done
	}
}
