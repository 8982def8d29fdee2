// Package chains calls one helper from two places: the walk of the
// second call is skipped as the same as the first, so the helper's
// events stand for both chains of calls (see Trace.AllFrames).
package main

func leaf(p *int) {
	*p = 1 // the event of both chains
}

func mid(p *int) { leaf(p) }

func main() {
	var a, b int
	mid(&a)
	mid(&b)
	use(a + b)
}

func use(int) {}
