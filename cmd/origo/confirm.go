package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/origo-dev/origo/cmd/origo/internal/confirm"
	"github.com/origo-dev/origo/cmd/origo/internal/factdump"
)

// confirmFindings runs the tests that reach each finding of res (see
// package confirm), marks the confirmed ones (their message ends with
// "confirmed by TestX under -race", the witnessed stacks are appended
// to their related positions, and d.confirm holds the outcome for
// -json and SARIF), keeps only those under -confirm=only, and writes a
// summary line on stderr.
func confirmFindings(res *result, opts *confirm.Options, stderr io.Writer) {
	var reports []confirm.Report
	var which []int
	for i, d := range res.diags {
		if d.category == factdump.Category {
			continue
		}
		r := confirm.Report{Analyzer: d.analyzer.Name, Message: d.message, Posn: d.posn, Package: packageUnderTest(d.pkgID)}
		for _, rel := range d.related {
			r.Related = append(r.Related, confirm.Related{Posn: rel.posn, Message: rel.message})
		}
		reports = append(reports, r)
		which = append(which, i)
	}
	results, sum := confirm.Run(context.Background(), reports, *opts)
	for j, i := range which {
		d := &res.diags[i]
		out := results[j]
		d.confirm = &out
		if !out.Confirmed {
			continue
		}
		d.message += "; " + out.Suffix()
		for _, s := range out.Stacks {
			d.related = append(d.related, related{posn: s.Posn, end: s.Posn, message: s.Message})
		}
	}
	if opts.Mode == confirm.Only {
		kept := res.diags[:0]
		for _, d := range res.diags {
			if d.confirm != nil && d.confirm.Confirmed {
				kept = append(kept, d)
			}
		}
		res.diags = kept
	}
	fmt.Fprintln(stderr, "origo: "+sum.String())
	for _, n := range sum.Notes {
		fmt.Fprintln(stderr, "origo: -confirm: "+n)
	}
}

// analyzerMessage is the message of d as its analyzer wrote it, without
// what -confirm added: the identity of a finding (SARIF fingerprints)
// must not change with -confirm.
func (d *diagnostic) analyzerMessage() string {
	if d.confirm == nil || !d.confirm.Confirmed {
		return d.message
	}
	return strings.TrimSuffix(d.message, "; "+d.confirm.Suffix())
}

// packageUnderTest returns the import path of the package whose tests
// build the package of a checker ID: "p [p.test]" and "p_test
// [p.test]" are p's, a package without tests is its own.
func packageUnderTest(id string) string {
	if _, variant, ok := strings.Cut(id, " ["); ok {
		return strings.TrimSuffix(strings.TrimSuffix(variant, "]"), ".test")
	}
	return id
}
