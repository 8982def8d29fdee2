package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/origo-dev/origo/cmd/origo/internal/factdump"
)

// diffContext is the number of unchanged lines a hunk of -fix -diff
// shows around a change, as diff -u.
const diffContext = 3

// applyFixes applies the first suggested fix of each finding, as go vet
// -fix does, or with diff prints what it would change as a unified diff
// on stdout. A fix whose edits overlap those of a fix already taken is
// left out, whole, and counted on stderr: running origo -fix again
// applies it if it still holds. The same fix found twice (a file of a
// package and of its test variant) is applied once.
func applyFixes(res *result, diff bool, stdout, stderr io.Writer) error {
	byFile := make(map[string][]edit)
	seen := make(map[string]bool)
	skipped := 0
	for _, d := range res.diags {
		if d.category == factdump.Category || len(d.fixes) == 0 {
			continue
		}
		fx := d.fixes[0]
		key := fmt.Sprint(fx.edits)
		if seen[key] {
			continue
		}
		seen[key] = true
		if slices.ContainsFunc(fx.edits, func(e edit) bool { return overlapsAny(e, byFile[e.filename]) }) {
			skipped++
			continue
		}
		for _, e := range fx.edits {
			if !slices.Contains(byFile[e.filename], e) { // two edits of one fix may coincide
				byFile[e.filename] = append(byFile[e.filename], e)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(byFile)) {
		edits := byFile[name]
		slices.SortFunc(edits, func(x, y edit) int { return cmp.Or(cmp.Compare(x.start, y.start), cmp.Compare(x.end, y.end)) })
		old, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		if last := edits[len(edits)-1]; last.end > len(old) {
			return fmt.Errorf("%s: a fix edits past the end of the file, which changed since it was analyzed", relPath(name))
		}
		if diff {
			fmt.Fprint(stdout, unifiedDiff(relPath(name), string(old), edits))
			continue
		}
		fi, err := os.Stat(name)
		if err != nil {
			return err
		}
		if err := os.WriteFile(name, []byte(applyEdits(string(old), edits)), fi.Mode().Perm()); err != nil {
			return err
		}
	}
	if skipped > 0 {
		fmt.Fprintf(stderr, "origo: %d fixes overlap others and were not applied; run origo -fix again\n", skipped)
	}
	return nil
}

// overlapsAny reports whether e conflicts with one of edits: their
// ranges overlap, or both insert at the same offset different text.
func overlapsAny(e edit, edits []edit) bool {
	for _, o := range edits {
		switch {
		case o == e:
		case e.start < o.end && o.start < e.end:
			return true
		case e.start == e.end && o.start == o.end && e.start == o.start:
			return true
		case e.start == e.end && o.start < e.start && e.start < o.end,
			o.start == o.end && e.start < o.start && o.start < e.end:
			return true
		}
	}
	return false
}

// applyEdits returns src with edits, sorted and disjoint, applied.
func applyEdits(src string, edits []edit) string {
	var b strings.Builder
	last := 0
	for _, e := range edits {
		b.WriteString(src[last:e.start])
		b.WriteString(e.new)
		last = e.end
	}
	b.WriteString(src[last:])
	return b.String()
}

// change is a run of lines of the old file replaced by others.
type change struct {
	oldStart int      // index of the first line replaced
	removed  []string // the old lines, each with its "\n" if it has one
	added    []string // the new ones
}

// lineOps returns the lines of a change as a diff shows them, each
// prefixed by '-', '+' or ' ': the longest run of lines common to both
// sides (in order) is kept, the rest removed or added. A change is the
// few lines that one region of edits touches.
func lineOps(removed, added []string) []string {
	// lcs[i][j] is the length of the longest common subsequence of
	// removed[i:] and added[j:].
	lcs := make([][]int, len(removed)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(added)+1)
	}
	for i := len(removed) - 1; i >= 0; i-- {
		for j := len(added) - 1; j >= 0; j-- {
			if removed[i] == added[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []string
	i, j := 0, 0
	for i < len(removed) || j < len(added) {
		switch {
		case i < len(removed) && j < len(added) && removed[i] == added[j]:
			ops = append(ops, " "+removed[i])
			i, j = i+1, j+1
		case i < len(removed) && (j == len(added) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, "-"+removed[i]) // removals first, as diff -u
			i++
		default:
			ops = append(ops, "+"+added[j])
			j++
		}
	}
	return ops
}

// unifiedDiff returns the unified diff (diff -u) that edits, sorted
// and disjoint, make to old, the text of the file called name.
func unifiedDiff(name, old string, edits []edit) string {
	lines := strings.SplitAfter(old, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	starts := make([]int, len(lines)+1) // offset of each line, and the end
	for i, l := range lines {
		starts[i+1] = starts[i] + len(l)
	}
	lineOf := func(off int) int { // the line that holds offset off
		i, _ := slices.BinarySearch(starts, off+1)
		return min(max(i-1, 0), max(len(lines)-1, 0))
	}
	// Edits on the same or neighbouring lines make one change: the lines
	// they touch, rewritten, less the lines that stay the same at either
	// end.
	var changes []change
	for i := 0; i < len(edits); {
		first, last := lineOf(edits[i].start), lineOf(max(edits[i].end-1, edits[i].start))
		j := i + 1
		for ; j < len(edits) && lineOf(edits[j].start) <= last+1; j++ {
			last = max(last, lineOf(max(edits[j].end-1, edits[j].start)))
		}
		base := starts[first]
		region := old[base:starts[min(last+1, len(lines))]]
		local := make([]edit, 0, j-i)
		for _, e := range edits[i:j] {
			local = append(local, edit{start: e.start - base, end: e.end - base, new: e.new})
		}
		removed := lines[first : last+1]
		added := strings.SplitAfter(applyEdits(region, local), "\n")
		if added[len(added)-1] == "" {
			added = added[:len(added)-1]
		}
		p := 0
		for p < len(removed) && p < len(added) && removed[p] == added[p] {
			p++
		}
		s := 0
		for s < len(removed)-p && s < len(added)-p && removed[len(removed)-1-s] == added[len(added)-1-s] {
			s++
		}
		if p+s < len(removed) || p+s < len(added) {
			changes = append(changes, change{first + p, removed[p : len(removed)-s], added[p : len(added)-s]})
		}
		i = j
	}
	if len(changes) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s (old)\n+++ %s (new)\n", name, name)
	line := func(prefix, l string) {
		b.WriteString(prefix + l)
		if !strings.HasSuffix(prefix+l, "\n") {
			b.WriteString("\n\\ No newline at end of file\n")
		}
	}
	delta := 0 // lines added less lines removed, before the hunk
	for i := 0; i < len(changes); {
		// A hunk holds the changes whose contexts touch.
		j := i + 1
		for j < len(changes) && changes[j].oldStart-(changes[j-1].oldStart+len(changes[j-1].removed)) <= 2*diffContext {
			j++
		}
		from := max(changes[i].oldStart-diffContext, 0)
		lastChange := changes[j-1]
		to := min(lastChange.oldStart+len(lastChange.removed)+diffContext, len(lines))
		oldCount, newCount := to-from, to-from
		for _, c := range changes[i:j] {
			newCount += len(c.added) - len(c.removed)
		}
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(from, oldCount), hunkRange(from+delta, newCount))
		at := from
		for _, c := range changes[i:j] {
			for ; at < c.oldStart; at++ {
				line(" ", lines[at])
			}
			for _, op := range lineOps(c.removed, c.added) {
				line("", op)
			}
			at += len(c.removed)
			delta += len(c.added) - len(c.removed)
		}
		for ; at < to; at++ {
			line(" ", lines[at])
		}
		i = j
	}
	return b.String()
}

// hunkRange writes a hunk's range of lines, "start,count" with start
// from 1, as diff -u does (the line before an empty range).
func hunkRange(start, count int) string {
	if count == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, count)
}
