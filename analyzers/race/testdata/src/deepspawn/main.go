// Package deepspawn starts a goroutine 30 calls deep, past the depth to
// which the happens-before pass inlines calls into a trace (24). The
// goroutine's start must still be ordered after what main did before the
// call, and after package initialization: a goroutine started past the
// cut keeps its start edge (shb's spawnsOnly). What main does after the
// call still races with the goroutine.
package main

import "sync"

var cfg = newConfig() // package initialization: before every goroutine

var x, y int

var wg sync.WaitGroup

type config struct{ name string }

func newConfig() *config { return &config{name: "deep"} }

func main() {
	x = 1
	d01()
	y = 2 // want "data race on y"
	wg.Wait()
}

func reader() {
	defer wg.Done()
	_ = cfg.name // silent "happens-before": package initialization happened before
	_ = x        // silent "happens-before": written before the call that starts this goroutine
	_ = y
}

func d01() { d02() }

func d02() { d03() }

func d03() { d04() }

func d04() { d05() }

func d05() { d06() }

func d06() { d07() }

func d07() { d08() }

func d08() { d09() }

func d09() { d10() }

func d10() { d11() }

func d11() { d12() }

func d12() { d13() }

func d13() { d14() }

func d14() { d15() }

func d15() { d16() }

func d16() { d17() }

func d17() { d18() }

func d18() { d19() }

func d19() { d20() }

func d20() { d21() }

func d21() { d22() }

func d22() { d23() }

func d23() { d24() }

func d24() { d25() }

func d25() { d26() }

func d26() { d27() }

func d27() { d28() }

func d28() { d29() }

func d29() { d30() }

func d30() {
	wg.Add(1)
	go reader()
}
