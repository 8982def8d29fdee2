package blocking_test

import (
	"testing"

	"github.com/origo-dev/origo/analyzers/blocking"
	"github.com/origo-dev/origo/analyzers/internal/kindtest"
	"github.com/origo-dev/origo/analyzers/internal/racebuild"
	"github.com/origo-dev/origo/analyzers/internal/reltest"
	"github.com/origo-dev/origo/analyzers/internal/whytest"
	"github.com/origo-dev/origo/analyzers/kinds"
	"golang.org/x/tools/go/analysis/analysistest"
)

// TestBlocking checks the fixtures' "// want" comments, the kind of each
// report (kindtest.Check) and its related positions (reltest.Check: the
// places its message names, in the package's files, for an editor to go
// to) in one run of the analyzer: each run analyzes the fixtures'
// imports again, and those take most of its time (blk's test binary:
// testing, its fuzzing and profiling), so the fixtures share one.
// Besides blk, the fixture of each kind of report:
//
//   - blkseq: what goroutines blocked forever leave stuck: the receives,
//     sends, Waits and Locks that only they would complete;
//   - blkctx: ctx.Done() is no unknown channel;
//   - blkx, blklib: partners in another package: a channel given to its
//     function (boxed in an interface too) is judged no more, one it
//     never sees still is;
//   - blkignore: //origo:ignore blocking silences each kind of report,
//     at the end of its line and from the line above.
//
// The runs have -why=all: each fixture's silent twins, marked
// `// silent "rule"`, are checked against the rule that must rule them
// out (see package whytest), and every rule of blocking's manual must
// silence a twin.
func TestBlocking(t *testing.T) {
	pkgs := []string{"blk", "blkseq", "blkctx", "blkx", "blklib", "blkignore"}
	if racebuild.Enabled {
		// blk, with tests, imports testing: 60 s in the plain run, ten
		// times that under -race. The smaller fixtures reach every
		// stage under -race; the plain run checks blk, and the kinds
		// and related positions, which blk's reports cover.
		pkgs = pkgs[1:]
	}
	a, verdicts := whytest.Split(blocking.Analyzer)
	if err := blocking.Analyzer.Flags.Set("why", "all"); err != nil {
		t.Fatal(err)
	}
	defer blocking.Analyzer.Flags.Set("why", "")
	results := analysistest.Run(t, analysistest.TestData(), a, pkgs...)
	met := kindtest.Check(t, results, blockingHeads)
	if verdicts.Check(t, results) == 0 {
		t.Fatal("no // silent comment found in the fixtures")
	}
	if n := checkSequels(t, results); n == 0 && !racebuild.Enabled {
		t.Error("no // sequel comment found in the fixtures")
	}
	if racebuild.Enabled {
		return
	}
	whytest.Covered(t, "analyzers/blocking", whytest.Named(results))
	kindtest.Covered(t, "blocking", met)
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
		`^Lock blocks forever: `: {`^the goroutine holding it may block forever here$`},
	}, `^`+kinds.Sequel+`: `)
}

// blockingHeads are the words the messages of each kind begin with, for
// the kinds whose messages do not all begin with its title.
var blockingHeads = map[string][]string{
	"blocking/send":    {"send blocks forever", "send on nil channel blocks forever"},
	"blocking/receive": {"receive blocks forever", "receive from nil channel blocks forever", "receive from ctx.Done() blocks forever"},
	"blocking/select":  {"select blocks forever", "select {} blocks forever"},
}
