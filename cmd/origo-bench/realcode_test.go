package main

import (
	"bytes"
	"github.com/origo-dev/origo/analyzers/race"
	"os"
	"strings"
	"testing"
)

// keySrc has a function, methods, closures and a package-level closure.
const keySrc = `package p

var hook = func() {
	_ = 1
}

func Top() {
	x := 0
	_ = x
}

type T[K any] struct{ n int }

func (t *T[K]) M() {
	go func() {
		t.n++
	}()
	defer func() {
		f := func() {
			t.n--
		}
		f()
	}()
}

func (T[K]) V() int { return 0 }
`

func TestEnclosing(t *testing.T) {
	ff, err := newFuncFinder("p.go", []byte(keySrc))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		line, col int
		want      string
	}{
		{1, 1, "-"},
		{4, 2, "init$1"},
		{8, 2, "Top"},
		{15, 2, "(*T).M"},
		{16, 3, "(*T).M$1"},
		{18, 2, "(*T).M"},
		{19, 3, "(*T).M$2"},
		{20, 4, "(*T).M$2$1"},
		{22, 3, "(*T).M$2"},
		{26, 22, "T.V"},
		{99, 1, "-"},
	} {
		if got := ff.enclosing(c.line, c.col); got != c.want {
			t.Errorf("enclosing(%d:%d) = %q, want %q", c.line, c.col, got, c.want)
		}
	}
}

func TestReportKey(t *testing.T) {
	got := reportKey("internal/a.go", "(*T).M$1", "race",
		"data race on T.n: write at a.go:16:3 in goroutine (go at\ta.go:15), read at /x/b.go:7 [c.go:1:2] (in lib/d.go:3)")
	want := "internal/a.go (*T).M$1 race: data race on T.n: write at a.go in goroutine (go at a.go), read at b.go [c.go] (in d.go)"
	if got != want {
		t.Errorf("reportKey =\n%q, want\n%q", got, want)
	}
}

func TestKeyReportsNumbersEqualKeys(t *testing.T) {
	dir := t.TempDir()
	if err := copyFile(dir+"/p.go", keySrc); err != nil {
		t.Fatal(err)
	}
	res := &vetResult{diags: map[string][]diag{
		"race": {
			{Posn: dir + "/p.go:20:4", Message: "race at p.go:16:3"},
			{Posn: dir + "/p.go:16:3", Message: "race at p.go:21:4"},
			{Posn: dir + "/p.go:16:3", Message: "race at p.go:21:4"}, // the test variant's copy
			{Posn: dir + "/p.go:16:5", Message: "race at p.go:21:4"},
		},
	}}
	reps, err := keyReports(dir, res)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range reps {
		got = append(got, r.key+" @"+r.posn)
	}
	want := []string{
		"p.go (*T).M$1 race: race at p.go @p.go:16:3",
		"p.go (*T).M$1 race: race at p.go #2 @p.go:16:5",
		"p.go (*T).M$2$1 race: race at p.go @p.go:20:4",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("keyReports:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestKeyReportsPossible checks that a possible data race (race's lower
// tier) gets the key of the report it would be with evidence, marked,
// and that a reported one carries its evidence.
func TestKeyReportsPossible(t *testing.T) {
	dir := t.TempDir()
	if err := copyFile(dir+"/p.go", keySrc); err != nil {
		t.Fatal(err)
	}
	shared := diag{Posn: dir + "/p.go:20:4", Category: "race/data-race", Message: "data race on x at p.go:16:3"}
	shared.Related = append(shared.Related, struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
	}{dir + "/p.go:20:4", race.EvidencePrefix + "a map written on both sides"})
	res := &vetResult{diags: map[string][]diag{
		"race": {
			shared,
			{Posn: dir + "/p.go:16:3", Category: "race/possible-race", Message: race.PossiblePrefix + "data race on y at p.go:21:4; " + race.NoEvidenceNote},
		},
	}}
	reps, err := keyReports(dir, res)
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 2 || reps[0].key != "p.go (*T).M$1 race: data race on y at p.go" || !reps[0].possible || reps[1].possible ||
		reps[0].evidence != "" || reps[1].evidence != "a map written on both sides" {
		t.Errorf("keyReports = %+v", reps)
	}
}

func copyFile(name, src string) error {
	return os.WriteFile(name, []byte(src), 0o644)
}

func TestParseVerdicts(t *testing.T) {
	good := "# comment\n\nm\tk1\tTRUE\tgo at a.go and b.go unordered\nm\tk2\tUNSURE\nm2\tk1\tFALSE\tmu held\n"
	vs, err := parseVerdicts("v", strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(vs["m"]) != 2 || vs["m"]["k1"].word != "TRUE" || vs["m"]["k2"].word != "UNSURE" || vs["m2"]["k1"].line != 5 {
		t.Errorf("parseVerdicts = %v", vs)
	}
	for _, c := range []struct{ in, err string }{
		{"m\tk\tMAYBE\twhy", "v:1: unknown verdict"},
		{"m\tk\t?\tp.go:1:2", "v:1: not judged"},
		{"# c\nm\tk\tFALSE", "v:2: verdict FALSE without a reason"},
		{"m\tk\tTRUE\t ", "v:1: verdict TRUE without a reason"},
		{"m k TRUE why", "v:1: want MODULE<TAB>KEY"},
		{"m\tk\tTRUE\twhy\nm\tk\tFALSE\twhy not", "v:2: key judged already on line 1"},
	} {
		_, err := parseVerdicts("v", strings.NewReader(c.in))
		if err == nil || !strings.HasPrefix(err.Error(), c.err) {
			t.Errorf("parseVerdicts(%q) = %v, want error %q...", c.in, err, c.err)
		}
	}
}

func TestJudgeAndTable(t *testing.T) {
	reps := []realReport{{key: "a"}, {key: "b"}, {key: "c"}, {key: "d"}, {key: "e"}}
	vs := map[string]verdict{
		"a": {key: "a", word: "TRUE", line: 3},
		"b": {key: "b", word: "FALSE", line: 4},
		"c": {key: "c", word: "FALSE", line: 5},
		"d": {key: "d", word: "UNSURE", line: 6},
		"z": {key: "z", word: "TRUE", line: 7},
	}
	row, missing, stale := judge("m", reps, vs)
	if row.reports != 5 || row.true != 1 || row.false != 2 || row.unsure != 1 || row.judged() != 4 || row.unjudged() != 1 || row.precision() != "0.33" {
		t.Errorf("judge = %+v, precision %s", row, row.precision())
	}
	if len(missing) != 1 || missing[0].key != "e" || len(stale) != 1 || stale[0].key != "z" {
		t.Errorf("judge: missing %v, stale %v", missing, stale)
	}
	var b bytes.Buffer
	first := firstLookRow(map[string]verdict{"a": {word: "TRUE"}, "b": {word: "FALSE"}, "x": {word: "FALSE"}, "y": {word: "FALSE"}})
	all := realRow{reports: 3, true: 1, false: 1}
	printRealTable(&b, "module", []realRow{{module: "n", reports: 2, unsure: 1}, row, {module: "f", reports: 1, true: 1, first: first, all: &all}})
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("table:\n%s", b.String())
	}
	for i, want := range []string{
		"n 2 1 0 0 1 1 - - -",
		"m 5 4 1 2 1 1 0.33 - -",
		"f 1 1 1 0 0 0 1.00 3 1 0.50 4 1 3 0.25",
		"total 8 6 2 2 2 2 0.50 3 1 0.50 4 1 3 0.25",
	} {
		if f := strings.Fields(lines[i+1]); strings.Join(f, " ") != want {
			t.Errorf("table line %d = %q, want the fields %q", i+1, lines[i+1], want)
		}
	}
	if firstLookRow(nil) != nil {
		t.Errorf("firstLookRow(nil) != nil")
	}

	// By kind: the rows of two modules' reports added up.
	byKind := make(map[string]*realRow)
	kindOf := func(r realReport) string { return r.kind }
	judgeByKind(byKind, []realReport{{key: "a", kind: "race/data-race"}, {key: "b", kind: "race/data-race"}, {key: "e", kind: "deadlock/double-lock"}}, vs, kindOf)
	judgeByKind(byKind, []realReport{{key: "c", kind: "race/data-race"}}, vs, kindOf)
	if r := byKind["race/data-race"]; r == nil || *r != (realRow{module: "race/data-race", reports: 3, true: 1, false: 2}) {
		t.Errorf("race/data-race row %+v", r)
	}
	if r := byKind["deadlock/double-lock"]; r == nil || *r != (realRow{module: "deadlock/double-lock", reports: 1}) {
		t.Errorf("deadlock/double-lock row %+v", r)
	}
}

// TestVerdictFile checks that the committed verdict file parses and
// judges only modules of the benchmark.
func TestVerdictFile(t *testing.T) {
	for _, name := range []string{"testdata/realcode.verdicts", "testdata/realcode.firstlook"} {
		vs, err := readVerdicts(name)
		if err != nil {
			t.Fatal(err)
		}
		for mod := range vs {
			known := false
			for _, m := range realModules {
				known = known || m.path == mod
			}
			if !known {
				t.Errorf("%s: verdicts for %s, which the benchmark does not vet", name, mod)
			}
		}
	}
}
