package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestRealBugsFile checks that the committed bug list parses, with
// enough bugs of each kind for the benchmark's figures to mean
// something.
func TestRealBugsFile(t *testing.T) {
	bugs, err := readRealBugs("testdata/realbugs.tsv")
	if err != nil {
		t.Fatal(err)
	}
	kinds := make(map[string]int)
	for _, b := range bugs {
		kinds[b.kind]++
		if b.buggy == b.fixed {
			t.Errorf("%s: buggy and fixed release are both %s", b.id, b.buggy)
		}
	}
	if len(bugs) < 15 || kinds["race"] == 0 || kinds["deadlock"]+kinds["leak"] == 0 {
		t.Errorf("%d bugs, by kind %v: want at least 15, races and blocking bugs both", len(bugs), kinds)
	}
}

func TestParseRealBugs(t *testing.T) {
	good := "# a comment\n\nb1\tm\tv1.0.0\tv1.0.1\trace\ta/x.go:3,y.go:9\ta/x.go:4,-\thttps://u\tdesc\n"
	bugs, err := parseRealBugs("f", strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(bugs) != 1 {
		t.Fatalf("got %d bugs", len(bugs))
	}
	b := bugs[0]
	if b.id != "b1" || b.kind != "race" || len(b.lines) != 2 || b.lines[0] != (bugLine{"a/x.go", 3}) || len(b.fixedLines) != 1 || b.line != 3 {
		t.Errorf("bug = %+v", b)
	}
	if got := strings.Join(bugPackages(b.lines), " "); got != "./a ./." {
		t.Errorf("packages = %q", got)
	}
	for _, bad := range []struct{ text, want string }{
		{"b1\tm\tv1\tv2\trace\tx.go:1\t-\tu\n", "want 9"},
		{"b1\tm\tv1\tv2\tslow\tx.go:1\t-\tu\td\n", "unknown kind"},
		{"b1\tm\tv1\tv2\trace\tx.go\t-\tu\td\n", "bad LINES"},
		{"b1\tm\tv1\tv2\trace\t-\t-\tu\td\n", "bad LINES"},
		{"b1\tm\tv1\tv2\trace\tx.go:1\t-\tu\td\nb1\tm\tv1\tv2\trace\tx.go:1\t-\tu\td\n", "listed already on line 1"},
	} {
		_, err := parseRealBugs("f", strings.NewReader(bad.text))
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("parse %q: error %v, want one saying %q", bad.text, err, bad.want)
		}
	}
}

// TestBugReports checks what counts as finding a bug: a report of its
// kind naming both accesses of a race (at its position, a related
// position or in its message), one operation of a leak.
func TestBugReports(t *testing.T) {
	race := []bugLine{{"pkg/a.go", 10}, {"pkg/b.go", 20}}
	d := func(posn, msg string, related ...string) diag {
		x := diag{Posn: posn, Message: msg}
		for _, r := range related {
			x.Related = append(x.Related, struct {
				Posn    string `json:"posn"`
				Message string `json:"message"`
			}{r, ""})
		}
		return x
	}
	res := &vetResult{diags: map[string][]diag{
		"race": {
			d("/m/pkg/a.go:10:2", "data race on x: write at a.go:10 vs read at b.go:20"),
			d("/m/pkg/a.go:10:2", "data race on y: write at a.go:10 vs read at c.go:5"),
			d("/m/pkg/c.go:1:1", "data race on z", "/m/pkg/a.go:10:3", "/m/pkg/b.go:20:1"),
		},
		"blocking": {d("/m/pkg/a.go:10:5", "send blocks forever")},
	}}
	if got := len(bugReports(res, "race", race, false)); got != 2 {
		t.Errorf("race: %d reports count, want 2 (the message's pair, the related positions' pair)", got)
	}
	if got := len(bugReports(res, "leak", race[:1], false)); got != 1 {
		t.Errorf("leak: %d reports count, want the blocking one", got)
	}
	if got := len(bugReports(res, "deadlock", race, false)); got != 0 {
		t.Errorf("deadlock: %d reports count, want 0 (one operation of two)", got)
	}
	if got := len(bugReports(res, "race", nil, false)); got != 0 {
		t.Errorf("no lines: %d reports count", got)
	}
	res.diags["race"][0].Category = "race/possible-race"
	if got, all := len(bugReports(res, "race", race, false)), len(bugReports(res, "race", race, true)); got != 1 || all != 2 {
		t.Errorf("a possible race counts %d times in the default tier, %d with -all; want 1, 2", got, all)
	}
}

func TestPrintBugTable(t *testing.T) {
	var b bytes.Buffer
	printBugTable(&b, []bugRow{
		{bug: realBug{id: "a", kind: "race"}, found: true, foundAll: true},
		{bug: realBug{id: "b", kind: "race"}, found: true, foundAll: true, stillReported: true},
		{bug: realBug{id: "c", kind: "leak"}, foundAll: true},
	}, false)
	out := b.String()
	for _, want := range []string{
		"a                                    race     found    found    silent\n",
		"b                                    race     found    found    reported\n",
		"c                                    leak     missed   found    -\n",
		"found 2 of 3 bugs (67%); race 2/2; leak 0/1\n",
		"with -all (race's possible data races too): found 3 of 3 bugs (100%)\n",
		"fixed release silent on 1 of the 2 found (50%)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

// TestSelfPair checks that a race between two executions of one of the
// bug's lines (two calls both writing at it) counts, and that one naming
// a bug line and another line does not by this rule.
func TestSelfPair(t *testing.T) {
	lines := []bugLine{{"balancer.go", 56}, {"balancer.go", 55}}
	d := diag{Posn: "/m/balancer.go:56:6", Message: "data race on RoundRobin.ChunkSize: write at balancer.go:56 vs write at balancer.go:56"}
	d.Related = append(d.Related, struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
	}{"/m/balancer.go:56:6", "the other write of RoundRobin.ChunkSize (concurrent methods)"})
	res := &vetResult{diags: map[string][]diag{"race": {d}}}
	if got := len(bugReports(res, "race", lines, false)); got != 1 {
		t.Errorf("a write/write race at the bug's line: %d reports count, want 1", got)
	}
	d.Related[0].Posn = "/m/other.go:9:1"
	res.diags["race"][0] = d
	if got := len(bugReports(res, "race", lines, false)); got != 0 {
		t.Errorf("a race between the bug's line and another: %d reports count, want 0", got)
	}
}
