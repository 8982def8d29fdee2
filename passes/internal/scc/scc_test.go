package scc_test

import (
	"reflect"
	"testing"

	"github.com/origo-dev/origo/passes/internal/scc"
)

func TestComponents(t *testing.T) {
	// 0 → 1 ⇄ 2 → 3, 3 → 3, 4 alone.
	edges := [][]int{{1}, {2}, {1, 3}, {3}, nil}
	got := scc.Components(len(edges), func(v int) []int { return edges[v] })
	want := [][]int{{3}, {1, 2}, {0}, {4}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Components = %v, want %v", got, want)
	}
}
