// Package chains races between main and a goroutine that another
// goroutine starts: the report names the go statements and the calls
// that reached them (TestStartChains checks its related positions).
package main

var x int

func main() {
	start()
	x = 2 // want `data race on x: write at main.go:\d+ \(main goroutine\) vs write at main.go:\d+ \(goroutine started at main.go:\d+\)`
}

func start() { go worker() }

func worker() { spawn() }

func spawn() { go inner() }

func inner() { x = 1 }
