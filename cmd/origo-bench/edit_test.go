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
