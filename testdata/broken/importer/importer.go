// Package importer type-checks, but it imports typeerr, which does not:
// origo says so in one line rather than analyze it on broken types.
package importer

import "example.com/broken/typeerr"

func Start() {
	n := 0
	go func() { n = typeerr.Answer() }()
	n++
}
