package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// benchVet compares go vet with origo against go vet with the standard
// vet tool on the same packages.
func benchVet(args []string) error {
	fs := flag.NewFlagSet("vet", flag.ExitOnError)
	runs := fs.Int("n", 5, "number of runs of each tool, plain go vet, for the wall times")
	unitRuns := fs.Int("units", 1, "number of runs of each tool through the per-package wrapper, for the per-package figures (0: none, only the wall times)")
	origo := fs.String("origo", "", "the origo binary (default: built from this repository)")
	dir := fs.String("C", ".", "run go vet in this directory")
	fs.Parse(args)
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	self, tmp, _, err := vetSetup("", "", origo)
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	stdvet, err := stdVet()
	if err != nil {
		return err
	}

	// Warm the build cache: compiling is not what is measured.
	warm := exec.Command("go", append([]string{"vet"}, patterns...)...)
	warm.Dir = *dir
	warm.Run()

	tools := []struct{ name, path string }{{"go vet", stdvet}, {"origo", *origo}}
	walls := make([][]time.Duration, len(tools))
	warmWalls := make([][]time.Duration, len(tools)) // the same run again: every result cached
	units := make([][][]unit, len(tools))
	// The wall times are plain go vet runs, as a user runs them: the
	// wrapper's process per unit (see wrap) would add the same cost to
	// both tools and dilute the ratio.
	for range *runs {
		for i, tool := range tools {
			nonce := strconv.FormatInt(time.Now().UnixNano(), 36)
			cmd, done, err := plainVet(*dir, patterns, tool.name == "origo", *origo, tmp, nonce)
			if err != nil {
				return err
			}
			wall, out := timedRun(cmd())
			walls[i] = append(walls[i], wall)
			if crashed(out) {
				done()
				return fmt.Errorf("%s crashed or failed inside:\n%s", tool.name, lastLines(out, 40))
			}
			wall, _ = timedRun(cmd())
			warmWalls[i] = append(warmWalls[i], wall)
			done()
		}
	}
	// The per-package figures, in a pass of their own: go vet through
	// the wrapper, which times each unit's process.
	for run := range *unitRuns {
		for i, tool := range tools {
			log := filepath.Join(tmp, fmt.Sprintf("%d-%d.jsonl", i, run))
			_, out := wrappedVet(*dir, patterns, self, tool.path, log, strconv.FormatInt(time.Now().UnixNano(), 36))
			if crashed(out) {
				return fmt.Errorf("%s crashed or failed inside:\n%s", tool.name, lastLines(out, 40))
			}
			us, err := readUnits(log)
			if err != nil {
				return err
			}
			units[i] = append(units[i], us)
		}
	}
	fmt.Printf("packages %s in %s, %d plain go vet runs of each tool, analysis results uncached, compilation cached;\n", strings.Join(patterns, " "), *dir, *runs)
	ref := median(walls[0])
	if *unitRuns < 1 {
		fmt.Printf("no run through the per-unit wrapper (-units 0): no per-package figures\n\n")
		fmt.Printf("%-8s %10s %10s %8s\n", "tool", "wall min", "median", "ratio")
		for i, tool := range tools {
			fmt.Printf("%-8s %10s %10s %7.2fx\n", tool.name,
				round(slices.Min(walls[i])), round(median(walls[i])), float64(median(walls[i]))/float64(ref))
		}
	} else {
		fmt.Printf("units, per-package times and RSS from %d run(s) through the per-unit wrapper\n\n", *unitRuns)
		fmt.Printf("%-8s %10s %10s %8s %10s %12s %12s %10s\n", "tool", "wall min", "median", "ratio", "units", "pkg median", "pkg max", "max RSS")
		for i, tool := range tools {
			perPkg, maxRSS, n := pkgFigures(units[i])
			fmt.Printf("%-8s %10s %10s %7.2fx %10d %12s %12s %8dMB\n", tool.name,
				round(slices.Min(walls[i])), round(median(walls[i])), float64(median(walls[i]))/float64(ref),
				n, round(median(perPkg)), round(slices.Max(perPkg)), maxRSS/1024)
		}
	}
	fmt.Println("\nfully warm: the same go vet again, every analysis result in the build cache")
	fmt.Printf("%-8s %10s %10s %8s\n", "tool", "wall min", "median", "ratio")
	warmRef := median(warmWalls[0])
	for i, tool := range tools {
		fmt.Printf("%-8s %10s %10s %7.2fx\n", tool.name, round(slices.Min(warmWalls[i])), round(median(warmWalls[i])), float64(median(warmWalls[i]))/float64(warmRef))
	}
	if *unitRuns < 1 {
		return nil
	}
	fmt.Println()
	for i, tool := range tools {
		var facts, types int64
		for _, u := range units[i][0] {
			facts, types = facts+u.FactsBytes, types+u.TypesBytes
		}
		fmt.Printf("%-8s facts written in one run: %d bytes", tool.name, facts)
		if types > 0 {
			fmt.Printf(" (and %d bytes of type information, which its unitchecker writes in the same files)", types)
		}
		fmt.Println()
	}
	slowest := slices.Clone(units[1][0])
	slices.SortFunc(slowest, func(x, y unit) int { return int(y.Wall - x.Wall) })
	fmt.Println("\norigo's slowest packages (first run):")
	for _, u := range slowest[:min(5, len(slowest))] {
		fmt.Printf("  %-50s %10s %6dMB facts %d bytes\n", u.Package, round(u.Wall), u.MaxRSSKB/1024, u.FactsBytes)
	}
	fmt.Println("\norigo's slowest package in each run:")
	for run, us := range units[1] {
		if len(us) > 0 {
			u := slices.MaxFunc(us, func(x, y unit) int { return cmp.Compare(x.Wall, y.Wall) })
			fmt.Printf("  run %d: %-43s %10s\n", run+1, u.Package, round(u.Wall))
		}
	}
	return nil
}

// plainVet returns a go vet command on the packages in dir as a user
// runs it, with the standard suite or with origo, whose analysis
// results go vet cannot take from its cache: for the standard suite, a
// flag that changes nothing but go vet's cache key
// (-printf.funcs=NONCE, a print wrapper no code calls); for origo, a
// copy of its binary with nonce appended, whose content hash is the
// tool ID go vet keys results by. done removes the copy. Each call of
// the command is a new *exec.Cmd, the first cold, the next warm.
func plainVet(dir string, patterns []string, isOrigo bool, origo, tmp, nonce string) (cmd func() *exec.Cmd, done func(), err error) {
	if !isOrigo {
		return func() *exec.Cmd {
			c := exec.Command("go", append([]string{"vet", "-printf.funcs=origobench" + nonce}, patterns...)...)
			c.Dir = dir
			return c
		}, func() {}, nil
	}
	data, err := os.ReadFile(origo)
	if err != nil {
		return nil, nil, err
	}
	copied := filepath.Join(tmp, "origo-"+nonce)
	if err := os.WriteFile(copied, append(data, "\norigo-bench nonce "+nonce+"\n"...), 0o755); err != nil {
		return nil, nil, err
	}
	return func() *exec.Cmd { return goVetCmd(dir, copied, patterns) }, func() { os.Remove(copied) }, nil
}

// wrappedVet runs go vet in dir on the packages with origo-bench as the
// vet tool, wrapping tool (see wrap), and returns its wall time and
// output.
func wrappedVet(dir string, patterns []string, self, tool, log, nonce string, env ...string) (time.Duration, string) {
	return timedRun(goVetCmd(dir, self, patterns, append([]string{envTool + "=" + tool, envLog + "=" + log, envNonce + "=" + nonce}, env...)...))
}

// timedRun runs cmd and returns its wall time and its output, standard
// output and error together; a failure shows in the output.
func timedRun(cmd *exec.Cmd) (time.Duration, string) {
	out := new(strings.Builder)
	cmd.Stdout, cmd.Stderr = out, out
	start := time.Now()
	cmd.Run()
	return time.Since(start), out.String()
}

// goVetCmd is go vet in dir on the packages with the vet tool, in the
// environment with env added.
func goVetCmd(dir, tool string, patterns []string, env ...string) *exec.Cmd {
	cmd := exec.Command("go", append([]string{"vet", "-vettool=" + tool}, patterns...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

func readUnits(name string) ([]unit, error) {
	f, err := os.Open(name)
	if os.IsNotExist(err) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []unit
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var u unit
		if err := json.Unmarshal(sc.Bytes(), &u); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, sc.Err()
}

// pkgFigures returns, over all runs, each package's median time, the
// peak RSS of any one package, and the number of packages per run.
func pkgFigures(runs [][]unit) (perPkg []time.Duration, maxRSS int64, n int) {
	times := make(map[string][]time.Duration)
	var names []string
	for _, us := range runs {
		for _, u := range us {
			if _, ok := times[u.Package]; !ok {
				names = append(names, u.Package)
			}
			times[u.Package] = append(times[u.Package], u.Wall)
			maxRSS = max(maxRSS, u.MaxRSSKB)
		}
	}
	for _, name := range names {
		perPkg = append(perPkg, median(times[name]))
	}
	if len(perPkg) == 0 {
		perPkg = []time.Duration{0}
	}
	return perPkg, maxRSS, len(names)
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func round(d time.Duration) time.Duration {
	switch {
	case d > time.Second:
		return d.Round(10 * time.Millisecond)
	case d > time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d
}

// crashed reports whether vet's output shows a panic or an internal
// error of origo, not a diagnostic that happens to mention "panic: " (a
// race on a field named panic).
func crashed(out string) bool {
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "panic: ") || strings.Contains(line, "origo: internal error in") {
			return true
		}
	}
	return false
}
