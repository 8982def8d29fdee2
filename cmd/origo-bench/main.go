// Command origo-bench measures origo on real modules. Figures are printed
// as ratios against a reference measured in the same run, as min and
// median of several runs, because machines are shared and noisy.
//
//	origo-bench vet [-n 5] [-units 1] [-origo path] [-C dir] [packages]
//
// runs go vet on the packages with origo as the vet tool and with the
// standard vet suite (plain go vet), alternating, each run with fresh
// analysis results while compiled packages stay cached: a copy of
// origo's binary with a nonce appended (go vet keys results by the
// tool's content hash), and for plain go vet a flag that changes only
// its cache key. These plain runs give the wall time (min, median,
// ratio) and the fully warm time. A separate pass (-units runs; 0 for none) goes
// through a wrapper that times each unit's process, for per-package
// time (median, max), the bytes of facts written, and the peak RSS of
// one package's analysis; its process per unit would dilute the ratio.
//
//	origo-bench edit [-n 3] [-origo path] [-C dir] -edit file.go:Func [packages]
//
// measures the re-run of go vet after an edit of one function's body
// (file relative to -C; Func is F or T.M; -edit repeats), with origo and
// with the standard vet tool, every other result cached: wall time (min,
// median, ratio), and the packages analysed again, each with whether the
// facts it wrote changed. The edit moves no position, so a package whose
// exported behaviour is unchanged should write byte-identical facts and
// leave its importers' results cached.
//
//	origo-bench sharedcache [-origo path] [-C dir] [packages]
//
// shows origo's results shared through Go's build cache: it runs go vet
// with origo twice, each from an empty GOCACHE backed by one shared store
// through GOCACHEPROG (origo-bench cacheprog -dir store, a cache program
// that keeps its objects in a directory), and prints both wall times as
// ratios to a fully warm run in the ordinary build cache.
//
//	origo-bench bigpkg [-lines 150000] [-goevery 5] [-origo path] [-keep dir]
//
// generates one package of the given size (services that each carry a
// mutex, a channel and a data race, start goroutines at every goevery-th
// service, and call the next) and vets it with the standard vet tool and
// with origo: wall time, the package's time and peak RSS, the reports,
// and origo's lines that say a bound was hit (a package skipped, an
// analysis degraded).
//
//	origo-bench sensitivity [-C dir] [packages]
//
// runs the pointer analysis on the packages with origin sensitivity and
// without (one context for every function), and prints the number of
// origin-shared locations of each: what origins save the race analysis.
//
//	origo-bench racecorpus [-origo path] [-analyzer race] [-keep dir] [-v] [-confirm [-confirm.budget d]]
//
// scores an analyzer of origo on Go's own labelled race corpus,
// $GOROOT/src/runtime/race/testdata, vetted as a scratch module: the
// share of TestRace functions with a diagnostic (found races) and of
// TestNoRace functions with one (false alarms), and the diagnostics by
// kind (their category: race/data-race, race/concurrent-map-access...).
// -v lists the missed tests and the false alarms. Without -origo, it builds origo from the
// repository of the current directory, so run it from there.
// -confirm runs the standalone origo -confirm instead of go vet (the
// corpus's tests run under the race detector) and adds, by enclosing
// test function, the flagged TestRace functions with a confirmed report
// (goal ≥ 90%) and the TestNoRace functions with one (each a bug of
// -confirm: the corpus says they have no race), and the time it took;
// -v lists the flagged TestRace functions not confirmed, with why.
//
//	origo-bench realcode [-origo path] [-keep dir] [-only module] [-verdicts file] [-firstlook file] [-v] [-confirm [-confirm.budget d] [-confirm.parallel n]]
//
// vets released modules (servers, clients, drivers, caches, schedulers:
// grpc, etcd server, prometheus client_golang, nats.go, go-redis, raft,
// ... at fixed versions) with origo, each a copy from the module proxy in
// a scratch directory, and compares every report with its verdict in
// testdata/realcode.verdicts, judged by reading the code: per module, the
// reports, how many are judged TRUE, FALSE or UNSURE or not yet judged,
// and precision = true / (true + false), and the same by kind of report
// (the diagnostics' category) over all modules, for the default reports;
// then with race's possible data races too (it runs go vet with
// -race.all once: the default tier is the rest), the reports, those not
// judged and the precision. Beside them, for modules
// with a first-look record (testdata/realcode.firstlook: the verdicts of
// origo's first reports on the module, judged before origo was changed
// for it), that record's reports, TRUE, FALSE and precision. -v lists the
// reports not yet judged in verdict-file format; verdicts that match no
// report are listed as stale. -keep reuses the prepared modules between
// runs. -confirm runs the standalone origo -confirm on each module
// instead (its tests run) and prints, as each module is done, its
// reports, those confirmed, tried and not confirmed, not reachable from
// any test, of a kind no run witnesses, the time -confirm took and the
// whole run's; then each confirmed report with its verdict and the
// command that reproduces it. A confirmed report judged FALSE (a bug of
// -confirm or a wrong verdict) or not judged is printed loudly, and the
// bench fails.
//
//	origo-bench realbugs [-origo path] [-keep dir] [-only id] [-bugs file] [-v]
//
// checks origo on concurrency bugs reported and fixed upstream in
// released modules (testdata/realbugs.tsv: the module, the last release
// with the bug and the first with the fix, the kind, and the bug's own
// operations' lines in each): it vets the packages of the bug's files in
// both releases and prints per bug whether a report of its kind names
// its operations (found: both accesses of a race, both lock operations
// of a deadlock, the blocked operation of a leak), in the default reports
// and with race's possible data races (-race.all), and whether the fixed
// release is silent there; then the share found, by kind, with -all, and
// the share of those found that the fix silences. -v prints the report that found
// each bug, and a missed bug's package's other reports.
//
//	origo-bench leakcorpus [-origo path] [-analyzers deadlock,blocking] [-keep dir] [-v] [-confirm [-confirm.budget d] [-confirm.parallel n]]
//
// scores origo's blocking reports on Go's goroutine-leak corpus,
// $GOROOT/src/runtime/testdata/testgoroutineleakprofile (the micro tests,
// common patterns and stress tests of its main directory, and the GoKer
// kernels of real blocking bugs in goker/), vetted as a scratch module;
// every file builds there, none is left out. The expectations are read
// with go/parser from $GOROOT/src/runtime/goroutineleakprofile_test.go:
// its []testCase lists of makeTest("Name", leak regexps...) and
// makeFlakyTest (flaky leaks are real leaks, counted as expected). A
// case's entry is the function registered under its name; a leak's
// regular expression is matched, as the test does, against
// "function() [wait reason]" for every function of the entry's package
// and every blocking wait reason, functions named as in a traceback
// (F, (*T).M, closures F.func1, F.func2.1 in source order). A diagnostic
// of the -analyzers counts for an expected leak when its kind (from its
// category, the kind of report: a mutex deadlock, or the operation that
// blocks forever, a send, a receive, a Wait...; for blocking while
// holding a lock, both) meets the kind of the wait reason (channel and
// select, mutex, WaitGroup, Cond), and it lies in the top-level function
// or method enclosing an expected function ("found"), or in a function or
// method of the same file that the expected function names, transitively
// ("found with callees": where the goroutine may block). It prints, for
// the goker kernels, the patterns and in total, the expected leaks found,
// the cases with all leaks found or some, the cases expecting no leak
// that are flagged, and the diagnostics outside any expectation. -v lists
// every case with its leaks and the diagnostics that matched them, and
// the diagnostics outside any expectation. -confirm writes in each of
// the two programs a test per case that calls its entry (the corpus has
// no tests: the runtime's test runs each program with the case's name),
// runs the standalone origo -confirm with the -analyzers on the module
// (the scores above are then of that run's diagnostics), and prints per
// group the diagnostics confirmed, matching an expected leak or not, in
// a case expecting no leak (each a bug of -confirm: it fails), tried and
// not confirmed, not reachable; the expected leaks with a confirmed
// diagnostic; and the confirmed diagnostics outside any expected leak.
//
//	origo-bench corpus [-origo path] [-keep dir] [-only target] [-v]
//
// vets all of std and the modules of the performance work (grpc, etcd
// server, prometheus client_golang, badger v4) twice each, with fresh
// analysis results, the tool on GOMAXPROCS=1 and then 8, and prints per
// target the packages analysed, those where origo panicked (must be 0),
// failed inside and recovered, or skipped past a bound, and those whose
// output or facts differ between the two runs (must be 0). -v lists
// each package with trouble or a difference.
//
//	origo-bench golangci [-version v2.15.0] [-keep dir]
//
// builds golangci-lint with origo's module plugin linked in, as
// "golangci-lint custom" does (golangci-lint from the module proxy, origo
// from this repository), runs it on testdata/demo, and checks that it
// reports the demo's data race and deadlock: PASS, or FAIL and exit
// status 1. Exit status 4 says that the module proxy was unreachable.
//
//	origo-bench editor [-module grpc] [-n 3] [-keep dir] [-test=false]
//
// measures what an editor would pay per package: it loads a module of the
// corpus run (from the module proxy as realcode does, or from -keep),
// runs origo's analyzers and, as the reference, go vet's, through the
// checker, and sums per package the durations of the actions on it (its
// dependencies' facts computed already, as gopls and go vet cache them).
// It prints, for each suite, the min and median over runs of the
// per-package median, 90th percentile and maximum, the module's total and
// the one-time cost of the dependencies, origo's ratios, and origo's five
// slowest packages.
package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	if os.Getenv(envTool) != "" {
		os.Exit(wrap(os.Args[1:]))
	}
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "vet":
		err = benchVet(os.Args[2:])
	case "sensitivity":
		err = benchSensitivity(os.Args[2:])
	case "racecorpus":
		err = benchRaceCorpus(os.Args[2:])
	case "realcode":
		err = benchRealCode(os.Args[2:])
	case "realbugs":
		err = benchRealBugs(os.Args[2:])
	case "leakcorpus":
		err = benchLeakCorpus(os.Args[2:])
	case "corpus":
		err = benchCorpus(os.Args[2:])
	case "golangci":
		err = benchGolangci(os.Args[2:])
	case "editor":
		err = benchEditor(os.Args[2:])
	case "edit":
		err = benchEdit(os.Args[2:])
	case "sharedcache":
		err = benchSharedCache(os.Args[2:])
	case "cacheprog":
		err = cacheProg(os.Args[2:])
	case "bigpkg":
		err = benchBigPkg(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "origo-bench: "+err.Error())
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, `usage: origo-bench vet [-n runs] [-origo path] [-C dir] [packages]
       origo-bench edit [-n runs] [-origo path] [-C dir] -edit file.go:Func [packages]
       origo-bench sharedcache [-origo path] [-C dir] [packages]
       origo-bench cacheprog -dir store
       origo-bench bigpkg [-lines 150000] [-goevery 5] [-origo path] [-keep dir]
       origo-bench sensitivity [-C dir] [packages]
       origo-bench racecorpus [-origo path] [-analyzer race] [-keep dir] [-v] [-confirm [-confirm.budget d]]
       origo-bench realcode [-origo path] [-keep dir] [-only module] [-verdicts file] [-firstlook file] [-v] [-confirm [-confirm.budget d] [-confirm.parallel n]]
       origo-bench realbugs [-origo path] [-keep dir] [-only id] [-bugs file] [-v]
       origo-bench leakcorpus [-origo path] [-analyzers deadlock,blocking] [-keep dir] [-v] [-confirm [-confirm.budget d] [-confirm.parallel n]]
       origo-bench corpus [-origo path] [-keep dir] [-only target] [-v]
       origo-bench golangci [-version v2.15.0] [-keep dir]
       origo-bench editor [-module grpc] [-n 3] [-keep dir] [-test=false]

Without -origo, vet, racecorpus, realcode, leakcorpus and corpus build origo: run them in the origo repository.`)
	os.Exit(2)
}

// origoBinary returns the absolute path of the origo binary to measure:
// path if given (go vet runs elsewhere, so a relative path would not do),
// or one built from the repository of the current directory into dir.
func origoBinary(path, dir string) (string, error) {
	if path != "" {
		return filepath.Abs(path)
	}
	path = filepath.Join(dir, "origo")
	build := exec.Command("go", "build", "-o", path, "github.com/origo-dev/origo/cmd/origo")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		return "", fmt.Errorf("building origo (run from the origo repository, or give -origo): %v", err)
	}
	return path, nil
}

// vetSetup prepares a run of go vet through this program (see wrap): it
// returns this program's path, a temporary directory that the caller
// removes, the directory to work in (name in the temporary one, or keep
// when given), and sets *origo to the origo binary to run (see
// origoBinary).
func vetSetup(keep, name string, origo *string) (self, tmp, dir string, err error) {
	if self, err = os.Executable(); err != nil {
		return "", "", "", err
	}
	if tmp, dir, err = scratch(keep, name); err != nil {
		return "", "", "", err
	}
	if *origo, err = origoBinary(*origo, tmp); err != nil {
		os.RemoveAll(tmp)
		return "", "", "", err
	}
	return self, tmp, dir, nil
}

// scratch makes a temporary directory, which the caller removes, and
// returns it with the directory to work in: name inside it, or keep
// when given, kept between runs.
func scratch(keep, name string) (tmp, dir string, err error) {
	tmp, err = os.MkdirTemp("", "origo-bench")
	if err != nil {
		return "", "", err
	}
	dir = filepath.Join(tmp, name)
	if keep != "" {
		if dir, err = filepath.Abs(keep); err != nil {
			os.RemoveAll(tmp)
			return "", "", err
		}
	}
	return tmp, dir, nil
}

// writeCorpusModule makes dir the module named module holding copies of
// the corpus files, slash paths relative to corpusDir, in their
// subdirectories. A kept directory may be reused, but not one that holds
// other Go files: they would be vetted too and skew the figures.
func writeCorpusModule(dir, module, corpusDir string, files []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if !slices.Contains(files, filepath.ToSlash(rel)) {
			return fmt.Errorf("%s holds %s, which is not in the corpus: use an empty directory", dir, rel)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+module+"\n\ngo 1.26\n"), 0o644); err != nil {
		return err
	}
	for _, rel := range files {
		data, err := os.ReadFile(filepath.Join(corpusDir, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
