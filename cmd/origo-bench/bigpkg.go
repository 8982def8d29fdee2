package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The big-package benchmark asks whether origo analyzes one package of
// the size of a large server's main package whole, within its bounds:
// a package generated to have the given number of lines, spread over
// services that each carry a mutex and a channel, some start workers
// with a go statement, and each calls the next once its workers are
// done, so that every function is reachable from main, as in a server
// whose main starts its parts one by one. Each spawning service has one
// real data race (a counter its workers write without the lock) and
// otherwise synchronized accesses.

// benchBigPkg runs the big-package benchmark.
func benchBigPkg(args []string) error {
	fs := flag.NewFlagSet("bigpkg", flag.ExitOnError)
	lines := fs.Int("lines", 150_000, "lines of the generated package")
	goEvery := fs.Int("goevery", 5, "one go statement site in this many services")
	registry := fs.Int("registry", 0, "if not 0, every service registers itself in one package-level list and keeps this many copies of the list: points-to sets that grow with the square of the services, past the pointer analysis's bound on their size")
	origo := fs.String("origo", "", "the origo binary (default: built from this repository)")
	keep := fs.String("keep", "", "generate the package in this directory and keep it")
	fs.Parse(args)
	self, tmp, dir, err := vetSetup(*keep, "bigpkg", origo)
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	services, sites, written, err := writeBigPkg(dir, *lines, *goEvery, *registry)
	if err != nil {
		return err
	}
	stdvet, err := stdVet()
	if err != nil {
		return err
	}
	// Compile once, so that what is timed is the analysis.
	if _, out := wrappedVet(dir, []string{"."}, self, stdvet, filepath.Join(tmp, "warm.jsonl"), "warm"); crashed(out) {
		return fmt.Errorf("go vet on the generated package failed:\n%s", lastLines(out, 20))
	}
	fmt.Printf("generated package: %d lines, %d services, %d go statement sites (in %s)\n\n", written, services, sites, dir)
	fmt.Printf("%-8s %10s %10s %8s  %s\n", "tool", "wall", "pkg time", "RSS", "")
	for _, tool := range []struct{ name, path string }{{"go vet", stdvet}, {"origo", *origo}} {
		log := filepath.Join(tmp, strings.ReplaceAll(tool.name, " ", "")+".jsonl")
		wall, out := wrappedVet(dir, []string{"."}, self, tool.path, log, strconv.FormatInt(time.Now().UnixNano(), 36))
		if crashed(out) {
			return fmt.Errorf("%s crashed or failed inside:\n%s", tool.name, lastLines(out, 40))
		}
		us, err := readUnits(log)
		if err != nil {
			return err
		}
		var pkg unit
		for _, u := range us {
			if !u.VetxOnly {
				pkg = u
			}
		}
		fmt.Printf("%-8s %10s %10s %6dMB  %d reports (the package has %d races)\n", tool.name, round(wall), round(pkg.Wall), pkg.MaxRSSKB/1024, reportCount(out), sites)
		if tool.name == "origo" {
			for _, l := range bigPkgNotes(out) {
				fmt.Printf("         %s\n", l)
			}
		}
	}
	return nil
}

// bigPkgNotes returns the lines of origo's output that say a bound was
// hit: a package skipped, a budget, a degraded analysis.
func bigPkgNotes(out string) []string {
	var notes []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "origo: ") {
			notes = append(notes, l)
		}
	}
	if len(notes) == 0 {
		notes = append(notes, "no bound hit: analyzed whole")
	}
	return notes
}

// reportCount counts the findings in go vet's output: lines that start
// with a position, but for their related positions, whose message
// starts with a tab.
func reportCount(out string) int {
	return len(regexp.MustCompile(`(?m)^\S+\.go:\d+:\d+: [^\t]`).FindAllString(out, -1))
}

// writeBigPkg writes the generated package into dir and returns how many
// services and go statement sites it has and its lines. With registry
// not 0, every service registers itself in one list, of which each keeps
// that many copies.
func writeBigPkg(dir string, lines, goEvery, registry int) (services, sites, written int, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, 0, 0, err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/big\n\ngo 1.26\n"), 0o644); err != nil {
		return 0, 0, 0, err
	}
	const perFile = 40
	var sample bytes.Buffer
	writeService(&sample, 0, 1, true, registry)
	perService := bytes.Count(sample.Bytes(), []byte("\n"))
	services = max(2, lines/perService)
	for file := 0; file*perFile < services; file++ {
		var b bytes.Buffer
		b.WriteString("package main\n\nimport \"sync\"\n")
		for i := file * perFile; i < min(services, (file+1)*perFile); i++ {
			spawns := i%goEvery == 0
			if spawns {
				sites++
			}
			writeService(&b, i, (i+1)%services, spawns, registry)
		}
		written += bytes.Count(b.Bytes(), []byte("\n"))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%03d.go", file)), b.Bytes(), 0o644); err != nil {
			return 0, 0, 0, err
		}
	}
	var m bytes.Buffer
	m.WriteString("package main\n\n")
	if registry > 0 {
		m.WriteString("import \"sync\"\n\n")
		m.WriteString("var (\n\tregistryMu sync.Mutex\n\tregistry   []any\n)\n\n")
		m.WriteString("func register(x any) {\n\tregistryMu.Lock()\n\tregistry = append(registry, x)\n\tregistryMu.Unlock()\n}\n\n")
	}
	m.WriteString("func main() {\n")
	fmt.Fprintf(&m, "\tfirst := newS0()\n\tfirst.Run([]int{1, 2, 3})\n\tfirst.Close()\n}\n")
	written += bytes.Count(m.Bytes(), []byte("\n"))
	return services, sites, written, os.WriteFile(filepath.Join(dir, "main.go"), m.Bytes(), 0o644)
}

// writeService writes service i, which calls service next; a spawning
// service starts its workers with a go statement, the others run them
// in line.
func writeService(b *bytes.Buffer, i, next int, spawns bool, registry int) {
	fmt.Fprintf(b, `
type S%[1]d struct {
	mu    sync.Mutex
	wg    sync.WaitGroup
	jobs  chan []int
	seen  map[int]int
	total int
	hits  int // written without mu by every worker: the race
	next  func() *S%[2]d
	peers [][]any
}

func newS%[1]d() *S%[1]d {
	s := &S%[1]d{jobs: make(chan []int), seen: make(map[int]int)}
	s.next = newS%[2]d
`, i, next)
	if registry > 0 {
		// Copies per service of a list of every service, each made at
		// a call site of its own: as many points-to members as
		// services, in each.
		fmt.Fprintf(b, "\tregister(s)\n\ts.peers = make([][]any, %d)\n\tregistryMu.Lock()\n", registry)
		for k := range registry {
			fmt.Fprintf(b, "\ts.peers[%d] = append([]any(nil), registry...)\n", k)
		}
		b.WriteString("\tregistryMu.Unlock()\n")
	}
	fmt.Fprintf(b, `	return s
}

func (s *S%[1]d) Run(items []int) {
`, i)
	if spawns {
		b.WriteString(`	for w := 0; w < 2; w++ {
		s.wg.Add(1)
		go s.worker()
	}
	for k := 0; k < len(items); k += 2 {
		s.jobs <- items[k:min(k+2, len(items))]
	}
	close(s.jobs)
	s.wg.Wait()
`)
	} else {
		b.WriteString(`	for _, v := range items {
		s.add(v)
	}
	s.hits++
`)
	}
	fmt.Fprintf(b, `	s.report()
	s.then()
}

func (s *S%[1]d) worker() {
	defer s.wg.Done()
	for batch := range s.jobs {
		for _, v := range batch {
			s.add(v)
		}
		s.hits++
	}
}

func (s *S%[1]d) then() {
	if n := s.next(); n != nil && len(n.seen) == 0 {
		n.Run([]int{s.report()})
	}
}

func (s *S%[1]d) add(v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen[v]++
	s.total += v
}

func (s *S%[1]d) report() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total + len(s.seen) + s.hits
}

func (s *S%[1]d) Close() {
	s.mu.Lock()
	s.seen = nil
	s.mu.Unlock()
}
`, i)
}
