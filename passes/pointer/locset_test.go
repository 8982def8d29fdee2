package pointer

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLocSet checks locSet's operations against a map, on random sets
// that are dense in places and sparse in others, as points-to sets are.
func TestLocSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	randomSet := func() (*locSet, map[nodeID]bool) {
		s, m := new(locSet), map[nodeID]bool{}
		for range rng.IntN(200) {
			x := nodeID(rng.IntN(1 << 12))
			if rng.IntN(4) == 0 {
				x = nodeID(rng.IntN(1 << 22))
			}
			if got, want := s.insert(x), !m[x]; got != want {
				t.Fatalf("insert(%d) = %v, want %v", x, got, want)
			}
			m[x] = true
		}
		return s, m
	}
	check := func(what string, s *locSet, m map[nodeID]bool) {
		t.Helper()
		want := slices.Sorted(maps.Keys(m))
		if got := s.appendTo(nil); !slices.Equal(got, want) {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
		if s.len() != len(m) || s.isEmpty() != (len(m) == 0) {
			t.Fatalf("%s: len %d, isEmpty %v; want %d members", what, s.len(), s.isEmpty(), len(m))
		}
		for x := range m {
			if !s.has(x) {
				t.Fatalf("%s: has(%d) = false", what, x)
			}
		}
		for i := 1; i < len(s.words); i++ {
			if s.words[i-1].key >= s.words[i].key || s.words[i].bits == 0 {
				t.Fatalf("%s: words out of order or empty at %d", what, i)
			}
		}
	}
	var fresh locSet
	for range 500 {
		s, ms := randomSet()
		o, mo := randomSet()
		check("insert", s, ms)

		u := &locSet{words: slices.Clone(s.words)}
		u.unionWith(o)
		mu := maps.Clone(ms)
		maps.Copy(mu, mo)
		check("unionWith", u, mu)

		s.addAll(o, &fresh)
		mf := map[nodeID]bool{}
		for x := range mo {
			if !ms[x] {
				mf[x] = true
			}
		}
		check("addAll", s, mu)
		check("addAll's fresh", &fresh, mf)

		s.clear()
		check("clear", s, nil)
	}
}
