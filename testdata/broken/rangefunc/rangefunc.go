// Command rangefunc races in the body of a range-over-func loop, which
// runs inside the iterator's calls of yield.
package main

import "iter"

var n int

func upTo(k int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range k {
			if !yield(i) {
				return
			}
		}
	}
}

func main() {
	go func() { n = 1 }()
	for v := range upTo(3) {
		n += v
	}
}
