package blocking_test

import (
	"os"
	"testing"

	"github.com/origo-dev/origo/analyzers/blocking"
	"github.com/origo-dev/origo/analyzers/internal/kindtest"
	"github.com/origo-dev/origo/analyzers/internal/racebuild"
	"github.com/origo-dev/origo/analyzers/internal/reltest"
	"github.com/origo-dev/origo/analyzers/internal/whytest"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestBlocking(t *testing.T) {
	if racebuild.Enabled {
		// blk, with tests, imports testing: 60 s in the plain run, ten
		// times that under -race. The smaller fixtures below reach every
		// stage under -race; the plain run checks blk.
		t.Skip("blk runs in the plain run; the other fixtures look for races in origo under -race")
	}
	analysistest.Run(t, analysistest.TestData(), blocking.Analyzer, "blk")
}

// TestSequels checks what goroutines blocked forever leave stuck: the
// receives, sends, Waits and Locks that only they would complete.
func TestSequels(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), blocking.Analyzer, "blkseq")
}

// TestContextDone checks that ctx.Done() is no unknown channel.
func TestContextDone(t *testing.T) {
	kindtest.Check(t, analysistest.Run(t, analysistest.TestData(), blocking.Analyzer, "blkctx"), blockingHeads)
}

// TestAcrossPackages checks partners in another package: a channel
// given to its function is judged no more, one it never sees still is.
func TestAcrossPackages(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), blocking.Analyzer, "blkx", "blklib")
}

// TestIgnore checks that //origo:ignore blocking silences each kind of
// report, at the end of its line and from the line above.
func TestIgnore(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), blocking.Analyzer, "blkignore")
}

// TestRelated checks the related positions of each kind of report: the
// places its message names, in the package's files, for an editor to go
// to.
func TestRelated(t *testing.T) {
	// blk again, the fixture TestBlocking runs: a long test, run as
	// cmd/internal/longtest's are, with ORIGO_LONG=1 (.ci/run does).
	if v := os.Getenv("ORIGO_LONG"); v == "" || v == "0" {
		t.Skip("a long end-to-end test: set ORIGO_LONG=1 to run it (.ci/run does)")
	}
	if racebuild.Enabled {
		t.Skip("the fixtures run under -race in the other tests; the plain run checks related positions")
	}
	results := analysistest.Run(t, analysistest.TestData(), blocking.Analyzer, "blk", "blkx", "blkseq")
	kindtest.Covered(t, "blocking", kindtest.Check(t, results, blockingHeads))
	reltest.Check(t, results, map[string][]string{
		`^send blocks forever when \w+ returns early: `:                           {` made here$`, `^\w+ returns here without receiving$`},
		`^send blocks forever when \w+ returns early: the goroutine started at`:   {`^the goroutine that sends is started here$`},
		`^receive blocks forever when the goroutine started at \S+ returns early`: {` made here$`, `^the goroutine that sends is started here$`, `^it returns here without sending$`},
		`^WaitGroup.Wait blocks forever when the goroutine started at`:            {`^the goroutine is started here$`},
		`^WaitGroup.Wait blocks forever when .*: it may return at`:                {`^it returns here without Done$`},
		`^WaitGroup.Wait blocks forever: Add counts`:                              {`^Add counts here$`},
		`^send blocks forever when \w+ moves on early: `:                          {` made here$`, `^the goroutine that sends is started here$`},
		`^send blocks forever: the goroutines started at \S+ in a loop`:           {` made here$`, `^the goroutines that send are started here, in a loop$`, `^the one receive$`},
		`^send blocks forever: a goroutine may send on`:                           {` made here$`, `^the first send$`},
		`^WaitGroup.Wait blocks forever: the goroutine started at`:                {`^the goroutine is started here$`, ` made here$`, `^it sends here, before Done$`},
		`^[^:]* blocks forever: goroutine started at`:                             {`^the goroutine is started here$`},
		`^(send|receive|range over channel) blocks forever: .*\(made at`:          {` made here$`},
		`^(send|receive|range over channel) blocks forever: .* before it does: `:  {`^the goroutine that would complete it may block forever here$`},
		`^(WaitGroup|Cond)\.Wait blocks forever: .* only after \S+, where`:        {`^the goroutine that would end the Wait may block forever here$`},
		// Its own Lock is where the holder locked too when both run one
		// function: no related position then.
		`^Lock blocks forever: .*; locked at `: {` locked here$`},
		`^Lock blocks forever: `:               {`^the goroutine holding it may block forever here$`},
	})
}

// TestSilentRules runs blocking with -why=all on the fixtures and checks
// their silent twins against the rule each names (see package whytest):
// a twin silenced by another rule, reported, or cut by a bound fails.
func TestSilentRules(t *testing.T) {
	pkgs := []string{"blkseq", "blkx", "blklib", "blkctx", "blkignore"}
	if !racebuild.Enabled {
		pkgs = append(pkgs, "blk") // 60 s in the plain run; see TestBlocking
	}
	if err := blocking.Analyzer.Flags.Set("why", "all"); err != nil {
		t.Fatal(err)
	}
	defer blocking.Analyzer.Flags.Set("why", "")
	checked := 0
	for _, r := range analysistest.Run(ignoreErrors{}, analysistest.TestData(), blocking.Analyzer, pkgs...) {
		checked += whytest.Check(t, r.Pass.Fset, r.Pass.Files, r.Diagnostics)
	}
	if checked == 0 {
		t.Fatal("no // silent comment found in the fixtures")
	}
	t.Logf("%d silent twins checked", checked)
}

// ignoreErrors is an analysistest.Testing that drops what analysistest
// reports: TestSilentRules reads the diagnostics itself, and the why
// diagnostics match no `// want`.
type ignoreErrors struct{}

func (ignoreErrors) Errorf(string, ...any) {}

// blockingHeads are the words the messages of each kind begin with, for
// the kinds whose messages do not all begin with its title.
var blockingHeads = map[string][]string{
	"blocking/send":    {"send blocks forever", "send on nil channel blocks forever"},
	"blocking/receive": {"receive blocks forever", "receive from nil channel blocks forever", "receive from ctx.Done() blocks forever"},
	"blocking/select":  {"select blocks forever", "select {} blocks forever"},
}
