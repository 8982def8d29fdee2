package main

import (
	"cmp"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// realcode -confirm runs the standalone origo with -confirm on each real
// module: its tests run, and a report a run witnesses is confirmed (see
// origo's README, "Confirmed by a run"). A confirmed report is a bug
// that a run showed, so its verdict must be TRUE: one judged FALSE is a
// bug of -confirm (it matched a run that shows another bug, or none) or
// a wrong verdict, and one not judged yet wants a verdict. The bench
// says so loudly and fails.

// confirmStatuses are the outcomes of origo -confirm (confirm.Status),
// best first: of the diagnostics a report stands for (a package's and
// its test variant's), the best outcome is the report's.
var confirmStatuses = []string{"confirmed", "not confirmed", "no test", "not tried"}

// confirmRow is the outcome of origo -confirm on one module.
type confirmRow struct {
	module                                             string
	reports, confirmed, notConfirmed, noTest, notTried int
	confirmTime                                        time.Duration // what -confirm took, per its summary line
	total                                              time.Duration // the whole run of origo, analysis included
	notes                                              []string      // -confirm's notes and origo's errors
	err                                                string        // the run failed: no figures
	found                                              []confirmedReport
	// The reports judged TRUE, those confirmed, and those not, for -v.
	judgedTrue, trueConfirmed int
	trueMissed                []confirmedReport
}

// confirmedReport is a report, its verdict and its outcome.
type confirmedReport struct {
	module, key, posn string
	verdict           verdict // word "" when not judged
	outcome           confirmOutcome
}

// bad says why a confirmed report fails the bench, or "".
func (c confirmedReport) bad() string {
	switch c.verdict.word {
	case "FALSE":
		return "judged FALSE"
	case "":
		return "not judged"
	}
	return ""
}

// judgeConfirmed counts the outcomes of the reports of a module (the
// best outcome of the diagnostics each stands for; a report with none is
// "not tried"), looks every confirmed one up in the module's verdicts,
// and counts the reports judged TRUE and those of them confirmed.
func judgeConfirmed(module string, reps []realReport, outcomes confirmations, vs map[string]verdict) confirmRow {
	row := confirmRow{module: module, reports: len(reps)}
	for _, r := range reps {
		o, ok := bestOutcome(r, outcomes)
		if vs[r.key].word == "TRUE" {
			row.judgedTrue++
			if o.Confirmed {
				row.trueConfirmed++
			} else {
				row.trueMissed = append(row.trueMissed, confirmedReport{module: module, key: r.key, posn: r.posn, verdict: vs[r.key], outcome: o})
			}
		}
		if !ok {
			row.notTried++
			continue
		}
		switch o.Status {
		case "confirmed":
			row.confirmed++
			row.found = append(row.found, confirmedReport{module: module, key: r.key, posn: r.posn, verdict: vs[r.key], outcome: o})
		case "not confirmed":
			row.notConfirmed++
		case "no test":
			row.noTest++
		default:
			row.notTried++
		}
	}
	return row
}

// bestOutcome is the best outcome of the diagnostics a report stands for.
func bestOutcome(r realReport, outcomes confirmations) (confirmOutcome, bool) {
	var best confirmOutcome
	found := false
	for _, k := range r.from {
		if o, ok := outcomes[k]; ok && (!found || better(o, best)) {
			best, found = o, true
		}
	}
	return best, found
}

// better reports whether outcome o is better than p (see
// confirmStatuses); of two alike, the first by test and command, so
// that the output does not depend on the order of origo's packages.
func better(o, p confirmOutcome) bool {
	return cmp.Or(cmp.Compare(statusRank(o.Status), statusRank(p.Status)), cmp.Compare(o.Test, p.Test), cmp.Compare(o.Command, p.Command)) < 0
}

// statusRank is the index of a status in confirmStatuses, or past them.
func statusRank(s string) int {
	if i := slices.Index(confirmStatuses, s); i >= 0 {
		return i
	}
	return len(confirmStatuses)
}

// withoutConfirmation returns the diagnostics of an origo -confirm run
// with their messages as the analyzers wrote them ("; confirmed by TestX
// ..." cut), so that they get the keys of the verdict file, and their
// outcomes keyed alike: of two diagnostics that are then one (a
// package's, not tried or not confirmed, and its test variant's,
// confirmed), the better outcome.
func withoutConfirmation(res *vetResult, outcomes confirmations) (*vetResult, confirmations) {
	clean := &vetResult{diags: make(map[string][]diag), errors: res.errors}
	keyed := make(confirmations)
	for name, ds := range res.diags {
		for _, d := range ds {
			o, ok := outcomes[d.key()]
			if ok && o.Confirmed && o.Test != "" {
				if i := strings.LastIndex(d.Message, "; confirmed by "+o.Test); i >= 0 {
					d.Message = d.Message[:i]
				}
			}
			clean.diags[name] = append(clean.diags[name], d)
			if old, dup := keyed[d.key()]; ok && (!dup || better(o, old)) {
				keyed[d.key()] = o
			}
		}
	}
	return clean, keyed
}

// confirmElapsed is the time in -confirm's summary line: "... (15.6s)".
var confirmElapsed = regexp.MustCompile(`\((\d[^()]*)\)$`)

// parseConfirmElapsed returns the time a summary line gives, or 0.
func parseConfirmElapsed(summary []string) time.Duration {
	for _, l := range summary {
		if m := confirmElapsed.FindStringSubmatch(l); m != nil {
			if d, err := time.ParseDuration(m[1]); err == nil {
				return d
			}
		}
	}
	return 0
}

// confirmFlags are the flags realcode -confirm passes to origo.
func confirmFlags(budget time.Duration, parallel int) []string {
	var flags []string
	if budget > 0 {
		flags = append(flags, "-confirm.budget="+budget.String())
	}
	if parallel > 0 {
		flags = append(flags, "-confirm.parallel="+strconv.Itoa(parallel))
	}
	return flags
}

// confirmModule runs origo -confirm on the module prepared in dir and
// judges its confirmed reports.
func confirmModule(m realModule, dir, origo string, flags []string, vs map[string]verdict) confirmRow {
	start := time.Now()
	run, err := runConfirmJSON(dir, origo, flags...)
	total := time.Since(start)
	if err != nil {
		return confirmRow{module: m.path, total: total, err: err.Error()}
	}
	res, outcomes := withoutConfirmation(run.res, run.outcomes)
	reps, err := keyReports(dir, res)
	if err != nil {
		return confirmRow{module: m.path, total: total, err: err.Error()}
	}
	row := judgeConfirmed(m.path, reps, outcomes, vs)
	row.total = total
	row.confirmTime = parseConfirmElapsed(run.summary)
	for _, l := range run.summary[min(1, len(run.summary)):] { // the notes after the summary
		row.notes = append(row.notes, strings.TrimPrefix(l, "origo: "))
	}
	row.notes = append(row.notes, run.errors...)
	return row
}

// benchRealConfirm is realcode -confirm: origo -confirm on each module
// that only selects, a row printed as each is done, then the confirmed
// reports with their verdicts. It fails when a confirmed report is
// judged FALSE or not judged, or a run failed.
func benchRealConfirm(w io.Writer, root, origo, only string, flags []string, verdicts map[string]map[string]verdict, verbose bool) error {
	fmt.Fprintf(w, "origo -confirm %s on the real modules\n", strings.Join(flags, " "))
	printConfirmHeader(w)
	var rows []confirmRow
	for _, m := range realModules {
		if !strings.Contains(m.path, only) {
			continue
		}
		dir := filepath.Join(root, strings.ReplaceAll(m.path, "/", "_")+"@"+m.version)
		var row confirmRow
		if err := prepareModule(m, dir); err != nil {
			row = confirmRow{module: m.path, err: err.Error()}
		} else {
			row = confirmModule(m, dir, origo, flags, verdicts[m.path])
		}
		printConfirmRow(w, row)
		rows = append(rows, row)
	}
	return printConfirmFooter(w, rows, verbose)
}

// confirmRowFormat lays out a row of the -confirm table.
const confirmRowFormat = "%-38s %7s %9s %12s %11s %9s   %4s %7s %12s %10s\n"

func printConfirmHeader(w io.Writer) {
	fmt.Fprintf(w, confirmRowFormat, "module", "reports", "confirmed", "tried-not-cf", "unreachable", "not-tried", "TRUE", "TRUE-cf", "confirm-time", "total-time")
}

// printConfirmRow prints a module's row: its reports, confirmed, tried
// and not confirmed, not reachable from any test, of a kind no run
// witnesses, the reports judged TRUE and those of them confirmed, the
// time -confirm took and the whole run's.
func printConfirmRow(w io.Writer, r confirmRow) {
	if r.err != "" {
		fmt.Fprintf(w, "%-38s error (after %s): %s\n", r.module, r.total.Round(time.Second), firstLine(r.err))
		return
	}
	fmt.Fprintf(w, confirmRowFormat, r.module, strconv.Itoa(r.reports), strconv.Itoa(r.confirmed), strconv.Itoa(r.notConfirmed),
		strconv.Itoa(r.noTest), strconv.Itoa(r.notTried), strconv.Itoa(r.judgedTrue), strconv.Itoa(r.trueConfirmed), r.confirmTime.Round(100*time.Millisecond).String(), r.total.Round(time.Second).String())
}

// printConfirmFooter prints the total, the notes and failures of each
// module, the confirmed reports with their verdicts, with verbose the
// reports judged TRUE and not confirmed with why, and the bad confirmed
// ones loudly; it returns an error if there is a bad one or a failed run.
func printConfirmFooter(w io.Writer, rows []confirmRow, verbose bool) error {
	total := confirmRow{module: "total"}
	var failed []confirmRow
	var found []confirmedReport
	for _, r := range rows {
		if r.err != "" {
			failed = append(failed, r)
			continue
		}
		total.reports += r.reports
		total.confirmed += r.confirmed
		total.notConfirmed += r.notConfirmed
		total.noTest += r.noTest
		total.notTried += r.notTried
		total.judgedTrue += r.judgedTrue
		total.trueConfirmed += r.trueConfirmed
		total.confirmTime += r.confirmTime
		total.total += r.total
		found = append(found, r.found...)
	}
	printConfirmRow(w, total)
	for _, r := range rows {
		for _, n := range r.notes {
			fmt.Fprintf(w, "note: %s: %s\n", r.module, n)
		}
	}
	for _, r := range failed {
		fmt.Fprintf(w, "\nerror: %s: %s\n", r.module, r.err)
	}
	fmt.Fprintf(w, "\nconfirmed reports: %d\n", len(found))
	var bad []confirmedReport
	for _, c := range found {
		word := c.verdict.word
		if word == "" {
			word = "?"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", c.module, c.posn, word, c.key)
		fmt.Fprintf(w, "\tby %s (%s): %s\n", c.outcome.Test, c.outcome.Witness, c.outcome.Command)
		if c.verdict.reason != "" {
			fmt.Fprintf(w, "\tverdict: %s\n", c.verdict.reason)
		}
		if c.bad() != "" {
			bad = append(bad, c)
		}
	}
	if verbose {
		var missed []confirmedReport
		for _, r := range rows {
			missed = append(missed, r.trueMissed...)
		}
		fmt.Fprintf(w, "\nreports judged TRUE and not confirmed: %d\n", len(missed))
		for _, c := range missed {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", c.module, c.posn, cmp.Or(c.outcome.Status, "not tried"), c.key)
			if c.outcome.Reason != "" {
				fmt.Fprintf(w, "\t%s\n", c.outcome.Reason)
			}
		}
	}
	if len(bad) > 0 {
		fmt.Fprintf(w, "\n!!! %d confirmed report(s) judged FALSE or not judged: a bug of -confirm or a wrong verdict (FALSE), or a verdict to write (not judged)\n", len(bad))
		for _, c := range bad {
			fmt.Fprintf(w, "!!! %s: %s\t%s\t%s\n", c.bad(), c.module, c.posn, c.key)
		}
	}
	switch {
	case len(bad) > 0 && len(failed) > 0:
		return fmt.Errorf("%d confirmed reports judged FALSE or not judged, and -confirm failed on %d modules", len(bad), len(failed))
	case len(bad) > 0:
		return fmt.Errorf("%d confirmed reports judged FALSE or not judged", len(bad))
	case len(failed) > 0:
		return fmt.Errorf("-confirm failed on %d modules", len(failed))
	}
	return nil
}
