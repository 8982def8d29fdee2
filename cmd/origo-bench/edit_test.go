package main

import "testing"

func TestBodyStart(t *testing.T) {
	src := []byte(`package p

func F() int { return 1 }

type T[P any] struct{}

func (t *T[P]) M() {
}

func (T[P]) N() {}
`)
	for _, tc := range []struct{ name, after string }{
		{"F", " return 1 }"},
		{"T.M", "\n}"},
		{"(*T).M", "\n}"},
		{"T.N", "}"},
	} {
		at, err := bodyStart("p.go", src, tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(src[at : at+len(tc.after)]); got != tc.after {
			t.Errorf("%s: body starts before %q, want %q", tc.name, got, tc.after)
		}
	}
	if _, err := bodyStart("p.go", src, "G"); err == nil {
		t.Errorf("G: no error for a function that does not exist")
	}
}

// TestDescribeRedone checks that the run for facts alone and the run on
// the package are told apart, each compared with its own earlier run.
func TestDescribeRedone(t *testing.T) {
	before := byPackage([]unit{
		{Package: "p", VetxOnly: true, FactsHash: "a"},
		{Package: "p", FactsHash: "b"},
	})
	redone := []unit{
		{Package: "p", FactsHash: "b"},
		{Package: "p", VetxOnly: true, FactsHash: "a"},
	}
	got := describeRedone(redone, before)
	want := "p 0s (facts identical), p (facts only) 0s (facts identical)"
	if got != want {
		t.Errorf("describeRedone = %q, want %q", got, want)
	}
}
