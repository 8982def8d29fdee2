package main

import (
	"testing"

	"example.com/chain/b"
)

func TestServe(t *testing.T) { // want TestServe:`^origins\(t.Run a.TestServe\$1 a_test.go:11 parallel; go c.worker c.go:23 multi <0\)$`
	t.Parallel()
	t.Run("sub", func(t *testing.T) {
		t.Parallel()
		b.New()
	})
}
