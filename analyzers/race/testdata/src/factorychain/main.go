package main

import "time"

// main's two caches are two caches: the goroutine deletes from one
// while main cleans up the other, and each calls only its own hook
// (factory-chain: Must calls New calls newCache, three calls, and
// only the outermost tells a from b).
func main() {
	countA := make(map[int]int)
	countB := make(map[int]int)
	a := Must(&Options{OnDelete: func(k int) { countA[k]++ }}) // silent: no pair, each cache its own (pointer: factory-chain)
	b := Must(&Options{OnDelete: func(k int) { countB[k]++ }})
	a.Set(1, 1)
	b.Set(2, 2)
	go func() {
		for i := 0; i < 10; i++ {
			a.Delete(1)
		}
	}()
	b.CleanUp()
	racy()
}

// Here main cleans up the cache the goroutine deletes from: both call
// its hook at once.
func racy() {
	count := make(map[int]int)
	c := Must(&Options{OnDelete: func(k int) { count[k]++ }}) // want `concurrent map access`
	c.Set(1, 1)
	go c.Delete(1)
	c.CleanUp()
	time.Sleep(time.Millisecond)
}
