// Package main checks a WaitGroup that the goroutine making it adds to
// before anything else can reach it, and calls Done on itself
// (singleflight's call): another goroutine's Wait on it found it where
// the maker put it, after the Add, so it returns only after the maker's
// Done, and what the maker wrote in between is ordered before what the
// waiter reads after.
package main

import "sync"

type call struct {
	wg  sync.WaitGroup
	val int
}

// result waits for the call's maker, one call away from Do's Wait.
func (c *call) result() int {
	c.wg.Wait()
	return c.val
}

type Group struct {
	mu sync.Mutex
	m  map[string]*call
}

// Do adds to the call's WaitGroup before putting it in the map.
func (g *Group) Do(key string, fn func() int) int {
	g.mu.Lock()
	if c, ok := g.m[key]; ok {
		g.mu.Unlock()
		c.wg.Wait()
		return c.val
	}
	c := new(call)
	c.wg.Add(1)
	g.m[key] = c
	g.mu.Unlock()

	c.val = fn() // silent "happens-before"
	c.wg.Done()
	return c.val
}

// Get waits in result and calls Done deferred.
func (g *Group) Get(key string, fn func() int) int {
	g.mu.Lock()
	if c, ok := g.m[key]; ok {
		g.mu.Unlock()
		return c.result()
	}
	c := new(call)
	c.wg.Add(1)
	g.m[key] = c
	g.mu.Unlock()
	defer c.wg.Done()
	c.val = fn() // silent "happens-before"
	return c.val
}

// Spawn adds to the call's WaitGroup before its go statement hands the
// call to the goroutine that waits on it.
func Spawn(fn func() int) int {
	c := new(call)
	c.wg.Add(1)
	go func() { println(c.result()) }()
	c.val = fn() // silent "happens-before"
	c.wg.Done()
	return c.val
}

// SpawnDirect's goroutine waits itself, and Done is deferred.
func SpawnDirect(fn func() int) int {
	c := new(call)
	c.wg.Add(1)
	defer c.wg.Done()
	go func() {
		c.wg.Wait()
		println(c.val)
	}()
	c.val = fn() // silent "happens-before"
	return c.val
}

// SpawnLate hands the call over first and adds after: the goroutine may
// wait on a WaitGroup still at zero, return at once and read val while
// it is written.
func SpawnLate(fn func() int) int {
	c := new(call)
	go func() { println(c.result()) }()
	c.wg.Add(1)
	c.val = fn() // want `data race on call.val: write at flight.go:\d+ \(main goroutine\) vs read at flight.go:\d+ \(goroutine started at flight.go:\d+\)`
	c.wg.Done()
	return c.val
}

func main() {
	do, get := &Group{m: map[string]*call{}}, &Group{m: map[string]*call{}}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := func() int { return i }
			println(do.Do("k", f), get.Get("k", f))
		}()
	}
	wg.Wait()
	f := func() int { return 1 }
	println(Spawn(f), SpawnDirect(f), SpawnLate(f))
}
