// Package indices pairs goroutines that write elements of one slice:
// at an index each goroutine gets from its own loop iteration (silent),
// and at indices that may be the same (reported).
package main

import (
	"slices"
	"sync"
)

func main() {
	perIterationIndex()
	parameterIndex()
	threeClauseParameter()
	namedWorker()
	arrayElements()
	elementField()
	readThenWrite()
	waitGroupGo()
	constantIndex()
	appended()
	clipped()
	sharedIndex()
	computedIndex()
	outerLoop()
	outerLoopJoined()
	innerLoop()
	sliceParameter(make([]int, 4))
	twoSites()
	indexReassigned()
	recursion()
	respawn()
	rangeOverSlice([]string{"a", "b"})
	threeClauseCaptured()
	halvedArgument()
	counterChangedInBody()
	counterOfAnotherLoop()
	pointerToElement()
	methodOfElement()
	pointerToFirst()
	workerResults(4)
	sharedWorkerResults(4)
	namedResult(4)
	namedResultCaptured(4)
	namedFromParameter(make([]int, 4))
}

func f(i int) int { return i }

// The parallel-for: i is per-iteration since Go 1.22.
func perIterationIndex() {
	results := make([]int, 4)
	var wg sync.WaitGroup
	for i := range len(results) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = f(i) // silent "own-element"
		}()
	}
	wg.Wait()
}

func parameterIndex() {
	results := make([]int, 4)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			results[i] = f(i) // silent "own-element"
		}(i)
	}
	wg.Wait()
}

func threeClauseParameter() {
	data := make([]int, 4)
	done := make(chan bool)
	for i := 0; i < len(data); i++ {
		go func(i int) {
			data[i] = 42 // silent "own-element"
			done <- true
		}(i)
	}
	for range data {
		<-done
	}
}

func worker(out []int, i int, wg *sync.WaitGroup) {
	defer wg.Done()
	out[i] = f(i) // silent "own-element"
}

func namedWorker() {
	results := make([]int, 4)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go worker(results, i, &wg)
	}
	wg.Wait()
}

func arrayElements() {
	var data [4]int
	var wg sync.WaitGroup
	wg.Add(len(data))
	for p := 0; p < len(data); p++ {
		go func(p int) {
			data[p]++ // silent "own-element"
			wg.Done()
		}(p)
	}
	wg.Wait()
}

type point struct{ x, y int }

func elementField() {
	points := make([]point, 4)
	var wg sync.WaitGroup
	for i := range points {
		wg.Add(1)
		go func() {
			defer wg.Done()
			points[i].x = i // silent "own-element"
			points[i].y = points[i].x
		}()
	}
	wg.Wait()
}

func readThenWrite() {
	counts := make([]int, 4)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if counts[i] == 0 {
				counts[i] = 1 // silent "own-element"
			}
		}()
	}
	wg.Wait()
}

func waitGroupGo() {
	results := make([]int, 4)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() { results[i] = f(i) }) // silent "own-element"
	}
	wg.Wait()
}

// Racy twins.

func constantIndex() {
	results := make([]int, 4)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[0] = f(i) // want `data race on an element of \[\]int: write at main.go:\d+ \(goroutine started at main.go:\d+, in a loop\)`
		}()
	}
	wg.Wait()
}

func appended() {
	var results []int
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results = append(results, i) // want `concurrent append: data race on results`
		}()
	}
	wg.Wait()
}

// base is shared by goroutines that each append to a copy: the full
// slice expression, and slices.Clip, leave no room, so each append makes
// a new array and never writes base's. Only the last one, with room,
// writes base's array.
var base = make([]int, 3, 8)

func clipped() {
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := append(base[:len(base):len(base)], i)
			clip := append(slices.Clip(base), i)
			roomy := append(base[:len(base)], i) // want `concurrent append: data race on an element of \[\]int: append at [a-z]+.go:\d+ \(goroutine started at [a-z]+.go:\d+, in a loop\) vs append at [a-z]+.go:\d+`
			_ = mine[0] + clip[0] + roomy[0]
		}()
	}
	wg.Wait()
}

func sharedIndex() {
	results := make([]int, 4)
	j := 0
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[j] = 1 // want `data race on an element of \[\]int`
		}()
		j++ // want `data race on j`
	}
	wg.Wait()
}

func computedIndex() {
	results := make([]int, 4)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i/2] = i // want `data race on an element of \[\]int`
		}()
	}
	wg.Wait()
}

// Each round starts goroutines at the same indices as the last, on the
// same slice, and does not wait for them.
func outerLoop() {
	results := make([]int, 4)
	for range 2 {
		for i := range 4 {
			go func() {
				results[i] = i // want `data race on an element of \[\]int`
			}()
		}
	}
}

// Each round waits for its goroutines before the next round starts
// goroutines at the same indices: silent.
func outerLoopJoined() {
	results := make([]int, 4)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(4)
		for i := range 4 {
			go func() {
				results[i] = i // silent "own-element"
				wg.Done()
			}()
		}
		wg.Wait()
	}
}

func innerLoop() {
	results := make([]int, 4)
	for i := range 4 {
		for range 2 {
			go func() {
				results[i] = i // want `data race on an element of \[\]int`
			}()
		}
	}
}

// Two calls may share the slice: the indices repeat from one to the next.
func sliceParameter(results []int) {
	for i := range results {
		go func() {
			results[i] = i // want `data race on an element of \[\]int`
		}()
	}
}

// Two sites write the same index in one iteration.
func twoSites() {
	results := make([]int, 4)
	for i := range 4 {
		go func() { results[i] = 1 }() // want `data race on an element of \[\]int`
		go func() { results[i] = 2 }()
	}
}

func indexReassigned() {
	results := make([]int, 4)
	for i := range 4 {
		i = 0
		go func() {
			results[i] = 1 // want `data race on an element of \[\]int`
		}()
	}
}

// The entry runs again inside the goroutine with the next index, which
// the goroutine of the next iteration writes too.
func recursiveWorker(out []int, i int, wg *sync.WaitGroup) {
	defer wg.Done()
	out[i] = i // want `data race on an element of \[\]int`
	if i+1 < len(out) {
		wg.Add(1)
		recursiveWorker(out, i+1, wg)
	}
}

func recursion() {
	results := make([]int, 4)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go recursiveWorker(results, i, &wg)
	}
	wg.Wait()
}

func respawningWorker(out []int, i int) {
	out[i] = i // want `data race on an element of \[\]int`
	if i+1 < len(out) {
		go respawningWorker(out, i+1)
	}
}

func respawn() {
	results := make([]int, 4)
	for i := range results {
		go respawningWorker(results, i)
	}
}

func rangeOverSlice(items []string) []int {
	lengths := make([]int, len(items))
	var wg sync.WaitGroup
	for i, x := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lengths[i] = len(x) // silent "own-element"
		}()
	}
	wg.Wait()
	return lengths
}

// Each iteration of a three-clause loop has its own i since Go 1.22.
func threeClauseCaptured() {
	results := make([]int, 8)
	var wg sync.WaitGroup
	for i := 0; i < len(results); i += 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = i // silent "own-element"
		}()
	}
	wg.Wait()
}

func halvedArgument() {
	results := make([]int, 4)
	for i := range 8 {
		go func(j int) {
			results[j] = j // want `data race on an element of \[\]int`
		}(i / 2)
	}
}

// The body steps i back: the next iteration has the same i.
func counterChangedInBody() {
	results := make([]int, 4)
	for i := 0; i < len(results); i++ {
		go func() {
			results[i] = i // want `data race on an element of \[\]int`
		}()
		if i%2 == 1 {
			i-- // want `data race on i`
		}
	}
}

// The index counts the outer loop, which the inner one repeats.
func counterOfAnotherLoop() {
	results := make([]int, 4)
	for i := range 4 {
		for range 2 {
			go func(i int) {
				results[i] = i // want `data race on an element of \[\]int`
			}(i)
		}
	}
}

func pointerToElement() {
	points := make([]point, 4)
	var wg sync.WaitGroup
	for i := range points {
		wg.Add(1)
		go func(p *point) {
			defer wg.Done()
			p.x = i // silent "own-element"
		}(&points[i])
	}
	wg.Wait()
}

func (p *point) move() { p.y++ } // silent "own-element"

func methodOfElement() {
	var points [4]point
	for i := 0; i < len(points); i++ {
		go points[i].move()
	}
}

func pointerToFirst() {
	points := make([]point, 4)
	for range 4 {
		go func(p *point) {
			p.x++ // want `data race on an element of \[\]point\.x`
		}(&points[0])
	}
}

type workerResult struct {
	ok, failed int
	first      bool
	last       int
}

// workerResults gives each worker a pointer to its own result, which a
// helper the worker calls fills: the helper's writes are to each
// worker's own element (grpc's soak workers). Silent.
func workerResults(n int) {
	results := make([]workerResult, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			runWorker(id, &results[id])
		}(i)
	}
	wg.Wait()
}

func runWorker(id int, r *workerResult) {
	if !r.first {
		r.first = true // silent "own-element"
	}
	record(r, id)
}

// record is two calls down from the worker.
func record(r *workerResult, v int) {
	r.ok++     // silent "own-element"
	r.last = v // silent "own-element"
}

// sharedWorkerResults gives every worker the first result: its helper
// writes one element from every worker.
func sharedWorkerResults(n int) {
	results := make([]workerResult, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			fillShared(id, &results[0])
		}(i)
	}
	wg.Wait()
}

func fillShared(id int, r *workerResult) {
	r.failed += id // want `data race on an element of \[\]workerResult.failed`
}

// A named result that the goroutines capture holds the one slice the
// function made before starting them (go/ssa stores it back as the
// function returns it).
func namedResult(n int) (results []int) {
	results = make([]int, n)
	var wg sync.WaitGroup
	wg.Add(n)
	for i := range n {
		go func(i int) {
			defer wg.Done()
			results[i] = i // silent "own-element"
		}(i)
	}
	wg.Wait()
	return results
}

// The same, with the per-iteration index captured too.
func namedResultCaptured(n int) (out []int) {
	out = make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = f(i) // silent "own-element"
		}()
	}
	wg.Wait()
	return
}

// A named result that holds its caller's slice: two calls may share it.
func namedFromParameter(dst []int) (results []int) {
	results = dst
	for i := range results {
		go func() {
			results[i] = i // want `data race on an element of \[\]int`
		}()
	}
	return results
}
