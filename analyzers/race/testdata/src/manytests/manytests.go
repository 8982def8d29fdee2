// Package manytests has 40 tests; the first 39 are long, and the race
// is in the 40th: each test is walked with a budget of its own, so the
// last is not left past a bound the others spent.
package manytests

var sem = make(chan int, 1)

var data [8]int

// step synchronizes, so that each call of it is walked anew.
func step() {
	sem <- 1
	data[0]++
	data[1]++
	data[2]++
	data[3]++
	<-sem
}

func chunk() {
	step()
	step()
	step()
	step()
	step()
	step()
	step()
	step()
	step()
	step()
	step()
	step()
	step()
	step()
	step()
	step()
	step()
	step()
	step()
	step()
	step()
	step()
	step()
	step()
	step()
}

func long() {
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
	chunk()
}
