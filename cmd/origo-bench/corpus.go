package main

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The corpus run is origo's reliability check on everything at hand:
// all of std and the modules of the performance work, vetted twice with
// fresh analysis results, once with the tool on one thread and once on
// eight. A package passes when origo neither panics nor fails inside on
// it, and both runs print the same diagnostics and write the same facts.

// corpusModules are the modules of the corpus run besides std.
var corpusModules = append(slices.Clone(realModules), realModule{"github.com/dgraph-io/badger/v4", "v4.9.6"})

// corpusRow is the outcome of the two runs on one target.
type corpusRow struct {
	name       string
	packages   int
	panics     int // packages whose analysis panicked or died
	internal   int // packages with an internal error that origo recovered from
	skipped    int // packages skipped past a bound
	differ     int // packages whose output or facts differ between the runs
	wall       [2]time.Duration
	details    []string
	vetFailure string
}

// benchCorpus vets std and the corpus modules twice each and prints,
// per target, the packages analysed, the panics, internal errors and
// bound hits, and the packages whose output or facts differ.
func benchCorpus(args []string) error {
	fs := flag.NewFlagSet("corpus", flag.ExitOnError)
	origo := fs.String("origo", "", "the origo binary (default: built from the repository of the current directory)")
	keep := fs.String("keep", "", "prepare the scratch modules in this directory and keep them for later runs")
	only := fs.String("only", "", "vet only the targets (std, module paths) whose name contains this string")
	verbose := fs.Bool("v", false, "list each package with trouble or a difference")
	fs.Parse(args)
	if fs.NArg() > 0 {
		usage()
	}
	self, tmp, root, err := vetSetup(*keep, "modules", origo)
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	version, _ := exec.Command(*origo, "-V=full").Output()
	fmt.Printf("corpus: %s, two runs per target with analysis results uncached (the tool on GOMAXPROCS=1, then 8)\n\n", strings.TrimSpace(string(version)))

	type target struct{ name, dir, pattern string }
	var targets []target
	if strings.Contains("std", *only) {
		targets = append(targets, target{"std", "", "std"})
	}
	for _, m := range corpusModules {
		if !strings.Contains(m.path, *only) {
			continue
		}
		dir := filepath.Join(root, strings.ReplaceAll(m.path, "/", "_")+"@"+m.version)
		if err := prepareModule(m, dir); err != nil {
			return err
		}
		targets = append(targets, target{m.path, dir, "./..."})
	}
	var rows []corpusRow
	for _, t := range targets {
		var runs [2][]unit
		row := corpusRow{name: t.name}
		for i, procs := range []string{"1", "8"} {
			log := filepath.Join(tmp, fmt.Sprintf("corpus-%d-%d.jsonl", len(rows), i))
			cmd := exec.Command("go", "vet", "-vettool="+self, "-json", t.pattern)
			cmd.Dir = t.dir
			cmd.Env = append(os.Environ(), "GOWORK=off", envTool+"="+*origo, envLog+"="+log, envProcs+"="+procs,
				envNonce+"="+strconv.FormatInt(time.Now().UnixNano(), 36))
			out := new(strings.Builder)
			cmd.Stdout, cmd.Stderr = out, out
			start := time.Now()
			if err := cmd.Run(); err != nil && row.vetFailure == "" {
				// go vet exits non-zero when a package does not build;
				// the units logged still say what origo did.
				row.vetFailure = lastLines(out.String(), 5)
			}
			row.wall[i] = time.Since(start)
			if runs[i], err = readUnits(log); err != nil {
				return err
			}
		}
		scoreCorpus(&row, runs)
		rows = append(rows, row)
	}
	printCorpus(rows, *verbose)
	return nil
}

// scoreCorpus counts the packages of two runs and their trouble.
func scoreCorpus(row *corpusRow, runs [2][]unit) {
	byPkg := [2]map[string]unit{make(map[string]unit), make(map[string]unit)}
	for i, us := range runs {
		for _, u := range us {
			byPkg[i][u.Package+vetxSuffix(u)] = u
		}
	}
	names := slices.Sorted(maps.Keys(byPkg[0]))
	for name := range byPkg[1] {
		if _, ok := byPkg[0][name]; !ok {
			names = append(names, name)
		}
	}
	row.packages = len(names)
	for _, name := range names {
		a, okA := byPkg[0][name]
		b, okB := byPkg[1][name]
		var panicked, internal, skipped bool
		for _, u := range []unit{a, b} {
			for _, line := range u.Trouble {
				switch {
				case strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: "):
					panicked = true
				case strings.Contains(line, "origo: internal error in"):
					internal = true
				default:
					skipped = true
				}
				row.details = append(row.details, name+": "+line)
			}
			if u.ExitCode > 1 && len(u.Trouble) == 0 && u.Package != "" {
				panicked = true // died without a word: a fatal signal
				row.details = append(row.details, fmt.Sprintf("%s: exit %d", name, u.ExitCode))
			}
		}
		differ := !okA || !okB || a.OutHash != b.OutHash || a.FactsHash != b.FactsHash
		if differ {
			row.details = append(row.details, fmt.Sprintf("%s: runs differ (output %s vs %s, facts %s vs %s)", name, a.OutHash, b.OutHash, a.FactsHash, b.FactsHash))
		}
		row.panics += b2i(panicked)
		row.internal += b2i(internal)
		row.skipped += b2i(skipped)
		row.differ += b2i(differ)
	}
	row.details = slices.Compact(row.details)
}

// vetxSuffix tells apart the facts-only run of a package from its full
// analysis: go vet runs both for a package that is vetted and imported.
func vetxSuffix(u unit) string {
	if u.VetxOnly {
		return " (facts only)"
	}
	return ""
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func printCorpus(rows []corpusRow, verbose bool) {
	fmt.Printf("%-38s %8s %7s %9s %8s %7s %11s %11s\n", "target", "packages", "panics", "internal", "skipped", "differ", "wall 1", "wall 2")
	var total corpusRow
	for _, r := range rows {
		fmt.Printf("%-38s %8d %7d %9d %8d %7d %11s %11s\n", r.name, r.packages, r.panics, r.internal, r.skipped, r.differ, round(r.wall[0]), round(r.wall[1]))
		total.packages += r.packages
		total.panics += r.panics
		total.internal += r.internal
		total.skipped += r.skipped
		total.differ += r.differ
		total.wall[0] += r.wall[0]
		total.wall[1] += r.wall[1]
	}
	fmt.Printf("%-38s %8d %7d %9d %8d %7d %11s %11s\n", "total", total.packages, total.panics, total.internal, total.skipped, total.differ, round(total.wall[0]), round(total.wall[1]))
	for _, r := range rows {
		if r.vetFailure != "" {
			fmt.Printf("\n%s: go vet failed (a package that does not build?):\n%s\n", r.name, r.vetFailure)
		}
		if !verbose || len(r.details) == 0 {
			continue
		}
		fmt.Printf("\n%s:\n", r.name)
		for _, d := range r.details {
			fmt.Println("  " + d)
		}
	}
	if total.panics > 0 || total.differ > 0 {
		fmt.Println("\nFAIL: origo must not panic, and must give the same answer every time")
	}
}
