// Package nested checks how summaries close over callees and goroutines.
package nested

func leaf() {}

func spawnLeaf() { // want spawnLeaf:`^origins\(go nested.leaf nested.go:7\)$`
	go leaf()
}

// Caller starts what its callee starts.
func Caller() { // want Caller:`^origins\(go nested.leaf nested.go:7\)$`
	spawnLeaf()
}

// CallerInLoop: a site reached through a call in a loop may run many times.
func CallerInLoop(n int) { // want CallerInLoop:`^origins\(go nested.leaf nested.go:7 multi\)$`
	for range n {
		spawnLeaf()
	}
}

// Nested: the goroutine started by the child is the child's child.
func Nested() { // want Nested:`^origins\(go nested.leaf nested.go:7 <1; go nested.spawnLeaf nested.go:24\)$`
	go spawnLeaf()
}

// NestedMulti: children of an origin that runs many times run many times.
func NestedMulti(n int) { // want NestedMulti:`^origins\(go nested.leaf nested.go:7 multi <1; go nested.spawnLeaf nested.go:30 multi\)$`
	for range n {
		go spawnLeaf()
	}
}

// Recursive functions reach a fixpoint.
func even(n int) { // want even:`^origins\(go nested.leaf nested.go:45\)$`
	if n > 0 {
		odd(n - 1)
	}
}

func odd(n int) { // want odd:`^origins\(go nested.leaf nested.go:45\)$`
	if n > 0 {
		even(n - 1)
	}
	go leaf()
}

// Restart starts itself: every goroutine may start another.
func Restart() { // want Restart:`^origins\(go nested.Restart nested.go:50 multi\)$`
	go Restart()
}

// Quiet starts nothing and carries no fact.
func Quiet() {
	leaf()
}
