// Package main checks the directives that silence nothing: each pair is
// a directive that silences a report (the silent twin) and one, the
// same but where the report is gone, reported as stale.
package main

import "sync"

var a, b, c, d, e, f int

var mu sync.Mutex

// A race silenced at the end of the reported line: used, silent.
func silenced() {
	go func() { a = 1 }() //origo:ignore race the test's race, silenced
	a = 2
}

// The same directive once the race is fixed: stale.
func fixed() {
	var wg sync.WaitGroup
	wg.Add(1)
	// want +1 `stale //origo:ignore directive: race reports nothing at main.go:23, so it silences nothing; should it be removed\?`
	go func() { b = 1; wg.Done() }() //origo:ignore race the race was fixed since
	wg.Wait()
	b = 2
}

// Alone on the line above the race: used, silent.
func silencedAbove() {
	//origo:ignore race the test's race, from the line above
	go func() { c = 1 }()
	c = 2
}

// Alone above a line where nothing is reported any more: stale.
func movedAway() {
	// want +1 `stale //origo:ignore directive: race reports nothing at main.go:39, so it silences nothing`
	//origo:ignore race the race moved down a line
	d = 1
	go func() { d = 2 }()
}

// A list of which one analyzer silences a report and the other nothing:
// the stale name is reported, with the directive to write.
func list() {
	// want +1 `stale //origo:ignore directive: deadlock reports nothing at main.go:47; write //origo:ignore race the race is known`
	go func() { e = 1 }() //origo:ignore race,deadlock the race is known
	e = 2
}

// A double lock silenced: used, silent; its twin with the lock released
// first: stale.
func relock() {
	mu.Lock()
	mu.Lock() //origo:ignore deadlock the test's double lock, silenced
	mu.Unlock()
}

func relockFixed() {
	mu.Lock()
	mu.Unlock()
	// want +1 `stale //origo:ignore directive: deadlock reports nothing at main.go:63`
	mu.Lock() //origo:ignore deadlock the double lock was fixed since
	mu.Unlock()
	f = 0
}

func main() {
	silenced()
	fixed()
	silencedAbove()
	movedAway()
	list()
	relock()
	relockFixed()
}
