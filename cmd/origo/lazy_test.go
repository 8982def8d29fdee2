package main

import (
	"bytes"
	"testing"
)

// TestLazyLoader checks that loading each package only when its
// analysis is about to run changes no output: the JSON of the demo
// (whose dependencies, fmt, sync and theirs, are loaded lazily too),
// with a budget of one package at a time, is the same as with every
// package loaded up front; and that a module with packages that do not
// type-check is left to the loading up front, which says why.
func TestLazyLoader(t *testing.T) {
	functional(t)
	run := func(lazy bool, budget int64, patterns ...string) (out string, lazyRes *result) {
		t.Helper()
		oldLazy, oldBudget := lazyLoad, lazyBudget
		defer func() { lazyLoad, lazyBudget = oldLazy, oldBudget }()
		lazyLoad, lazyBudget = lazy, budget
		var res *result
		if lazy {
			lazyRes = analyzeLazily(suite, patterns, true, "", nil)
			res = lazyRes
		}
		if res == nil {
			res = analyze(suite, patterns, true, "", nil)
		}
		var buf bytes.Buffer
		if err := printJSON(&buf, res); err != nil {
			t.Fatal(err)
		}
		for _, e := range res.errors {
			buf.WriteString("error: " + e + "\n")
		}
		return buf.String(), lazyRes
	}

	t.Run("demo", func(t *testing.T) {
		t.Chdir("../../testdata/demo")
		eager, _ := run(false, 0, ".")
		for _, budget := range []int64{1} {
			lazy, res := run(true, budget, ".")
			if res == nil {
				t.Fatalf("budget %d: the demo was not analyzed lazily", budget)
			}
			if lazy != eager || len(res.diags) == 0 {
				t.Errorf("budget %d: lazily:\n%s\nloaded up front:\n%s\nwant the same, and findings", budget, lazy, eager)
			}
		}
	})
	t.Run("broken", func(t *testing.T) {
		t.Chdir("../../testdata/broken")
		eager, _ := run(false, 0, "./typeerr", "./ok")
		lazy, res := run(true, lazyBudget, "./typeerr", "./ok")
		t.Logf("%s", lazy)
		if res != nil {
			t.Errorf("a package with a type error was analyzed lazily")
		}
		if lazy != eager {
			t.Errorf("lazily:\n%s\nloaded up front:\n%s\nwant the same", lazy, eager)
		}
	})
}
