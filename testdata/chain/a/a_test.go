package main

import (
	"testing"

	"example.com/chain/b"
)

func TestServe(t *testing.T) {
	t.Parallel()
	t.Run("sub", func(t *testing.T) {
		t.Parallel()
		b.New()
	})
}
