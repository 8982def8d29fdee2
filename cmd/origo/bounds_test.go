package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/origo-dev/origo/cmd/internal/longtest"
	"github.com/origo-dev/origo/passes/guard"
)

// TestBounds runs origo on programs made to strain its bounds: a
// function of 10,000 lines, a chain of 2,000 calls, a composite literal
// of 20,000 elements, 2,000 go statements and 20,000 calls that each
// synchronize. Each is analyzed to the end without a crash, its race is
// still found, and a bound that stops part of the work says so in one
// line.
func TestBounds(t *testing.T) {
	longtest.Skip(t)
	functional(t)
	dir := t.TempDir()
	write := func(name string, lines []string) {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, "main.go"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module bounds\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	long := []string{"package main", "", "var x int", "", "func long(n int) int {", "\ts := 0"}
	for i := range 10_000 {
		long = append(long, fmt.Sprintf("\tif n > %d {\n\t\ts += %d\n\t}", i, i))
	}
	long = append(long, "\tx = s", "\treturn s", "}", "", "func main() { go long(1); println(x) }")
	write("longfunc", long)

	deep := []string{"package main", "", "var shared int", ""}
	for i := range 2_000 {
		deep = append(deep, fmt.Sprintf("func f%d(n int) int {\n\tif n == 0 {\n\t\tshared++\n\t\treturn 0\n\t}\n\treturn f%d(n-1) + 1\n}", i, i+1))
	}
	deep = append(deep, "func f2000(n int) int { return f0(n) }", "", "func main() { go f0(10); shared = 2 }")
	write("deepcalls", deep)

	lit := []string{"package main", "", "type T struct{ A, B int }", "", "var table = []T{"}
	for i := range 20_000 {
		lit = append(lit, fmt.Sprintf("\t{A: %d, B: %d},", i, 2*i))
	}
	lit = append(lit, "}", "", "func main() {", "\tgo func() { table[0].A = 1 }()", "\tprintln(table[0].A)", "}")
	write("biglit", lit)

	many := []string{"package main", "", "var c int", "", "func main() {"}
	for range 2_000 {
		many = append(many, "\tgo func() { c++ }()")
	}
	many = append(many, "}")
	write("manygo", many)

	// 20,000 calls, each with an access and a synchronization event: more
	// events than one goroutine's trace holds.
	events := []string{"package main", "", "import \"sync\"", "", "var (\n\tshared int\n\twg     sync.WaitGroup\n)", "", "func step() { shared++; wg.Add(1) }", "", "func main() {", "\tgo func() { shared = 2 }()"}
	for range 20_000 {
		events = append(events, "\tstep()")
	}
	events = append(events, "}")
	write("manyevents", events)

	for _, tc := range []struct{ pkg, race, note string }{
		{"longfunc", "data race on x", ""},
		{"deepcalls", "data race on shared", "origo: race: budget hit on package bounds/deepcalls: 1 locations with more than 256 accesses in one goroutine or 10000 pairs, not all checked (first: shared), so races on them may go unreported; if they matter, report it at " + guard.IssuesURL + "\n"},
		{"biglit", "data race on [20000]T[*].A", "origo: race: budget hit on package bounds/biglit: 1 locations with more than 256 accesses in one goroutine or 10000 pairs, not all checked (first: [20000]T[*].A), so races on them may go unreported; if they matter, report it at " + guard.IssuesURL + "\n"},
		{"manyevents", "data race on shared", "origo: race: budget hit on package bounds/manyevents: 1 goroutine followed only up to 50000 events each or 1500000 in all (first: main goroutine), so races in what they do past that may go unreported; if they matter, report it at " + guard.IssuesURL + "\n"},
		{"manygo", "data race on c", "origo: race: budget hit on package bounds/manygo: more goroutines than the pointer analysis gives origins of their own; those found past it share one and are not checked, so their races may go unreported; split the package, or report it at " + guard.IssuesURL + "\n"},
	} {
		stdout, stderr, code := run(t, dir, "./"+tc.pkg)
		if code != exitFindings || !strings.Contains(stdout, tc.race) {
			t.Errorf("%s: exit %d, want %d and %q:\n%s%s", tc.pkg, code, exitFindings, tc.race, stdout, stderr)
		}
		if tc.note != "" && !strings.Contains(stderr, tc.note) {
			t.Errorf("%s: stderr lacks %q:\n%s", tc.pkg, tc.note, stderr)
		}
		if tc.note == "" && stderr != "" {
			t.Errorf("%s: unexpected stderr:\n%s", tc.pkg, stderr)
		}
	}
}
