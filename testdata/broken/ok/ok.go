// Package ok is fine; it is analyzed even though its neighbours are not.
package ok

func Start() { // starts a goroutine, so -dump=origins shows a fact here
	go func() {}()
}
