package main

import (
	"slices"
	"testing"
)

// TestScoreCorpus checks how two runs' measurements of a target count:
// each package once, by its trouble and by whether the runs agree.
func TestScoreCorpus(t *testing.T) {
	ok := func(pkg string) unit { return unit{Package: pkg, OutHash: "o", FactsHash: "f"} }
	panicked := ok("b")
	panicked.Trouble, panicked.ExitCode = []string{"panic: runtime error: index out of range"}, 2
	internal := ok("c")
	internal.Trouble = []string{"origo: internal error in shb on package c: boom (results for this package are incomplete)"}
	skipped := ok("d")
	skipped.Trouble = []string{"origo: pointer skipped package d: more than 2000000 nodes"}
	otherFacts := ok("e")
	otherFacts.FactsHash = "g"
	factsOnly := ok("a")
	factsOnly.VetxOnly = true
	runs := [2][]unit{
		{ok("a"), factsOnly, panicked, internal, skipped, ok("e")},
		{ok("a"), factsOnly, ok("b"), internal, skipped, otherFacts},
	}
	var row corpusRow
	scoreCorpus(&row, runs)
	if row.packages != 6 || row.panics != 1 || row.internal != 1 || row.skipped != 1 || row.differ != 1 {
		t.Errorf("packages %d, panics %d, internal %d, skipped %d, differ %d; want 6, 1, 1, 1, 1",
			row.packages, row.panics, row.internal, row.skipped, row.differ)
	}
	if !slices.Contains(row.details, "e: runs differ (output o vs o, facts f vs g)") {
		t.Errorf("details do not name the package whose facts differ:\n%q", row.details)
	}
}

func TestTrouble(t *testing.T) {
	out := "x.go:1:2: data race on s.panic\npanic: boom\norigo: internal error in race on package p: x\norigo: pointer skipped package q: too big\n"
	if got := trouble(out); len(got) != 3 {
		t.Errorf("trouble found %d lines, want 3: %q", len(got), got)
	}
}
