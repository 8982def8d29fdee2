// Package undef does not type-check, on purpose: an undefined identifier
// and an assignment of the wrong type. The directive analyzer, which
// needs no types, still checks its //origo:ignore comments; the others
// say once that they did not analyze it.
package undef

import "sync"

var mu sync.Mutex

func Count() int {
	var n int
	n = "many"
	go func() {
		mu.Lock()
		n++ //origo:ignore rase the count is approximate
		mu.Unlock()
	}()
	return n + missing
}
