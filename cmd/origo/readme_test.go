package main

// The tests of this file check the README's claims that the code can
// check: the demo's output as shown, the flags of the synopsis, the
// layout, its length; and the Requires table of package passes, where
// the README sends developers.

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/origo-dev/origo/cmd/origo/internal/factdump"
	"golang.org/x/tools/go/analysis"
)

// readmeBlock is a fenced code block of the README.
type readmeBlock struct {
	info string // what follows the opening fence: "sh", "" ...
	text string // the lines inside, each ending in "\n"
}

// readme returns the README's fenced code blocks, in order.
func readme(t *testing.T) []readmeBlock {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []readmeBlock
	var cur *readmeBlock
	for _, line := range strings.SplitAfter(string(data), "\n") {
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &readmeBlock{info: strings.TrimSpace(strings.TrimPrefix(line, "```"))}
		case cur != nil && strings.TrimSpace(line) == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.text += line
		}
	}
	if cur != nil {
		t.Fatal("README.md: a code block is not closed")
	}
	return blocks
}

// TestREADMEDemo checks the README's first commands, and that the demo
// output shown under them is what origo prints for the first one, byte
// for byte; a report line quoted anywhere else is one of those lines.
func TestREADMEDemo(t *testing.T) {
	t.Parallel()
	functional(t)
	blocks := readme(t)
	first := -1
	for i, b := range blocks {
		if strings.Contains(b.text, "go run ./cmd/origo ./testdata/demo/...") {
			first = i
			break
		}
	}
	if first < 0 || first+1 >= len(blocks) {
		t.Fatal("README.md: no block runs go run ./cmd/origo ./testdata/demo/..., or none follows it")
	}
	var cmds []string
	for _, line := range strings.Split(strings.TrimSpace(blocks[first].text), "\n") {
		cmd, _, _ := strings.Cut(line, "#")
		cmds = append(cmds, strings.TrimSpace(cmd))
	}
	if want := []string{"go run ./cmd/origo ./testdata/demo/...", "go test ./..."}; !slices.Equal(cmds, want) {
		t.Errorf("README.md's first commands are %q, want %q", cmds, want)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := run(t, root, "./testdata/demo/...")
	if code != exitFindings || stderr != "" {
		t.Errorf("origo ./testdata/demo/...: exit %d, stderr:\n%s", code, stderr)
	}
	shown := blocks[first+1]
	if shown.info != "" || shown.text != stdout {
		t.Errorf("README.md shows, under its first commands:\n%s\norigo ./testdata/demo/... prints:\n%s", shown.text, stdout)
	}
	lines := strings.SplitAfter(stdout, "\n")
	for _, b := range blocks {
		for _, line := range strings.SplitAfter(b.text, "\n") {
			if strings.HasPrefix(strings.TrimLeft(line, "\t"), "testdata/demo/") && !slices.Contains(lines, line) {
				t.Errorf("README.md quotes a report origo does not print on the demo:\n%s", line)
			}
		}
	}
}

// TestREADMEFlags checks that the flags of the README's synopsis of the
// standalone command are origo's, and the -dump modes it names.
func TestREADMEFlags(t *testing.T) {
	functional(t)
	var synopsis string
	for _, b := range readme(t) {
		for _, line := range strings.Split(b.text, "\n") {
			if strings.HasPrefix(line, "origo [-") {
				synopsis = line
			}
		}
	}
	if synopsis == "" {
		t.Fatal("README.md has no synopsis line, origo [-...")
	}
	_, usage, code := run(t, ".", "-h")
	if code != exitClean {
		t.Fatalf("origo -h: exit %d", code)
	}
	for _, m := range regexp.MustCompile(`-([a-z]+)`).FindAllStringSubmatch(synopsis, -1) {
		if !strings.Contains(usage, "\n  -"+m[1]) {
			t.Errorf("the README's synopsis has -%s, which origo -h does not list:\n%s", m[1], usage)
		}
	}
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile("-dump=([a-z|]+)").FindAllStringSubmatch(string(data), -1) {
		for mode := range strings.SplitSeq(m[1], "|") {
			if !slices.Contains(factdump.Modes, mode) {
				t.Errorf("README.md names -dump=%s; the modes are %v", mode, factdump.Modes)
			}
		}
	}
}

// TestPipelineRequires checks the table of Requires in package passes'
// documentation, "as the code declares them": each row's requirements,
// in order, and whether it exports facts, and which; and that every
// analyzer the suite runs that requires another has its row.
func TestPipelineRequires(t *testing.T) {
	byName := make(map[string]*analysis.Analyzer)
	var walk func(a *analysis.Analyzer)
	walk = func(a *analysis.Analyzer) {
		if byName[a.Name] != nil {
			return
		}
		byName[a.Name] = a
		for _, r := range a.Requires {
			walk(r)
		}
	}
	for _, a := range suite {
		walk(a)
	}
	// The table names an analyzer by its Go name where it differs.
	name := func(label string) string {
		if label == "pointer.SummaryAnalyzer" {
			return "ptsummary"
		}
		return label
	}
	data, err := os.ReadFile("../../passes/doc.go")
	if err != nil {
		t.Fatal(err)
	}
	ticked := regexp.MustCompile("`([^`]+)`")
	rows := make(map[string]bool)
	for _, line := range strings.Split(string(data), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		m := ticked.FindStringSubmatch(cells[1])
		a := byName[name(m[1])]
		if a == nil {
			t.Errorf("passes/doc.go's table has a row for %s, which the suite does not run", m[1])
			continue
		}
		rows[a.Name] = true
		var want, got []string
		for _, m := range ticked.FindAllStringSubmatch(cells[2], -1) {
			want = append(want, name(m[1]))
		}
		for _, r := range a.Requires {
			got = append(got, r.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("passes/doc.go: %s requires %v; the code: %v", m[1], want, got)
		}
		exports := strings.TrimSpace(cells[3])
		if (exports == "—") != (len(a.FactTypes) == 0) {
			t.Errorf("passes/doc.go: %s exports %q; the code: %d fact types", m[1], exports, len(a.FactTypes))
		}
		for _, f := range regexp.MustCompile(`facts\.(\w+)`).FindAllStringSubmatch(exports, -1) {
			if !slices.ContainsFunc(a.FactTypes, func(ft analysis.Fact) bool {
				typ := reflect.TypeOf(ft).Elem()
				return typ.Name() == f[1] && strings.HasSuffix(typ.PkgPath(), "/facts")
			}) {
				t.Errorf("passes/doc.go: %s exports facts.%s; the code does not", m[1], f[1])
			}
		}
	}
	for n, a := range byName {
		if len(a.Requires) > 0 && !rows[n] {
			t.Errorf("passes/doc.go's table has no row for %s", n)
		}
	}
}

// TestREADMELayout checks the directories of the README's Layout: each
// exists, and each directory of Go files is listed, or lies in one that
// is listed without listed subdirectories (cmd/origo/ holds its
// internal/factdump).
func TestREADMELayout(t *testing.T) {
	var layout string
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if _, after, ok := strings.Cut(string(data), "## Layout\n\n```\n"); ok {
		layout, _, _ = strings.Cut(after, "```")
	}
	if layout == "" {
		t.Fatal("README.md has no Layout block")
	}
	entry := regexp.MustCompile(`^( *)(\S+/)(\s|$)`)
	listed := make(map[string]bool) // path → has listed subdirectories
	var top string
	for _, line := range strings.Split(layout, "\n") {
		m := entry.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		p := strings.TrimSuffix(m[2], "/")
		switch len(m[1]) {
		case 0:
			top = p
		case 2:
			p = top + "/" + p
			listed[top] = true
		default:
			continue
		}
		if _, ok := listed[p]; !ok {
			listed[p] = false
		}
		if fi, err := os.Stat(filepath.Join("../..", p)); err != nil || !fi.IsDir() {
			t.Errorf("README.md's Layout lists %s/, which is not a directory of the repository", p)
		}
	}
	seen := make(map[string]bool)
	err = filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" && path != "../../testdata" || strings.HasPrefix(d.Name(), ".") && path != "../..") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		dir, err := filepath.Rel("../..", filepath.Dir(path))
		if err != nil {
			return err
		}
		dir = filepath.ToSlash(dir)
		if seen[dir] {
			return nil
		}
		seen[dir] = true
		for p := dir; p != "."; p = filepath.ToSlash(filepath.Dir(p)) {
			if hasChildren, ok := listed[p]; ok {
				if p != dir && hasChildren {
					t.Errorf("README.md's Layout lists neither %s/ nor a directory that holds it", dir)
				}
				return nil
			}
		}
		t.Errorf("README.md's Layout does not list %s/", dir)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestREADMELength checks that the README stays short enough to read
// in the first hour: at most 250 lines, as issue 40 asks.
func TestREADMELength(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n > 250 {
		t.Errorf("README.md has %d lines, more than 250: move the internals to the packages' doc.go", n)
	}
}
