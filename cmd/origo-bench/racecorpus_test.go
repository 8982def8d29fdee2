package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fakeCorpus is a corpus in miniature: race tests, race-free tests, a
// helper and a method, and files that selectCorpus must leave out.
var fakeCorpus = map[string]string{
	"a_test.go": `package race_test

import "testing"

func TestRaceA(t *testing.T) {
	x := 0
	go func() { x = 1 }()
	_ = x
}

func TestRaceB(t *testing.T) {
}

func TestNoRaceC(t *testing.T) {
	helper()
}

func helper() {
	var y int
	_ = y
}

type T struct{}

func (T) TestRaceMethod() {
	_ = 1
}
`,
	"b_test.go": `package race_test

import "testing"

func TestNoRaceD(t *testing.T) {}
`,
	"main.go": `package main

func main() {}
`,
	"cgo_test.go": `package race_test

import "testing"

func TestRaceCgo(t *testing.T) {}
`,
	"notes.txt": "not Go\n",
}

func writeFakeCorpus(t *testing.T) string {
	dir := t.TempDir()
	for name, src := range fakeCorpus {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestSelectCorpus(t *testing.T) {
	dir := writeFakeCorpus(t)
	names, err := selectCorpus(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a_test.go", "b_test.go"}; !reflect.DeepEqual(names, want) {
		t.Errorf("selectCorpus = %v, want %v (package main and excluded files left out)", names, want)
	}
}

// fakeVetOutput is go vet -json output in both shapes: diagnostics, and an
// analyzer's error, with "#" headers between the objects. DIR stands for
// the corpus directory.
const fakeVetOutput = `# racecorpus
{
	"racecorpus_test [racecorpus.test]": {
		"race": [
			{"posn": "DIR/a_test.go:7:14", "category": "race/data-race", "message": "race on x", "related": [{"posn": "DIR/a_test.go:8:2", "message": "read of x"}]},
			{"posn": "DIR/a_test.go:8:2", "category": "race/concurrent-map-access", "message": "race on x, read"},
			{"posn": "DIR/a_test.go:15:2", "message": "false alarm in C"},
			{"posn": "DIR/a_test.go:19:6", "message": "in helper"},
			{"posn": "DIR/a_test.go:26:2", "message": "in method"},
			{"posn": "DIR/cgo_test.go:5:1", "message": "not in the corpus"}
		],
		"other": [
			{"posn": "DIR/b_test.go:5:1", "message": "another analyzer"}
		]
	}
}
# racecorpus
origo: pointer skipped package racecorpus: points-to sets larger than 40000000; no goroutine analysis
origo: pointer degraded package racecorpus: more than 2000000 nodes
origo: pointer skipped package racecorpus: points-to sets larger than 40000000; no goroutine analysis
{"racecorpus [racecorpus.test]": {"race": {"error": "analysis failed"}, "other": []}}
{"racecorpus_test [racecorpus.test]": {"race": [{"posn": "DIR/a_test.go:7:14", "category": "race/data-race", "message": "race on x"}]}}
`

func TestParseVetJSON(t *testing.T) {
	res, err := parseVetJSON(strings.NewReader(fakeVetOutput))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.diags["race"]); n != 7 {
		t.Errorf("%d race diagnostics, want 7", n)
	}
	if n := len(res.diags["other"]); n != 1 {
		t.Errorf("%d other diagnostics, want 1", n)
	}
	if want := []string{"racecorpus [racecorpus.test]: analysis failed"}; !reflect.DeepEqual(res.errors["race"], want) {
		t.Errorf("race errors = %q, want %q", res.errors["race"], want)
	}
	if len(res.errors["other"]) != 0 {
		t.Errorf("other errors = %q, want none", res.errors["other"])
	}
	// The skip, once; not the degrade, which analyzes the package.
	if want := []string{"origo: pointer skipped package racecorpus: points-to sets larger than 40000000; no goroutine analysis"}; !reflect.DeepEqual(res.skipped, want) {
		t.Errorf("skipped = %q, want %q", res.skipped, want)
	}
	if _, err := parseVetJSON(strings.NewReader(`{"pkg": {"race": [{"posn": 1}]}}`)); err == nil {
		t.Error("parseVetJSON accepted a malformed diagnostic")
	}
}

func TestScore(t *testing.T) {
	dir := writeFakeCorpus(t)
	names, err := selectCorpus(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseCorpus(dir, names)
	if err != nil {
		t.Fatal(err)
	}
	res, err := parseVetJSON(strings.NewReader(strings.ReplaceAll(fakeVetOutput, "DIR", dir)))
	if err != nil {
		t.Fatal(err)
	}
	r := score(c, res.diags["race"])
	if r.files != 2 {
		t.Errorf("files = %d, want 2", r.files)
	}
	if flagged, total := r.count(true); flagged != 1 || total != 2 {
		t.Errorf("TestRace flagged %d/%d, want 1/2", flagged, total)
	}
	if flagged, total := r.count(false); flagged != 1 || total != 2 {
		t.Errorf("TestNoRace flagged %d/%d, want 1/2", flagged, total)
	}
	if r.diags != 6 { // the repeated diagnostic counts once
		t.Errorf("diagnostics = %d, want 6", r.diags)
	}
	if want := map[string]int{"race/data-race": 1, "race/concurrent-map-access": 1, "none": 4}; !reflect.DeepEqual(r.byKind, want) {
		t.Errorf("by kind %v, want %v", r.byKind, want)
	}
	if got, want := kindCounts(r.byKind), " none 4, race/concurrent-map-access 1, race/data-race 1"; got != want {
		t.Errorf("kindCounts = %q, want %q", got, want)
	}
	var unattributed []string
	for _, d := range r.unattributed {
		unattributed = append(unattributed, d.Message)
	}
	if want := []string{"in helper", "in method", "not in the corpus"}; !reflect.DeepEqual(unattributed, want) {
		t.Errorf("unattributed = %q, want %q", unattributed, want)
	}
	var got []string
	for _, tf := range r.tests {
		got = append(got, tf.file+":"+tf.name+":"+strings.Repeat("*", len(tf.diags)))
	}
	want := []string{"a_test.go:TestRaceA:**", "a_test.go:TestRaceB:", "a_test.go:TestNoRaceC:*", "b_test.go:TestNoRaceD:"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tests (file:name:diagnostics) = %q, want %q", got, want)
	}
}

func TestSplitPosn(t *testing.T) {
	for _, tc := range []struct {
		posn      string
		file      string
		line, col int
		ok        bool
	}{
		{"/a/b_test.go:12:3", "/a/b_test.go", 12, 3, true},
		{"C:/a/b_test.go:12:3", "C:/a/b_test.go", 12, 3, true},
		{"b_test.go:12", "b_test.go", 12, 0, true},
		{"-", "", 0, 0, false},
		{"", "", 0, 0, false},
	} {
		file, line, col, ok := splitPosn(tc.posn)
		if file != tc.file || line != tc.line || col != tc.col || ok != tc.ok {
			t.Errorf("splitPosn(%q) = %q, %d, %d, %v; want %q, %d, %d, %v", tc.posn, file, line, col, ok, tc.file, tc.line, tc.col, tc.ok)
		}
	}
}

func TestParseConfirmJSON(t *testing.T) {
	data := `{"racecorpus_test [racecorpus.test]": {"race": [
		{"posn": "/m/a_test.go:7:14", "message": "data race on x; confirmed by TestRaceA under -race",
		 "confirm": {"status": "confirmed", "confirmed": true, "test": "TestRaceA"}},
		{"posn": "/m/a_test.go:16:2", "message": "data race on y",
		 "confirm": {"status": "not confirmed", "confirmed": false, "test": "TestNoRaceC", "reason": "no race in 15 runs"}}
	]}}`
	res, outcomes, err := parseConfirmJSON([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.diags["race"]) != 2 || len(outcomes) != 2 {
		t.Fatalf("diags %v, outcomes %v", res.diags, outcomes)
	}
	a := &testFunc{name: "TestRaceA", race: true, diags: res.diags["race"][:1]}
	c := &testFunc{name: "TestNoRaceC", diags: res.diags["race"][1:]}
	if !outcomes.confirmed(a) || outcomes.confirmed(c) {
		t.Errorf("confirmed: TestRaceA %v, TestNoRaceC %v; want true, false", outcomes.confirmed(a), outcomes.confirmed(c))
	}
	if o := outcomes[res.diags["race"][1].key()]; o.Reason != "no race in 15 runs" || o.Status != "not confirmed" {
		t.Errorf("outcome of the unconfirmed diagnostic %+v", o)
	}
}
