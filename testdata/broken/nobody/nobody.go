//go:build amd64

// Package nobody declares a function whose body is in assembly.
package nobody

// Add is implemented in nobody_amd64.s.
func Add(x, y int64) int64

// Run calls the bodyless function from a goroutine.
func Run() {
	go Add(1, 2)
}
