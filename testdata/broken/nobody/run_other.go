//go:build !amd64

package nobody

// Run calls Add from a goroutine.
func Run() {
	go Add(1, 2)
}
