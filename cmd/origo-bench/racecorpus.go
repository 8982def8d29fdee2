package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The race corpus is Go's own labelled set of race tests: every TestRace*
// function has a race that the runtime's race detector reports, every
// TestNoRace* function has none. Scoring origo's race analyzer on it says
// how much of what a dynamic detector finds origo finds statically, and
// how often it cries wolf on code that is known to be race-free.
const (
	racePrefix   = "TestRace"
	noRacePrefix = "TestNoRace"
	corpusPkg    = "race_test"
)

// corpusExcluded are corpus files that cannot be vetted in a module of
// their own: they import std-internal packages (internal/testenv,
// internal/synctest). Files of another package (cgo_test_main.go is a
// package main run by cgo_test.go) are left out by their package clause.
var corpusExcluded = []string{"cgo_test.go", "synctest_test.go"}

// benchRaceCorpus scores an analyzer of origo on the race corpus of the
// Go installation that runs it.
func benchRaceCorpus(args []string) error {
	fs := flag.NewFlagSet("racecorpus", flag.ExitOnError)
	origo := fs.String("origo", "", "the origo binary (default: built from the repository of the current directory)")
	analyzer := fs.String("analyzer", "race", "score the diagnostics of this analyzer")
	keep := fs.String("keep", "", "write the scratch module to this directory and keep it")
	verbose := fs.Bool("v", false, "list missed tests, false alarms and unattributed diagnostics")
	confirm := fs.Bool("confirm", false, "run origo -confirm on the corpus (standalone, -tags=race: it runs the corpus's tests) and score the confirmations: of the flagged TestRace functions how many are confirmed; a TestNoRace confirmed is a bug of -confirm")
	budget := fs.Duration("confirm.budget", 0, "origo's -confirm.budget (0: its default)")
	fs.Parse(args)
	if fs.NArg() > 0 {
		usage()
	}
	goroot, goversion, err := goEnv()
	if err != nil {
		return err
	}
	corpusDir := filepath.Join(goroot, "src", "runtime", "race", "testdata")
	names, err := selectCorpus(corpusDir)
	if err != nil {
		return err
	}
	tmp, mod, err := scratch(*keep, "racecorpus")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := writeCorpusModule(mod, "racecorpus", corpusDir, names); err != nil {
		return err
	}
	if *origo, err = origoBinary(*origo, tmp); err != nil {
		return err
	}
	var res *vetResult
	var outcomes confirmations
	var summary string
	var elapsed time.Duration
	if *confirm {
		start := time.Now()
		flags := []string{"-tags=race"}
		if *budget > 0 {
			flags = append(flags, "-confirm.budget="+budget.String())
		}
		run, err := runConfirmJSON(mod, *origo, flags...)
		if err != nil {
			return err
		}
		if len(run.errors) > 0 {
			return fmt.Errorf("origo -confirm in %s:\n%s", mod, strings.Join(run.errors, "\n"))
		}
		res, outcomes, summary = run.res, run.outcomes, strings.Join(run.summary, "\n")
		elapsed = time.Since(start)
	} else if res, err = runVetJSON(mod, *origo, "-race"); err != nil {
		return err
	}
	c, err := parseCorpus(mod, names)
	if err != nil {
		return err
	}
	r := score(c, res.diags[*analyzer])
	printReport(r, goversion, *verbose)
	if *confirm {
		printConfirmed(r, outcomes, summary, elapsed, *verbose)
	}
	if len(res.diags[*analyzer]) == 0 {
		others := strings.Join(slices.Sorted(maps.Keys(res.diags)), " ")
		fmt.Printf("warning: no diagnostics from analyzer %s (analyzers that reported: %s)\n", *analyzer, cmp.Or(others, "none"))
	}
	for name, errs := range res.errors {
		if name != *analyzer && !*verbose {
			continue
		}
		for _, e := range errs {
			fmt.Printf("warning: analyzer %s failed on %s\n", name, e)
		}
	}
	if *keep != "" {
		fmt.Printf("scratch module kept in %s\n", mod)
	}
	return nil
}

// goEnv returns the GOROOT and version of the go command, which are the
// corpus and the toolchain that vet it.
func goEnv() (goroot, goversion string, err error) {
	out, err := exec.Command("go", "env", "GOROOT", "GOVERSION").Output()
	if err != nil {
		return "", "", fmt.Errorf("go env: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 {
		return "", "", fmt.Errorf("go env: unexpected output %q", out)
	}
	return lines[0], lines[1], nil
}

// selectCorpus returns the base names, sorted, of the corpus files that
// can be vetted in a module of their own: the files of package race_test
// but the excluded ones. The package is read from the package clause so
// that a file added to the corpus in another package is left out too.
func selectCorpus(dir string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var names []string
	fset := token.NewFileSet()
	for _, path := range paths {
		name := filepath.Base(path)
		if slices.Contains(corpusExcluded, name) {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.PackageClauseOnly)
		if err != nil {
			return nil, err
		}
		if f.Name.Name == corpusPkg {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no files of package %s in %s", corpusPkg, dir)
	}
	slices.Sort(names)
	return names, nil
}

// runVetJSON runs origo as the vet tool on the module in dir, with the
// extra go vet flags (the race corpus wants -race: some of its files are
// built only with the race detector, //go:build race). With -json go vet exits 0 even when there are findings, so a
// failure means that something did not build or an analysis broke.
func runVetJSON(dir, origo string, flags ...string) (*vetResult, error) {
	return runVetJSONOn(dir, origo, []string{"./..."}, flags...)
}

// runVetJSONOn is runVetJSON on the packages pkgs of the module.
func runVetJSONOn(dir, origo string, pkgs []string, flags ...string) (*vetResult, error) {
	args := append([]string{"vet"}, flags...)
	cmd := exec.Command("go", append(append(args, "-vettool="+origo, "-json"), pkgs...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off") // a go.work above a kept directory must not claim it
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go vet in %s: %v\n%s", dir, err, lastLines(stderr.String()+stdout.String(), 30))
	}
	// Go 1.26 prints the JSON to stdout, earlier releases to stderr.
	return parseVetJSON(io.MultiReader(&stdout, strings.NewReader("\n"), &stderr))
}

// diag is one diagnostic of go vet -json.
type diag struct {
	Posn     string `json:"posn"`     // file:line:col
	Category string `json:"category"` // its kind (see package kinds)
	Message  string `json:"message"`
	Related  []struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
	} `json:"related"`
}

// diagKey identifies a diagnostic that go vet reported twice (a package
// and its test variant).
type diagKey struct{ posn, category, message string }

func (d diag) key() diagKey { return diagKey{d.Posn, d.Category, d.Message} }

// confirmOutcome is what origo -confirm says of a diagnostic (the
// fields of its confirm.Result that the scores read).
type confirmOutcome struct {
	Status    string `json:"status"`
	Confirmed bool   `json:"confirmed"`
	Test      string `json:"test"`
	Witness   string `json:"witness"`
	Command   string `json:"command"`
	Reason    string `json:"reason"`
}

// confirmations are origo -confirm's outcomes, by diagnostic.
type confirmations map[diagKey]confirmOutcome

// confirmRun is the output of one run of origo -json -confirm.
type confirmRun struct {
	res      *vetResult
	outcomes confirmations
	summary  []string // its lines "origo: -confirm...": the summary, then notes
	errors   []string // its other lines "origo: ...", when it exited with an error but printed its findings
}

// runConfirmJSON runs the standalone origo with -json -confirm and the
// flags on the module in dir and returns its diagnostics and their
// outcomes. A run that failed (a package that does not build) but
// printed its findings is returned with its errors.
func runConfirmJSON(dir, origo string, flags ...string) (*confirmRun, error) {
	args := append([]string{"-json", "-confirm"}, flags...)
	cmd := exec.Command(origo, append(args, "./...")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		return nil, fmt.Errorf("origo -confirm in %s: %v", dir, err)
	}
	run := &confirmRun{}
	for line := range strings.SplitSeq(stderr.String(), "\n") {
		switch {
		case strings.HasPrefix(line, "origo: -confirm"):
			run.summary = append(run.summary, line)
		case strings.HasPrefix(line, "origo: "):
			run.errors = append(run.errors, strings.TrimPrefix(line, "origo: "))
		}
	}
	var perr error
	run.res, run.outcomes, perr = parseConfirmJSON(stdout.Bytes())
	if err != nil && (perr != nil || len(run.summary) == 0) {
		return nil, fmt.Errorf("origo -confirm in %s: %v\n%s", dir, err, lastLines(stderr.String(), 30))
	}
	if err == nil {
		run.errors = nil // lines of a run that succeeded: none are errors
	}
	return run, perr
}

// parseConfirmJSON decodes the output of origo -json -confirm: package →
// analyzer → diagnostics, each with its "confirm" outcome.
func parseConfirmJSON(data []byte) (*vetResult, confirmations, error) {
	var tree map[string]map[string][]struct {
		diag
		Confirm *confirmOutcome `json:"confirm"`
	}
	if err := json.Unmarshal(data, &tree); err != nil {
		return nil, nil, fmt.Errorf("decoding origo -json: %v", err)
	}
	res := &vetResult{diags: make(map[string][]diag), errors: make(map[string][]string)}
	outcomes := make(confirmations)
	for _, byAnalyzer := range tree {
		for name, ds := range byAnalyzer {
			for _, d := range ds {
				res.diags[name] = append(res.diags[name], d.diag)
				if d.Confirm != nil {
					outcomes[d.diag.key()] = *d.Confirm
				}
			}
		}
	}
	return res, outcomes, nil
}

// vetResult is what go vet -json reported, by analyzer.
type vetResult struct {
	diags  map[string][]diag
	errors map[string][]string // "package: message", sorted
	// skipped are the lines origo wrote for the packages it skipped
	// at a bound ("origo: pointer skipped package ..."), once each.
	skipped []string
}

// skippedLine matches the line origo writes for a package it skipped at
// one of its bounds (see guard.Do).
var skippedLine = regexp.MustCompile(`^origo: \S+ skipped package `)

// parseVetJSON reads the output of go vet -json: a stream of objects,
// one per package, {"pkg": {"analyzer": [diag...] or {"error": "..."}}},
// with lines of text such as "# pkg" headers between them.
func parseVetJSON(r io.Reader) (*vetResult, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	res := &vetResult{diags: make(map[string][]diag), errors: make(map[string][]string)}
	for {
		data = bytes.TrimLeft(data, " \t\r\n")
		if len(data) == 0 {
			break
		}
		if data[0] != '{' { // a header or other line of text: not ours to judge
			i := bytes.IndexByte(data, '\n')
			line := data
			if i >= 0 {
				line = data[:i]
			}
			if l := string(line); skippedLine.MatchString(l) && !slices.Contains(res.skipped, l) {
				res.skipped = append(res.skipped, l)
			}
			if i < 0 {
				break
			}
			data = data[i+1:]
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		var obj map[string]map[string]json.RawMessage
		if err := dec.Decode(&obj); err != nil {
			return nil, fmt.Errorf("decoding go vet -json output: %v", err)
		}
		data = data[dec.InputOffset():]
		for pkg, byAnalyzer := range obj {
			for name, raw := range byAnalyzer {
				if raw = bytes.TrimSpace(raw); len(raw) > 0 && raw[0] == '[' {
					var ds []diag
					if err := json.Unmarshal(raw, &ds); err != nil {
						return nil, fmt.Errorf("decoding diagnostics of %s on %s: %v", name, pkg, err)
					}
					res.diags[name] = append(res.diags[name], ds...)
					continue
				}
				var e struct {
					Error string `json:"error"`
				}
				if err := json.Unmarshal(raw, &e); err != nil {
					return nil, fmt.Errorf("decoding result of %s on %s: %v", name, pkg, err)
				}
				res.errors[name] = append(res.errors[name], pkg+": "+e.Error)
			}
		}
	}
	for _, errs := range res.errors {
		slices.Sort(errs)
	}
	return res, nil
}

// corpus is the parsed corpus files, by base name.
type corpus struct {
	fset  *token.FileSet
	files map[string]*ast.File
}

func parseCorpus(dir string, names []string) (*corpus, error) {
	c := &corpus{fset: token.NewFileSet(), files: make(map[string]*ast.File)}
	for _, name := range names {
		f, err := parser.ParseFile(c.fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		c.files[name] = f
	}
	return c, nil
}

// testFunc is a test of the corpus and the diagnostics inside it.
type testFunc struct {
	name  string
	file  string // base name
	line  int
	race  bool // TestRace*, else TestNoRace*
	diags []diag
}

// report is the score of an analyzer on the corpus.
type report struct {
	files        int
	tests        []*testFunc    // by file and line
	diags        int            // distinct diagnostics
	byKind       map[string]int // distinct diagnostics by category (see package kinds)
	unattributed []diag         // outside any test: in helpers, methods, globals
}

// count returns how many of the race tests (or of the race-free ones)
// have a diagnostic, and how many there are.
func (r *report) count(race bool) (flagged, total int) {
	for _, t := range r.tests {
		if t.race == race {
			total++
			if len(t.diags) > 0 {
				flagged++
			}
		}
	}
	return flagged, total
}

// score attributes each diagnostic to the top-level function whose
// extent holds its position. Diagnostics are counted once each even if
// go vet reported them twice (a package and its test variant).
func score(c *corpus, diags []diag) *report {
	r := &report{files: len(c.files), byKind: make(map[string]int)}
	byDecl := make(map[*ast.FuncDecl]*testFunc)
	for name, f := range c.files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Recv != nil {
				continue
			}
			race := strings.HasPrefix(fd.Name.Name, racePrefix)
			if !race && !strings.HasPrefix(fd.Name.Name, noRacePrefix) {
				continue
			}
			t := &testFunc{name: fd.Name.Name, file: name, line: c.fset.Position(fd.Pos()).Line, race: race}
			byDecl[fd] = t
			r.tests = append(r.tests, t)
		}
	}
	slices.SortFunc(r.tests, func(x, y *testFunc) int {
		return cmp.Or(cmp.Compare(x.file, y.file), cmp.Compare(x.line, y.line))
	})
	seen := make(map[diagKey]bool)
	for _, d := range diags {
		if seen[d.key()] {
			continue
		}
		seen[d.key()] = true
		r.diags++
		r.byKind[cmp.Or(d.Category, "none")]++
		if t := byDecl[c.enclosingFunc(d.Posn)]; t != nil {
			t.diags = append(t.diags, d)
		} else {
			r.unattributed = append(r.unattributed, d)
		}
	}
	slices.SortFunc(r.unattributed, func(x, y diag) int {
		xf, xl, xc, _ := splitPosn(x.Posn)
		yf, yl, yc, _ := splitPosn(y.Posn)
		return cmp.Or(cmp.Compare(filepath.Base(xf), filepath.Base(yf)), cmp.Compare(xl, yl), cmp.Compare(xc, yc), cmp.Compare(x.Message, y.Message))
	})
	return r
}

// enclosingFunc returns the top-level function (not method) declaration
// whose extent holds posn, file:line:col, or nil. Files are matched by
// base name: the corpus is one directory, and the paths go vet prints
// need not be spelled as ours (symbolic links in the temp directory).
func (c *corpus) enclosingFunc(posn string) *ast.FuncDecl {
	file, line, col, ok := splitPosn(posn)
	if !ok {
		return nil
	}
	f := c.files[filepath.Base(file)]
	if f == nil {
		return nil
	}
	tf := c.fset.File(f.FileStart)
	if line < 1 || line > tf.LineCount() {
		return nil
	}
	off := tf.Offset(tf.LineStart(line)) + max(col, 1) - 1
	if off > tf.Size() {
		return nil
	}
	pos := tf.Pos(off)
	for _, decl := range f.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Pos() <= pos && pos <= fd.End() {
			return fd
		}
	}
	return nil
}

// splitPosn splits file:line:col, or file:line, from the right: the file
// name may hold colons.
func splitPosn(posn string) (file string, line, col int, ok bool) {
	i := strings.LastIndexByte(posn, ':')
	if i < 0 {
		return "", 0, 0, false
	}
	last, err := strconv.Atoi(posn[i+1:])
	if err != nil {
		return "", 0, 0, false
	}
	j := strings.LastIndexByte(posn[:i], ':')
	if j >= 0 {
		if l, err := strconv.Atoi(posn[j+1 : i]); err == nil {
			return posn[:j], l, last, true
		}
	}
	return posn[:i], last, 0, true
}

func printReport(r *report, goversion string, verbose bool) {
	raceFlagged, races := r.count(true)
	noRaceFlagged, noRaces := r.count(false)
	fmt.Printf("racecorpus: %d files, %d TestRace, %d TestNoRace (%s)\n", r.files, races, noRaces, goversion)
	fmt.Printf("TestRace flagged:   %3d/%-3d %5.1f%%   (goal ≥ 90%%)\n", raceFlagged, races, percent(raceFlagged, races))
	fmt.Printf("TestNoRace flagged: %3d/%-3d %5.1f%%   (goal ≤ 8%%)\n", noRaceFlagged, noRaces, percent(noRaceFlagged, noRaces))
	fmt.Printf("diagnostics: %d (unattributed %d)\n", r.diags, len(r.unattributed))
	fmt.Printf("by kind:%s\n", kindCounts(r.byKind))
	if !verbose {
		return
	}
	fmt.Printf("\nmissed (TestRace not flagged): %d\n", races-raceFlagged)
	for _, t := range r.tests {
		if t.race && len(t.diags) == 0 {
			fmt.Printf("  %s:%d: %s\n", t.file, t.line, t.name)
		}
	}
	fmt.Printf("\nfalse alarms (TestNoRace flagged): %d\n", noRaceFlagged)
	for _, t := range r.tests {
		if !t.race && len(t.diags) > 0 {
			fmt.Printf("  %s:%d: %s: %s\n", t.file, t.line, t.name, t.diags[0].Message)
		}
	}
	fmt.Printf("\nunattributed: %d\n", len(r.unattributed))
	for _, d := range r.unattributed {
		fmt.Printf("  %s: %s\n", d.Posn, d.Message)
	}
}

// kindCounts lists counts by kind, the most frequent first: " race/data-race 240,
// race/concurrent-map-access 8".
func kindCounts(byKind map[string]int) string {
	ks := slices.SortedFunc(maps.Keys(byKind), func(a, b string) int { return cmp.Or(cmp.Compare(byKind[b], byKind[a]), cmp.Compare(a, b)) })
	var parts []string
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("%s %d", k, byKind[k]))
	}
	return " " + strings.Join(parts, ", ")
}

// confirmed reports whether a diagnostic of t was confirmed by a run.
func (c confirmations) confirmed(t *testFunc) bool {
	return slices.ContainsFunc(t.diags, func(d diag) bool { return c[d.key()].Confirmed })
}

// printConfirmed prints the scores of origo -confirm: the flagged
// TestRace functions with a confirmed diagnostic, and the TestNoRace
// functions with one, which the race detector cannot witness and
// -confirm must therefore never confirm.
func printConfirmed(r *report, c confirmations, summary string, elapsed time.Duration, verbose bool) {
	var raceFlagged, raceConfirmed, noRaceConfirmed int
	for _, t := range r.tests {
		switch {
		case len(t.diags) == 0:
		case t.race:
			raceFlagged++
			if c.confirmed(t) {
				raceConfirmed++
			}
		case c.confirmed(t):
			noRaceConfirmed++
		}
	}
	fmt.Printf("TestRace confirmed: %3d/%-3d %5.1f%% of the flagged   (goal ≥ 90%%)\n", raceConfirmed, raceFlagged, percent(raceConfirmed, raceFlagged))
	fmt.Printf("TestNoRace confirmed: %d   (goal 0: each is a bug of -confirm)\n", noRaceConfirmed)
	fmt.Printf("origo -confirm took %s\n", elapsed.Round(time.Second))
	if summary != "" {
		fmt.Println(summary)
	}
	if !verbose {
		return
	}
	fmt.Printf("\nflagged TestRace not confirmed: %d\n", raceFlagged-raceConfirmed)
	for _, t := range r.tests {
		if t.race && len(t.diags) > 0 && !c.confirmed(t) {
			why := ""
			if o, ok := c[t.diags[0].key()]; ok {
				why = o.Status + ": " + o.Reason
			}
			fmt.Printf("  %s:%d: %s: %s\n", t.file, t.line, t.name, why)
		}
	}
	fmt.Printf("\nTestNoRace confirmed: %d\n", noRaceConfirmed)
	for _, t := range r.tests {
		if !t.race && c.confirmed(t) {
			for _, d := range t.diags {
				if c[d.key()].Confirmed {
					fmt.Printf("  %s:%d: %s: %s: %s\n", t.file, t.line, t.name, d.Posn, d.Message)
				}
			}
		}
	}
}

func percent(n, total int) float64 {
	if total == 0 {
		return 0
	}
	return 100 * float64(n) / float64(total)
}
