package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/origo-dev/origo/analyzers/kinds"
)

// The real-bug benchmark: concurrency bugs that were reported and fixed
// upstream in released modules. For each, origo vets the packages of the
// bug's files in the last release with the bug and in the first with the
// fix, both from the module proxy: found is a report of the bug's kind
// at the bug's own operations (the two racing accesses, the two lock
// operations, the operation a leaked goroutine blocks on), and the fixed
// release should be silent there. The bugs were chosen from issue
// threads and fix commits without running origo on them.

// defaultRealBugs is the bug list, relative to the origo repository.
const defaultRealBugs = "cmd/origo-bench/testdata/realbugs.tsv"

// realBug is one bug of the list.
type realBug struct {
	id, module, buggy, fixed string
	kind                     string    // race, deadlock or leak
	lines, fixedLines        []bugLine // the bug's operations in each release
	url, description         string
	line                     int // in the list
}

// bugLine is a line of a module's file.
type bugLine struct {
	file string // module-relative, slash-separated
	line int
}

// bugKinds are the kinds a bug may be, with the analyzers whose reports
// count for each.
var bugKinds = map[string][]string{
	"race":     {"race"},
	"deadlock": {"deadlock", "blocking"},
	"leak":     {"blocking", "deadlock"},
}

// readRealBugs reads the bug list name.
func readRealBugs(name string) ([]realBug, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("%v (run from the origo repository, or give -bugs)", err)
	}
	defer f.Close()
	return parseRealBugs(name, f)
}

// parseRealBugs parses a bug list: blank lines, # comments and lines
//
//	ID MODULE BUGGY FIXED KIND LINES FIXED_LINES URL DESCRIPTION
//
// separated by tabs, where LINES and FIXED_LINES are comma-separated
// FILE:LINE (FILE module-relative), a "-" for an operation the fix
// removed.
func parseRealBugs(name string, r io.Reader) ([]realBug, error) {
	var bugs []realBug
	ids := make(map[string]int)
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimRight(sc.Text(), " \r")
		if strings.TrimSpace(text) == "" || strings.HasPrefix(strings.TrimSpace(text), "#") {
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) != 9 {
			return nil, fmt.Errorf("%s:%d: want 9 tab-separated fields (ID MODULE BUGGY FIXED KIND LINES FIXED_LINES URL DESCRIPTION), got %d", name, n, len(f))
		}
		b := realBug{id: f[0], module: f[1], buggy: f[2], fixed: f[3], kind: f[4], url: f[7], description: f[8], line: n}
		if _, ok := bugKinds[b.kind]; !ok {
			return nil, fmt.Errorf("%s:%d: unknown kind %q (want race, deadlock or leak)", name, n, b.kind)
		}
		if old, dup := ids[b.id]; dup {
			return nil, fmt.Errorf("%s:%d: bug %s listed already on line %d", name, n, b.id, old)
		}
		ids[b.id] = n
		var err error
		if b.lines, err = parseBugLines(f[5]); err != nil || len(b.lines) == 0 {
			return nil, fmt.Errorf("%s:%d: bad LINES %q: %v", name, n, f[5], err)
		}
		if b.fixedLines, err = parseBugLines(f[6]); err != nil {
			return nil, fmt.Errorf("%s:%d: bad FIXED_LINES %q: %v", name, n, f[6], err)
		}
		bugs = append(bugs, b)
	}
	return bugs, sc.Err()
}

// parseBugLines parses comma-separated FILE:LINE entries, skipping "-".
func parseBugLines(s string) ([]bugLine, error) {
	var out []bugLine
	for _, e := range strings.Split(s, ",") {
		e = strings.TrimSpace(e)
		if e == "-" {
			continue
		}
		file, line, ok := strings.Cut(e, ":")
		n, err := strconv.Atoi(line)
		if !ok || err != nil || n <= 0 || file == "" {
			return nil, fmt.Errorf("want FILE:LINE, got %q", e)
		}
		out = append(out, bugLine{file, n})
	}
	return out, nil
}

// bugPackages returns the packages of lines' files, as ./dir patterns.
func bugPackages(lines []bugLine) []string {
	var pkgs []string
	for _, l := range lines {
		dir := "./" + path.Dir(l.file)
		if !slices.Contains(pkgs, dir) {
			pkgs = append(pkgs, dir)
		}
	}
	return pkgs
}

// needed is how many of a bug's operations a report must name for the
// bug to count as found: both accesses of a race and both lock
// operations of a deadlock (or all there are, if fewer), one for a leak
// (the operation it blocks on, or the go statement).
func needed(kind string, lines []bugLine) int {
	if kind == "leak" {
		return 1
	}
	return min(2, len(lines))
}

// positionRe matches a file:line in a report's message; posnRe a
// diagnostic's position, file:line:col with the file's path.
var (
	positionRe = regexp.MustCompile(`([\w.-]+\.go):(\d+)`)
	posnRe     = regexp.MustCompile(`^(.*):(\d+):\d+$`)
)

// covers returns how many of lines a diagnostic names: at its position,
// at a related position or in its message (where files are named by
// their base name only).
func covers(d diag, lines []bugLine) int {
	type at struct {
		base string
		line int
	}
	named := make(map[at]bool)
	add := func(posn string) {
		if m := posnRe.FindStringSubmatch(posn); m != nil {
			n, _ := strconv.Atoi(m[2])
			named[at{filepath.Base(m[1]), n}] = true
		}
	}
	add(d.Posn)
	for _, r := range d.Related {
		add(r.Posn)
	}
	for _, m := range positionRe.FindAllStringSubmatch(d.Message, -1) {
		n, _ := strconv.Atoi(m[2])
		named[at{m[1], n}] = true
	}
	count := 0
	for _, l := range lines {
		if named[at{path.Base(l.file), l.line}] {
			count++
		}
	}
	return count
}

// selfPair reports whether d pairs a bug's line with itself: a race
// whose other access ("the other write of ...") is at the report's own
// line, one of the bug's (two calls of balance both writing
// rr.ChunkSize at balancer.go:56). Its two accesses are the bug's own,
// though they name one line.
func selfPair(d diag, lines []bugLine) bool {
	if covers(diag{Posn: d.Posn}, lines) != 1 {
		return false
	}
	line := func(posn string) string {
		if m := posnRe.FindStringSubmatch(posn); m != nil {
			return filepath.Base(m[1]) + ":" + m[2]
		}
		return ""
	}
	for _, r := range d.Related {
		if strings.HasPrefix(r.Message, "the other ") && line(r.Posn) == line(d.Posn) {
			return true
		}
	}
	return false
}

// bugReports returns the diagnostics of res that count for a bug of
// kind at lines: by an analyzer of the kind, naming enough of the lines;
// race's possible data races (its lower tier, -race.all) only if all.
func bugReports(res *vetResult, kind string, lines []bugLine, all bool) []diag {
	if len(lines) == 0 {
		return nil
	}
	var out []diag
	for _, a := range bugKinds[kind] {
		for _, d := range res.diags[a] {
			if d.Category == kinds.PossibleRace.ID && !all {
				continue
			}
			if covers(d, lines) >= needed(kind, lines) || selfPair(d, lines) {
				out = append(out, d)
			}
		}
	}
	return out
}

// benchRealBugs vets each bug's buggy and fixed releases and prints
// which bugs origo finds, and whether the fix silences it.
func benchRealBugs(args []string) error {
	fs := flag.NewFlagSet("realbugs", flag.ExitOnError)
	origo := fs.String("origo", "", "the origo binary (default: built from the repository of the current directory)")
	keep := fs.String("keep", "", "prepare the scratch modules in this directory and keep them for later runs")
	bugsFile := fs.String("bugs", defaultRealBugs, "the bug list")
	only := fs.String("only", "", "check only the bugs whose ID contains this string")
	verbose := fs.Bool("v", false, "print the reports in the bugs' packages that do not count, for a missed bug")
	fs.Parse(args)
	if fs.NArg() > 0 {
		usage()
	}
	bugs, err := readRealBugs(*bugsFile)
	if err != nil {
		return err
	}
	tmp, root, err := scratch(*keep, "")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if *origo, err = origoBinary(*origo, tmp); err != nil {
		return err
	}
	var rows []bugRow
	var skipped []string // origo's lines for the packages it skipped, by release
	for _, b := range bugs {
		if !strings.Contains(b.id, *only) {
			continue
		}
		row := bugRow{bug: b}
		for i, v := range []string{b.buggy, b.fixed} {
			lines := b.lines
			if i == 1 {
				lines = b.fixedLines
			}
			m := realModule{b.module, v}
			dir := filepath.Join(root, strings.ReplaceAll(m.path, "/", "_")+"@"+m.version)
			if err := prepareModule(m, dir); err != nil {
				row.err = err
				break
			}
			pkgs := bugPackages(lines)
			if len(pkgs) == 0 {
				pkgs = bugPackages(b.lines) // the fix removed every operation
			}
			res, err := runVetJSONOn(dir, *origo, pkgs, "-race.all")
			if err != nil {
				row.err = err
				break
			}
			for _, l := range res.skipped {
				skipped = append(skipped, m.path+"@"+m.version+": "+l)
			}
			found := bugReports(res, b.kind, lines, false)
			if i == 0 {
				row.found = len(found) > 0
				row.foundAll = len(bugReports(res, b.kind, lines, true)) > 0
				if len(found) > 0 {
					row.report = found[0]
				} else if *verbose {
					for _, a := range bugKinds[b.kind] {
						row.others = append(row.others, res.diags[a]...)
					}
				}
			} else {
				row.stillReported = len(found) > 0
			}
		}
		rows = append(rows, row)
	}
	printBugTable(os.Stdout, rows, *verbose)
	printSkipped(os.Stdout, skipped)
	return nil
}

// bugRow is origo's outcome on one bug.
type bugRow struct {
	bug           realBug
	found         bool   // a report at the bug in the buggy release
	foundAll      bool   // the same with race's possible data races (-race.all)
	stillReported bool   // a report at the bug's operations in the fixed release
	report        diag   // the first report that found it
	others        []diag // with -v, a missed bug's package's other reports
	err           error
}

// printBugTable prints a line per bug and the totals: found, and of
// those found, how many the fixed release is silent on.
func printBugTable(w io.Writer, rows []bugRow, verbose bool) {
	fmt.Fprintf(w, "%-36s %-8s %-8s %-8s %s\n", "bug", "kind", "found", "-all", "fixed release")
	var found, foundAll, silent, failed int
	byKind := make(map[string][2]int)
	for _, r := range rows {
		outcome, fixed := "missed", "-"
		switch {
		case r.err != nil:
			outcome = "error"
			failed++
		case r.found:
			outcome = "found"
			found++
			fixed = "silent"
			if r.stillReported {
				fixed = "reported"
			} else {
				silent++
			}
		}
		all := "-"
		if r.err == nil {
			all = "missed"
			if r.foundAll {
				all = "found"
				foundAll++
			}
		}
		k := byKind[r.bug.kind]
		k[1]++
		if r.found {
			k[0]++
		}
		byKind[r.bug.kind] = k
		fmt.Fprintf(w, "%-36s %-8s %-8s %-8s %s\n", r.bug.id, r.bug.kind, outcome, all, fixed)
		if r.err != nil {
			fmt.Fprintf(w, "\t%v\n", firstLine(r.err.Error()))
		}
		if verbose && r.found {
			fmt.Fprintf(w, "\t%s: %s\n", r.report.Posn, r.report.Message)
		}
		for _, d := range r.others {
			fmt.Fprintf(w, "\tnot at the bug: %s: %s\n", d.Posn, d.Message)
		}
	}
	n := len(rows)
	fmt.Fprintf(w, "\nfound %d of %d bugs (%s)", found, n, share(found, n))
	for _, k := range []string{"race", "deadlock", "leak"} {
		if c := byKind[k]; c[1] > 0 {
			fmt.Fprintf(w, "; %s %d/%d", k, c[0], c[1])
		}
	}
	fmt.Fprintf(w, "\nwith -all (race's possible data races too): found %d of %d bugs (%s)", foundAll, n, share(foundAll, n))
	fmt.Fprintf(w, "\nfixed release silent on %d of the %d found (%s)\n", silent, found, share(silent, found))
	if failed > 0 {
		fmt.Fprintf(w, "%d bugs not checked: their modules did not build or vet\n", failed)
	}
}

// share formats part/whole as a percentage, "-" for an empty whole.
func share(part, whole int) string {
	if whole == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(part)/float64(whole))
}

// firstLine returns s up to its first newline.
func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
