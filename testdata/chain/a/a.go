// Command a uses b and, through it, c, which it does not import.
package main

import "example.com/chain/b"

func main() { // want main:`^origins\(go c.worker c.go:23 multi; go c.worker c.go:34\)$`
	s := b.New()
	s.Pool().Grow() // a method of c's type, reached through b's API
	s.Pool().Submit(func() {})
}

// Counter is exported, but no package can import a command: no summary
// is made for it.
func Counter() *int { return new(int) }
