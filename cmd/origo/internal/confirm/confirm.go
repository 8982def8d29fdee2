// Package confirm runs the tests that reach a static report and turns
// the report into a witnessed bug when a run shows it: the race
// detector prints the report's two accesses, a goroutine is blocked at
// the reported operation when the test hangs, or the runtime's
// goroutine leak profile holds a goroutine leaked there. It is the
// engine of "origo -confirm".
//
// For each report it finds the tests that may run its code (the test a
// goroutine start chain names, then the tests that call, by name, the
// functions holding its positions), builds the package's test binary
// once, from a -overlay copy of its files with a yield before each
// reported statement (see overlay.go), and runs the test several times
// within a budget, with the yields and -cpu varied, until a run
// witnesses the report. The user's files are never written, and the
// temporary directories are removed when Run returns.
package confirm

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"go/build"
	"go/token"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Mode is the value of the -confirm flag.
type Mode int

const (
	Off  Mode = iota // no runs
	On               // run, and mark the confirmed reports
	Only             // run, and print only the confirmed reports
)

// modeValue is -confirm as a flag: a boolean that also takes "only".
type modeValue Mode

func (m *modeValue) String() string {
	switch Mode(*m) {
	case On:
		return "true"
	case Only:
		return "only"
	}
	return "false"
}

func (m *modeValue) Set(s string) error {
	if s == "only" {
		*m = modeValue(Only)
		return nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true, false or only")
	}
	*m = modeValue(Off)
	if b {
		*m = modeValue(On)
	}
	return nil
}

func (m *modeValue) IsBoolFlag() bool { return true }

// Options are the settings of a confirmation.
type Options struct {
	Mode     Mode
	Budget   time.Duration // the runs of one report, past the builds of its package
	Parallel int           // builds and test runs at once
	Tags     string        // build tags, comma-separated
}

// RegisterFlags registers -confirm, -confirm.budget and
// -confirm.parallel on fs and returns the options they set.
func RegisterFlags(fs *flag.FlagSet) *Options {
	o := &Options{Budget: 30 * time.Second, Parallel: max(1, runtime.NumCPU()/2)}
	fs.Var((*modeValue)(&o.Mode), "confirm", "run the tests that reach each race, deadlock and blocking report (go test -race, a timeout, the goroutine leak profile) and mark the reports a run witnesses; -confirm=only prints only those. This runs your tests")
	fs.DurationVar(&o.Budget, "confirm.budget", o.Budget, "time the runs of one report may take under -confirm")
	fs.IntVar(&o.Parallel, "confirm.parallel", o.Parallel, "builds and test runs at once under -confirm")
	return o
}

// Position is a position in a file, as analysis reports give it.
type Position = token.Position

// Report is a finding to confirm.
type Report struct {
	Analyzer string // race, deadlock, blocking; others are not tried
	Message  string
	Posn     Position
	Related  []Related
	Package  string // import path of the package whose tests run it, for the command that reproduces it
}

// Related is a related position of a report, or a frame of a stack a
// run witnessed.
type Related struct {
	Posn    Position
	Message string
}

// Status is what a confirmation came to.
type Status string

const (
	Confirmed    Status = "confirmed"     // a run witnessed the report
	NotConfirmed Status = "not confirmed" // tests ran, and none witnessed it
	NoTest       Status = "no test"       // no test, benchmark or fuzz target reaches it
	NotTried     Status = "not tried"     // a kind of report no run can witness
)

// Result is the outcome of one report: what the outputs print, in its
// message, as related positions, and as a property in -json and SARIF.
type Result struct {
	Status    Status    `json:"status"`
	Confirmed bool      `json:"confirmed"`
	Test      string    `json:"test,omitempty"`     // the test that witnessed it, or the first tried
	Witness   string    `json:"witness,omitempty"`  // race detector, goroutine dump at timeout, goroutine leak profile
	Command   string    `json:"command,omitempty"`  // the go test command of the witnessing run
	Schedule  string    `json:"schedule,omitempty"` // the yields that run had, if any
	Runs      int       `json:"runs,omitempty"`     // runs made for this report
	Reason    string    `json:"reason,omitempty"`   // why it is not confirmed
	Stacks    []Related `json:"-"`                  // the witnessed stacks, as related positions
}

// Witnesses.
const (
	byRace = "race detector"
	byHang = "goroutine dump at timeout"
	byLeak = "goroutine leak profile"
)

// Suffix is what a confirmed report's message ends with:
// "confirmed by TestX under -race".
func (r *Result) Suffix() string {
	if !r.Confirmed {
		return ""
	}
	switch r.Witness {
	case byHang:
		return "confirmed by " + r.Test + ": blocked there when the test timed out"
	case byLeak:
		return "confirmed by " + r.Test + ": leaked there, per the goroutine leak profile"
	}
	return "confirmed by " + r.Test + " under -race"
}

// Summary counts the outcomes of a confirmation.
type Summary struct {
	Reports, Confirmed, NotConfirmed, NoTest, NotTried int
	Elapsed                                            time.Duration
	Notes                                              []string // a build that failed, a witness the toolchain lacks
}

func (s Summary) String() string {
	return fmt.Sprintf("-confirm: %d reports: %d confirmed, %d tried and not confirmed, %d not reachable from any test, %d of a kind no run witnesses (%s)",
		s.Reports, s.Confirmed, s.NotConfirmed, s.NoTest, s.NotTried, s.Elapsed.Round(100*time.Millisecond))
}

// kind is how a report is witnessed.
type kind int

const (
	notRun kind = iota
	raceKind
	blockKind
)

func classify(r *Report) kind {
	switch r.Analyzer {
	case "race":
		if strings.Contains(r.Message, "data race on ") && len(r.Related) > 0 && strings.HasPrefix(r.Related[0].Message, "the other ") {
			return raceKind
		}
	case "deadlock", "blocking":
		return blockKind
	}
	return notRun
}

// Bounds of the runs of one report.
const (
	maxTests = 3  // tests tried per report
	maxRuns  = 24 // runs per report, within its budget
)

// Run confirms reports and returns their results, in order, and the
// summary.
func Run(ctx context.Context, reports []Report, opts Options) ([]Result, Summary) {
	start := time.Now()
	// An interrupt stops the runs, and Run still removes what it wrote
	// before the driver prints what was confirmed so far.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts.Parallel = max(opts.Parallel, 1)
	results := make([]Result, len(reports))
	c := &confirmation{opts: opts, sem: make(chan struct{}, opts.Parallel), pkgs: make(map[string]*pkgRun)}
	defer c.cleanup()
	var todo []int
	for i := range reports {
		if classify(&reports[i]) == notRun {
			results[i] = Result{Status: NotTried, Reason: "-confirm runs race, deadlock and blocking reports"}
			continue
		}
		dir := filepath.Dir(reports[i].Posn.Filename)
		p := c.pkgs[dir]
		if p == nil {
			p = &pkgRun{c: c, dir: dir}
			c.pkgs[dir] = p
		}
		p.reports = append(p.reports, &reports[i])
		todo = append(todo, i)
	}
	// Reports of one package one after the other, so that its builds
	// are shared and its earlier runs can witness later reports.
	slices.SortStableFunc(todo, func(a, b int) int { return strings.Compare(reports[a].Posn.Filename, reports[b].Posn.Filename) })
	work := make(chan int)
	var wg sync.WaitGroup
	for range opts.Parallel {
		wg.Go(func() {
			for i := range work {
				r := &reports[i]
				results[i] = c.pkgs[filepath.Dir(r.Posn.Filename)].confirm(ctx, r)
			}
		})
	}
	for _, i := range todo {
		work <- i
	}
	close(work)
	wg.Wait()

	s := Summary{Reports: len(reports), Elapsed: time.Since(start), Notes: c.notes}
	for _, r := range results {
		switch r.Status {
		case Confirmed:
			s.Confirmed++
		case NotConfirmed:
			s.NotConfirmed++
		case NoTest:
			s.NoTest++
		case NotTried:
			s.NotTried++
		}
	}
	slices.Sort(s.Notes)
	s.Notes = slices.Compact(s.Notes)
	return results, s
}

// confirmation is the state of one Run.
type confirmation struct {
	opts  Options
	sem   chan struct{} // one token per process: a build or a run
	pkgs  map[string]*pkgRun
	mu    sync.Mutex
	notes []string
	tmps  []string
}

func (c *confirmation) note(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.notes = append(c.notes, s)
}

func (c *confirmation) cleanup() {
	for _, t := range c.tmps {
		os.RemoveAll(t)
	}
}

// run executes cmd, waiting for a process token first.
func (c *confirmation) run(ctx context.Context, f func() error) error {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-c.sem }()
	return f()
}

// pkgRun is the confirmation of the reports of one package directory.
type pkgRun struct {
	c       *confirmation
	dir     string
	reports []*Report

	setup    sync.Once
	src      *pkgSource
	in       *instrumented
	setupErr error

	bins [numBuildModes]struct {
		once sync.Once
		path string
		err  error
	}

	mu    sync.Mutex
	runs  []*run            // every run so far, which later reports are matched against first
	skips map[string]string // the tests that skipped or did not start, and how
}

// skipOf returns how test skipped or did not start in an earlier run of
// the package, or "".
func (p *pkgRun) skipOf(test string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.skips[test]
}

// prepare parses the package and writes its overlay.
func (p *pkgRun) prepare() error {
	p.setup.Do(func() {
		if p.src, p.setupErr = loadSource(p.dir, p.c.opts.Tags); p.setupErr != nil {
			return
		}
		var positions []Position
		for _, r := range p.reports {
			positions = append(positions, r.Posn)
			positions = append(positions, relatedPositions(r)...)
		}
		tmp, err := os.MkdirTemp("", "origo-confirm-")
		if err != nil {
			p.setupErr = err
			return
		}
		p.c.mu.Lock()
		p.c.tmps = append(p.c.tmps, tmp)
		p.c.mu.Unlock()
		p.in, p.setupErr = p.src.instrument(tmp, positions)
	})
	return p.setupErr
}

// binary builds, once, the test binary of the mode.
func (p *pkgRun) binary(ctx context.Context, mode buildMode) (string, error) {
	b := &p.bins[mode]
	b.once.Do(func() {
		b.err = p.c.run(ctx, func() error {
			var err error
			b.path, err = p.in.build(ctx, mode, p.c.opts.Tags)
			return err
		})
		if b.err == nil || mode != leakBuild {
			return
		}
		// A toolchain without the experiment, or a package that builds
		// only under -race: hangs can still be witnessed, without the
		// leak profile if need be.
		for _, alt := range []buildMode{leakRaceBuild, plainBuild, raceBuild} {
			if path, err := p.binary(ctx, alt); err == nil {
				if alt != leakRaceBuild {
					p.c.note(fmt.Sprintf("the goroutine leak profile is not available (GOEXPERIMENT=%s): %v", leakExperiment, b.err))
				}
				b.path, b.err = path, nil
				return
			}
		}
	})
	return b.path, b.err
}

// confirm tries one report.
func (p *pkgRun) confirm(ctx context.Context, r *Report) Result {
	if err := p.prepare(); err != nil {
		return Result{Status: NotConfirmed, Reason: err.Error()}
	}
	tests := p.src.candidates(r, maxTests)
	k := classify(r)
	if len(tests) == 0 {
		// Code that runs when the package initializes is witnessed by
		// any run.
		if res, ok := p.matchEarlier(r, k); ok {
			return res
		}
		return Result{Status: NoTest, Reason: "no test, benchmark or fuzz target of the package reaches it"}
	}
	mode := raceBuild
	if k == blockKind {
		mode = leakBuild
	}
	bin, err := p.binary(ctx, mode)
	if err != nil {
		p.c.note(err.Error())
		return Result{Status: NotConfirmed, Test: tests[0], Reason: err.Error()}
	}
	if bin == "" {
		return Result{Status: NoTest, Reason: "the package has no tests"}
	}
	if res, ok := p.matchEarlier(r, k); ok {
		return res
	}
	deadline := time.Now().Add(p.c.opts.Budget)
	runs := 0
attempts:
	for _, a := range p.schedule(r, k) {
		for _, test := range tests {
			if runs >= maxRuns || time.Until(deadline) <= 0 || ctx.Err() != nil {
				break attempts
			}
			if p.skipOf(test) != "" {
				// A test that skipped, or that its TestMain did not
				// run (redis's e2e tests without their servers), runs
				// none of the code: its runs would spend the budget
				// on nothing.
				continue
			}
			if a.cpu == 1 && strings.HasPrefix(test, "Benchmark") {
				// b.RunParallel starts GOMAXPROCS goroutines: one on
				// one processor, which races with none. The runs on 2
				// and 4 are worth the budget more (bigcache's
				// BenchmarkIterateOverCache spent it on -cpu=1).
				continue
			}
			a.test = test
			rn := p.execute(ctx, bin, k, a, deadline)
			runs++
			p.mu.Lock()
			p.runs = append(p.runs, rn)
			if rn.skip != "" {
				if p.skips == nil {
					p.skips = make(map[string]string)
				}
				p.skips[test] = rn.skip
			}
			p.mu.Unlock()
			if res, ok := p.match(r, k, rn); ok {
				res.Runs = runs
				return res
			}
		}
	}
	return Result{Status: NotConfirmed, Test: tests[0], Runs: runs, Reason: p.notConfirmedReason(k, tests, runs)}
}

// notConfirmedReason says why a report was not confirmed: the runs made
// and the tests run, and how those that ran none of its code skipped.
func (p *pkgRun) notConfirmedReason(k kind, tests []string, runs int) string {
	what := "no race between the two accesses"
	if k == blockKind {
		what = "no goroutine blocked at the reported line"
	}
	var ran, skipped []string
	for _, test := range tests {
		if how := p.skipOf(test); how != "" {
			skipped = append(skipped, test+" "+how)
		} else {
			ran = append(ran, test)
		}
	}
	if len(ran) == 0 {
		return "no test that reaches it ran its code: " + strings.Join(skipped, "; ")
	}
	reason := fmt.Sprintf("%s in %d runs of %s", what, runs, strings.Join(ran, ", "))
	if len(skipped) > 0 {
		reason += "; " + strings.Join(skipped, "; ")
	}
	return reason
}

// matchEarlier matches a report against the runs made for the reports
// of its package before it.
func (p *pkgRun) matchEarlier(r *Report, k kind) (Result, bool) {
	p.mu.Lock()
	earlier := slices.Clone(p.runs)
	p.mu.Unlock()
	for _, rn := range earlier {
		if res, ok := p.match(r, k, rn); ok {
			return res, true
		}
	}
	return Result{}, false
}

// attempt is one run's settings.
type attempt struct {
	test   string
	cpu    int
	yields []int
	sleep  time.Duration
}

// How long an active yield sleeps: a race's first round of runs, and a
// deadlock's first run, sleep briefly (a race's second round yields the
// processor only); a deadlock's later runs sleep longer.
const (
	yieldSleep     = 10 * time.Millisecond
	longYieldSleep = 100 * time.Millisecond
)

// yieldWindow is how long after its start a run's yields sleep (they
// only yield the processor after that): a yield in a loop must not
// make a test time out. Runs of deadlock and blocking reports sleep
// until their timeout, which bounds them anyway.
const yieldWindow = 2 * time.Second

// schedule returns the runs to try for a report, in order. A race is
// run without yields, then with a yield before one access, then before
// the other, so that each order gets its chance, on 1, 2 and 4
// processors; a deadlock or a blocking report with a yield before its
// operation and each other operation it names, then all, then its own
// alone, then none, on 2, 1 and 4 processors.
func (p *pkgRun) schedule(r *Report, k kind) []attempt {
	var out []attempt
	if k == raceKind {
		a, b := p.yieldID(r.Posn), p.yieldID(r.Related[0].Posn)
		variants := [][]int{nil}
		if a != 0 {
			variants = append(variants, []int{a})
		}
		if b != 0 && b != a {
			variants = append(variants, []int{b})
		}
		for _, sleep := range []time.Duration{yieldSleep, 0} {
			for _, cpu := range []int{1, 2, 4} {
				for _, v := range variants {
					if v == nil && sleep == 0 {
						continue // the same run as in the first round
					}
					out = append(out, attempt{cpu: cpu, yields: v, sleep: sleep})
				}
			}
		}
		return out
	}
	// Which operations to delay is not known: in a lock order
	// inversion, a sleep before each side's second lock makes the
	// deadlock certain, and one before a side's first lock as well makes
	// it a coin flip again. So the report's operation is delayed with
	// each other operation it names in turn, then with all, then alone.
	var variants [][]int
	add := func(v []int) {
		if len(v) > 0 && !slices.ContainsFunc(variants, func(w []int) bool { return slices.Equal(v, w) }) {
			variants = append(variants, v)
		}
	}
	own := p.yieldID(r.Posn)
	var all []int
	for _, pos := range relatedPositions(r) {
		if id := p.yieldID(pos); id != 0 && id != own && !slices.Contains(all, id) {
			all = append(all, id)
		}
	}
	for _, id := range all {
		add(slices.DeleteFunc([]int{own, id}, func(n int) bool { return n == 0 }))
	}
	add(slices.DeleteFunc(append([]int{own}, all...), func(n int) bool { return n == 0 }))
	add(slices.DeleteFunc([]int{own}, func(n int) bool { return n == 0 }))
	for i, cpu := range []int{2, 1, 4} {
		// Longer sleeps after the first round, for a machine so busy
		// that a goroutine waits longer than a short one to run.
		sleep := yieldSleep
		if i > 0 {
			sleep = longYieldSleep
		}
		for _, v := range variants {
			out = append(out, attempt{cpu: cpu, yields: v, sleep: sleep})
		}
		out = append(out, attempt{cpu: cpu})
	}
	return out
}

// yieldID returns the yield before the statement at pos, or 0.
func (p *pkgRun) yieldID(pos Position) int {
	f, off, ok := p.src.stmtStart(pos)
	if !ok {
		return 0
	}
	return p.in.yields[yieldPoint{f.path, off}]
}

// run is the outcome of one run of a test binary.
type run struct {
	attempt
	witness  string // byRace or byHang, byLeak for the leaks
	skip     string // how the test skipped or did not start (see skipped), or ""
	races    []raceWarning
	dump     []goroutine // printed at a timeout or a fatal deadlock
	timedOut bool
	leaks    []goroutine // the goroutine leak profile's
}

// hangTimeout bounds a run of a deadlock or blocking report: a test
// still running then is taken for hung, and its goroutines dumped.
func (p *pkgRun) hangTimeout() time.Duration {
	return min(max(p.c.opts.Budget/3, 2*time.Second), 10*time.Second)
}

// maxOutput bounds what is kept of a run's output.
const maxOutput = 8 << 20

// execute runs the test binary once.
func (p *pkgRun) execute(ctx context.Context, bin string, k kind, a attempt, deadline time.Time) *run {
	rn := &run{attempt: a}
	timeout := max(time.Until(deadline), time.Second)
	window := yieldWindow
	if k == blockKind {
		timeout = min(timeout, p.hangTimeout())
		window = timeout
	}
	args := testArgs(a.test)
	args = append(args, "-test.count=1", "-test.cpu="+strconv.Itoa(a.cpu), "-test.timeout="+timeout.String())
	env := append(os.Environ(),
		envYield+"="+joinInts(a.yields),
		envSleep+"="+a.sleep.String(),
		envWindow+"="+window.String(),
		// Not suppress_equal_stacks=0: with it, bigcache's
		// BenchmarkIterateOverCache prints one race (testing's
		// ReportAllocs, on each sub-benchmark) and none of its
		// iterator's, which it prints without.
		"GORACE=suppress_equal_addresses=0 atexit_sleep_ms=50 "+os.Getenv("GORACE"),
	)
	var leakFile string
	if k == blockKind {
		if f, err := os.CreateTemp(p.in.tmp, "leaks-"); err == nil {
			leakFile = f.Name()
			f.Close()
			defer os.Remove(leakFile)
			env = append(env, envLeaks+"="+leakFile)
		}
	}
	out := &boundedBuffer{max: maxOutput}
	p.c.run(ctx, func() error {
		// The test binary's own timeout comes first; the kill is for a
		// binary that does not stop at it.
		rctx, cancel := context.WithTimeout(ctx, timeout+10*time.Second)
		defer cancel()
		cmd := exec.CommandContext(rctx, bin, args...)
		cmd.Dir = p.dir
		cmd.Env = env
		cmd.Stdout, cmd.Stderr = out, out
		return cmd.Run() // a failing test is an outcome, not an error
	})
	text := out.String()
	rn.skip = skipped(text, a.test)
	if k == raceKind {
		rn.witness = byRace
		rn.races = parseRaces(text)
		return rn
	}
	rn.witness = byHang
	rn.timedOut = strings.Contains(text, "panic: test timed out after") || strings.Contains(text, "fatal error: all goroutines are asleep")
	if rn.timedOut {
		rn.dump = parseDump(text)
	}
	if leakFile != "" {
		if data, err := os.ReadFile(leakFile); err == nil {
			for _, g := range parseDump(string(data)) {
				if g.leaked {
					rn.leaks = append(rn.leaks, g)
				}
			}
		}
	}
	return rn
}

// benchTime is the -benchtime of a benchmark's runs: a fixed number of
// iterations, not a duration, so that a run is short; not one, which
// b.RunParallel would give to one goroutine alone: bigcache's
// BenchmarkIterateOverCache races on its shared iterator at 100x, never
// at 1x.
const benchTime = "100x"

// testArgs selects one test, benchmark or fuzz target (its seed corpus).
// A test or fuzz target runs verbose, for its output to say that it
// started and whether it skipped (see skipped).
func testArgs(test string) []string {
	re := "-test.run=^" + test + "$"
	if strings.HasPrefix(test, "Benchmark") {
		return []string{"-test.run=^$", "-test.bench=^" + test + "$", "-test.benchtime=" + benchTime}
	}
	return []string{re, "-test.v"}
}

// skipped returns how a test or fuzz target, run verbose, skipped in a
// run's output ("skipped: its message"), or did not start ("did not
// start", no "=== RUN" line: a TestMain that returns without running
// the tests, a binary that failed first), or "" if it ran. A benchmark
// is taken to run.
func skipped(out, test string) string {
	if strings.HasPrefix(test, "Benchmark") {
		return ""
	}
	started := false
	last := "" // the test's last line of log: a verbose run prints it as logged, the skip's message before "--- SKIP"
	for line := range strings.SplitSeq(out, "\n") {
		switch {
		case line == "=== RUN   "+test:
			started = true
		case strings.HasPrefix(line, "--- SKIP: "+test+" ("):
			if last != "" {
				return "skipped: " + last
			}
			return "skipped"
		case strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "     ") && !strings.HasPrefix(line, "    --- "):
			last = strings.TrimSpace(line) // "    x_test.go:20: why"; a subtest's are indented further
		}
	}
	if !started {
		return "did not start (a TestMain that does not run the tests?)"
	}
	return ""
}

func joinInts(ns []int) string {
	var s []string
	for _, n := range ns {
		s = append(s, strconv.Itoa(n))
	}
	return strings.Join(s, ",")
}

// boundedBuffer keeps the first max bytes written to it.
type boundedBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - len(b.buf); room > 0 {
		b.buf = append(b.buf, p[:min(len(p), room)]...)
	}
	return len(p), nil
}

func (b *boundedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

// match decides whether a run witnesses a report.
func (p *pkgRun) match(r *Report, k kind, rn *run) (Result, bool) {
	if k == raceKind {
		return p.matchRace(r, rn)
	}
	return p.matchBlock(r, rn)
}

// matchRace decides whether the race detector, in a run, reported the
// two accesses of a race report, in either order.
func (p *pkgRun) matchRace(r *Report, rn *run) (Result, bool) {
	if rn.witness != byRace {
		return Result{}, false
	}
	other := r.Related[0].Posn
	for _, w := range rn.races {
		if len(w.accesses) < 2 {
			continue
		}
		x, y := w.accesses[0], w.accesses[1]
		if p.atAccess(x, r.Posn) && p.atAccess(y, other) || p.atAccess(x, other) && p.atAccess(y, r.Posn) {
			return p.confirmed(r, rn, byRace, raceStacks(w)), true
		}
	}
	return Result{}, false
}

// matchBlock decides whether a run left a goroutine blocked at the
// operation a deadlock or blocking report names: in the dump of a test
// that hung (timed out with every goroutine stuck, see stalled), or
// leaked per the goroutine leak profile.
func (p *pkgRun) matchBlock(r *Report, rn *run) (Result, bool) {
	if rn.witness != byHang {
		return Result{}, false
	}
	reasons := p.src.waitReasons(r.Posn)
	if rn.timedOut && stalled(rn.dump) {
		if g, ok := blockedAt(rn.dump, r.Posn, reasons); ok {
			return p.confirmed(r, rn, byHang, blockStacks(r, g, rn.dump)), true
		}
	}
	if g, ok := blockedAt(rn.leaks, r.Posn, reasons); ok {
		return p.confirmed(r, rn, byLeak, blockStacks(r, g, rn.leaks)), true
	}
	return Result{}, false
}

// atAccess reports whether an access the race detector saw is the one at
// pos: the stack holds pos's line before, or at, its first frame in the
// package's directory (the frames above it are in the runtime or in
// other packages the access went through: a map assignment, a copy).
// The line may also be the first of the statement that holds pos: the
// compiler puts the evaluation of a go or defer statement's arguments
// on the statement's first line.
//
// A stack with no frame in the package's directory at all is the race
// detector's for an access made in assembly (sync/atomic: the call's
// frames are lost), and matches a position that is a call: its other
// side, matched exactly, says which race it is.
func (p *pkgRun) atAccess(a raceAccess, pos Position) bool {
	stmtLine := 0
	if p.src != nil {
		stmtLine = p.src.stmtLine(pos)
	}
	for _, f := range a.frames {
		if samePlace(f, pos.Filename, pos.Line) || stmtLine != 0 && samePlace(f, pos.Filename, stmtLine) {
			return true
		}
		if filepath.Dir(f.file) == p.dir {
			return false
		}
	}
	return len(a.frames) > 0 && p.src != nil && p.src.isCall(pos)
}

// blockedAt returns a goroutine of gs blocked in one of reasons (any,
// when reasons is nil) with pos's line on its stack.
func blockedAt(gs []goroutine, pos Position, reasons []string) (goroutine, bool) {
	for _, g := range gs {
		if !g.blocked() {
			continue
		}
		if reasons != nil && !slices.ContainsFunc(reasons, func(r string) bool { return strings.HasPrefix(g.state, r) }) {
			continue
		}
		for _, f := range g.frames {
			if samePlace(f, pos.Filename, pos.Line) {
				return g, true
			}
		}
	}
	return goroutine{}, false
}

// confirmed makes the result of a witnessing run.
func (p *pkgRun) confirmed(r *Report, rn *run, witness string, stacks []Related) Result {
	res := Result{Status: Confirmed, Confirmed: true, Test: rn.test, Witness: witness, Stacks: stacks}
	pkg := cmp.Or(r.Package, ".")
	tags := ""
	if t := buildTags(p.c.opts.Tags); t != "" {
		tags = " -tags=" + t
	}
	run := "-run '^" + rn.test + "$'"
	if strings.HasPrefix(rn.test, "Benchmark") {
		run = "-run '^$' -bench '^" + rn.test + "$' -benchtime=" + benchTime
	}
	switch witness {
	case byRace:
		res.Command = fmt.Sprintf("go test -race%s %s -count=1 -cpu=%d %s", tags, run, rn.cpu, pkg)
	case byHang:
		res.Command = fmt.Sprintf("go test%s %s -count=1 -cpu=%d -timeout=%s %s", tags, run, rn.cpu, p.hangTimeout(), pkg)
	case byLeak:
		res.Command = fmt.Sprintf("GOEXPERIMENT=%s go test%s %s -count=1 -cpu=%d %s, with the goroutineleak profile (runtime/pprof) written at the end of the test", leakExperiment, tags, run, rn.cpu, pkg)
	}
	if len(rn.yields) > 0 {
		var at []string
		for pt, id := range p.in.yields {
			if slices.Contains(rn.yields, id) {
				at = append(at, p.describePoint(pt))
			}
		}
		slices.Sort(at)
		how := fmt.Sprintf("a %s sleep", rn.sleep)
		if rn.sleep == 0 {
			how = "a runtime.Gosched()"
		}
		res.Schedule = how + " inserted before " + strings.Join(at, " and ")
	}
	return res
}

// describePoint names a yield point as file.go:line.
func (p *pkgRun) describePoint(pt yieldPoint) string {
	f := p.src.files[pt.file]
	tf := p.src.fset.File(f.ast.FileStart)
	return fmt.Sprintf("%s:%d", filepath.Base(pt.file), tf.Line(tf.Pos(pt.offset)))
}

// maxFrames bounds the frames of one witnessed stack given as related
// positions.
const maxFrames = 3

// userFrames returns the first frames of a stack outside GOROOT and the
// generated test main.
func userFrames(frames []frame) []frame {
	var out []frame
	for _, f := range frames {
		if len(out) == maxFrames {
			break
		}
		if build.Default.GOROOT != "" && strings.HasPrefix(f.file, build.Default.GOROOT+string(filepath.Separator)) || filepath.Base(f.file) == "_testmain.go" {
			continue
		}
		out = append(out, f)
	}
	return out
}

// raceStacks gives a race detector report as related positions: the two
// accesses' stacks and where their goroutines were created.
func raceStacks(w raceWarning) []Related {
	var out []Related
	for _, a := range w.accesses[:2] {
		for i, f := range userFrames(a.frames) {
			msg := fmt.Sprintf("race detector: %s by %s, in %s", strings.ToLower(a.what), a.goroutine, f.fn)
			if i > 0 {
				msg = fmt.Sprintf("race detector: called from %s (%s)", f.fn, a.goroutine)
			}
			out = append(out, Related{Posn: Position{Filename: f.file, Line: f.line}, Message: msg})
		}
	}
	for _, c := range w.created {
		if fs := userFrames(c.frames); len(fs) > 0 {
			out = append(out, Related{Posn: Position{Filename: fs[0].file, Line: fs[0].line}, Message: "race detector: " + c.what + " created here, in " + fs[0].fn})
		}
	}
	return out
}

// blockStacks gives the goroutine that witnesses a blocking report, and
// the other blocked goroutines at the report's related positions, as
// related positions.
func blockStacks(r *Report, g goroutine, all []goroutine) []Related {
	var out []Related
	add := func(g goroutine) {
		for i, f := range userFrames(g.frames) {
			msg := fmt.Sprintf("goroutine %s blocked here [%s], in %s", g.id, g.state, f.fn)
			if i > 0 {
				msg = fmt.Sprintf("called from %s (goroutine %s)", f.fn, g.id)
			}
			out = append(out, Related{Posn: Position{Filename: f.file, Line: f.line}, Message: msg})
		}
	}
	add(g)
	for _, o := range all {
		if o.id == g.id || !o.blocked() {
			continue
		}
		for _, pos := range relatedPositions(r) {
			if slices.ContainsFunc(o.frames, func(f frame) bool { return samePlace(f, pos.Filename, pos.Line) }) {
				add(o)
				break
			}
		}
	}
	return out
}
