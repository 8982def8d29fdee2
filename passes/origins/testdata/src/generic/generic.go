// Package generic checks instantiated generic functions.
package generic

func use[T any](T) {}

func Spawn[T any](x T) { // want Spawn:`^origins\(go generic.use generic.go:7\)$`
	go use(x)
}

// Instances reach the summary of the generic function.
func Instances() { // want Instances:`^origins\(go generic.use generic.go:7\)$`
	Spawn(1)
	Spawn("s")
}

type Box[T any] struct{ v T }

func (b *Box[T]) Start() { // want Start:`^origins\(go generic.use generic.go:19\)$`
	go use(b.v)
}

func Boxes() { // want Boxes:`^origins\(go generic.use generic.go:19\)$`
	var b Box[int]
	b.Start()
}
