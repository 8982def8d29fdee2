// Package main checks that "//origo:ignore race reason" silences a race
// from either access, the reported one (here the goroutine's write) or
// the other, at the end of the line or alone on the line above; a
// directive that names another analyzer, or that is malformed, silences
// nothing, as does checklocks' "// +checklocksignore", which is
// guardedby's alone.
package main

var a, b, c, d, e, f, g, h, i, j int

func reported() {
	go func() { a = 1 }() // want `data race on a`
	a = 2
}

func silenced() {
	go func() { b = 1 }() //origo:ignore race the test checks the directive on the reported access // silent "ignored"
	b = 2
}

func silencedOther() {
	go func() { c = 1 }()
	c = 2 //origo:ignore race the test checks the directive on the other access // silent "ignored"
}

func silencedAbove() {
	// The directive alone on its line applies to the line under its
	// block of comments.
	//origo:ignore race the test checks the directive on the line above
	go func() { d = 1 }() // silent "ignored"
	d = 2
}

func silencedList() {
	go func() { e = 1 }() //origo:ignore blocking,race a list of analyzers // silent "ignored"
	e = 2
}

func otherAnalyzer() {
	go func() { f = 1 }() //origo:ignore deadlock another analyzer's directive // want `data race on f`
	f = 2
}

func spaced() {
	go func() { g = 1 }() // origo:ignore race a space after the slashes // want `data race on g`
	g = 2
}

func unknownName() {
	go func() { h = 1 }() //origo:ignore rase a misspelled name // want `data race on h`
	h = 2
}

// The directive on the line above applies to that line only.
func aboveOneLine() {
	//origo:ignore race only the next line
	println()
	go func() { i = 1 }() // want `data race on i`
	i = 2
}

// checklocks' ignore comment silences guardedby, not race.
func checklocksIgnore() {
	go func() { j = 1 }() // +checklocksignore // want `data race on j`
	j = 2
}

func main() {
	reported()
	silenced()
	silencedOther()
	silencedAbove()
	silencedList()
	otherAnalyzer()
	spaced()
	unknownName()
	aboveOneLine()
	checklocksIgnore()
}
