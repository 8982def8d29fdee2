// Command generic races inside a generic method, instantiated twice.
package main

type Box[T any] struct{ v T }

func (b *Box[T]) Set(v T) { b.v = v }

func main() {
	ints := &Box[int]{}
	go ints.Set(1)
	ints.Set(2)
	strs := &Box[string]{}
	strs.Set("only main")
}
