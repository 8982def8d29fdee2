// Package ignore finds the "//origo:ignore NAME reason" comments that
// silence an analyzer's report, and the generated files, where nothing
// is reported unless Generated is set. It is also the one place that
// knows the directive's grammar: Parse says what is wrong with a comment
// that tries to be one, for the directive analyzer to report.
//
// A directive at the end of a line of code silences the reports on that
// line. A directive alone on its line (nothing but spaces before it)
// silences the reports on the line that follows its block of comments,
// as staticcheck's //lint:ignore does for the line under it.
package ignore

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// Generated, when set, lets the analyzers report in generated files
// too; by default nothing is reported in a file marked "// Code
// generated ... DO NOT EDIT.", which its author cannot fix by hand.
var Generated bool

// Flag registers Generated as an analyzer's flag "generated".
func Flag(fs *flag.FlagSet) {
	fs.BoolVar(&Generated, "generated", false, "report in generated files (marked \"// Code generated ... DO NOT EDIT.\") too")
}

// Analyzers are the names a directive may give: the analyzers that
// report findings. Package suite's test checks that it matches the suite.
var Analyzers = []string{"blocking", "deadlock", "guardedby", "race"}

// prefix is how a directive begins, with no space after the slashes, as
// Go's own directives (//go:build, //go:noinline).
const prefix = "//origo:ignore"

// Lines are the lines of a package's files that silence one analyzer.
//
// Lines also records which directives silenced a report (see Has), so
// that the analyzer can hand them on in its Result (see Silenced): the
// directive analyzer reports those that silenced nothing. An analyzer
// knows what it silenced only in its own run, and go vet runs each
// analyzer's actions in one process per package, so the record goes
// where go vet carries it, from an analyzer to those that require it.
type Lines struct {
	fset      *token.FileSet
	lines     map[line][]token.Pos // silenced line → the directives that silence it
	generated map[string]bool      // files marked generated
	used      *used
}

// used is the set of directives that silenced a report. An analyzer's
// checks may ask Has from several goroutines, hence the mutex.
type used struct {
	mu   sync.Mutex
	dirs map[token.Pos]bool
}

type line struct {
	file string
	n    int
}

// Find returns the lines of pass's files that a well-formed directive
// silences for pass's analyzer. A directive with an error (see Parse)
// silences nothing.
func Find(pass *analysis.Pass) Lines {
	return find(pass, func(text string) bool {
		names, problem := Parse(text)
		return problem == "" && slices.Contains(names, pass.Analyzer.Name)
	}, !Generated)
}

// Matching returns the lines of pass's files that the comments for
// which match is true silence, by the directive's rule: the line of a
// comment that ends a line of code, the line under the block of a
// comment alone on its line. It serves other tools' comments that an
// analyzer honours (checklocks' "// +checklocksignore"); generated files
// are left to Find.
func Matching(pass *analysis.Pass, match func(text string) bool) Lines {
	return find(pass, match, false)
}

func find(pass *analysis.Pass, match func(text string) bool, skipGenerated bool) Lines {
	l := Lines{fset: pass.Fset, lines: make(map[line][]token.Pos), generated: make(map[string]bool), used: &used{dirs: make(map[token.Pos]bool)}}
	for _, f := range pass.Files {
		if skipGenerated && IsGenerated(pass.Fset, f) {
			l.generated[pass.Fset.Position(f.Pos()).Filename] = true
		}
		var src []byte // f's text, read once it has a directive
		for _, cg := range f.Comments {
			for _, cm := range cg.List {
				if !match(cm.Text) {
					continue
				}
				if src == nil {
					src = readFile(pass, cm.Pos())
				}
				posn := target(pass.Fset, src, cg, cm)
				at := line{posn.Filename, posn.Line}
				l.lines[at] = append(l.lines[at], cm.Pos())
			}
		}
	}
	return l
}

// target returns the position of the line that the directive cm, of
// the comment group cg in the file whose text is src, silences.
func target(fset *token.FileSet, src []byte, cg *ast.CommentGroup, cm *ast.Comment) token.Position {
	posn := fset.Position(cm.Pos())
	if alone(fset, src, cm.Pos()) {
		posn = fset.Position(cg.End())
		posn.Line++
	}
	return posn
}

// Directive is a well-formed directive of a package's files.
type Directive struct {
	Comment *ast.Comment
	Names   []string       // the analyzers it names
	Target  token.Position // the line it silences (its column is meaningless)
}

// Directives returns the well-formed directives of pass's files, in
// order, leaving out the generated files unless Generated is set.
func Directives(pass *analysis.Pass) []Directive {
	var out []Directive
	for _, f := range pass.Files {
		if !Generated && IsGenerated(pass.Fset, f) {
			continue
		}
		var src []byte
		for _, cg := range f.Comments {
			for _, cm := range cg.List {
				names, problem := Parse(cm.Text)
				if problem != "" || len(names) == 0 {
					continue
				}
				if src == nil {
					src = readFile(pass, cm.Pos())
				}
				out = append(out, Directive{Comment: cm, Names: names, Target: target(pass.Fset, src, cg, cm)})
			}
		}
	}
	return out
}

// readFile returns the text of the file that holds pos, or an empty
// slice when it cannot be read.
func readFile(pass *analysis.Pass, pos token.Pos) []byte {
	name := pass.Fset.File(pos).Name()
	read := pass.ReadFile
	if read == nil {
		return []byte{}
	}
	src, err := read(name)
	if err != nil || src == nil {
		return []byte{}
	}
	return src
}

// alone reports whether only spaces precede the comment at pos on its
// line of src. When src is not the text the file set was built from
// (unreadable, or rewritten as cgo files are) it says false: the
// directive then silences its own line only.
func alone(fset *token.FileSet, src []byte, pos token.Pos) bool {
	tf := fset.File(pos)
	if tf.Size() != len(src) {
		return false
	}
	start := tf.Offset(tf.LineStart(tf.Line(pos)))
	return len(bytes.TrimLeft(src[start:tf.Offset(pos)], " \t")) == 0
}

// Has reports whether the line of pos is silenced, or in a generated
// file. An analyzer asks it of a report it is about to make, and drops
// the report if so: the directives of the line are then recorded as
// used.
func (l Lines) Has(pos token.Pos) bool {
	if len(l.lines) == 0 && len(l.generated) == 0 || !pos.IsValid() {
		return false
	}
	posn := l.fset.Position(pos)
	dirs := l.lines[line{posn.Filename, posn.Line}]
	if len(dirs) > 0 {
		l.used.mu.Lock()
		for _, d := range dirs {
			l.used.dirs[d] = true
		}
		l.used.mu.Unlock()
		return true
	}
	return l.generated[posn.Filename]
}

// Any reports whether the line of any of the positions is silenced, or
// in a generated file: a report that shows several places (the
// goroutines of one deadlock) is silenced by a directive on the line of
// any of them. Each position is asked, none skipped.
func (l Lines) Any(pos ...token.Pos) bool {
	silenced := false
	for _, p := range pos {
		if l.Has(p) {
			silenced = true
		}
	}
	return silenced
}

// Silenced is the Result of an analyzer that reports findings: the
// directives naming it that silenced one of its reports on the package.
// A nil *Silenced says the analyzer did not check the whole package (it
// stopped early, or failed), so that whether a directive silences
// anything there is not known.
type Silenced struct {
	dirs map[token.Pos]bool // by the position of the directive's comment
}

// Silenced returns what the directives of l silenced so far, for the
// analyzer's Result once its checks are done.
func (l Lines) Silenced() *Silenced {
	s := &Silenced{dirs: make(map[token.Pos]bool)}
	if l.used != nil {
		l.used.mu.Lock()
		defer l.used.mu.Unlock()
		for d := range l.used.dirs {
			s.dirs[d] = true
		}
	}
	return s
}

// Used reports whether the directive whose comment begins at pos
// silenced a report.
func (s *Silenced) Used(pos token.Pos) bool { return s.dirs[pos] }

// Parse reads a comment's text as an ignore directive. For a
// well-formed "//origo:ignore NAME[,NAME...] reason" it returns the
// names; for a comment that tries to be a directive and is not one (no
// name, an unknown name, no reason, a space after the slashes, a
// misspelling, a /* */ comment) it returns the problem, a message that
// says what is wrong and the form to write instead; for any other
// comment it returns neither.
func Parse(text string) (names []string, problem string) {
	body, block := strings.CutPrefix(text, "/*")
	if block {
		body = strings.TrimSuffix(body, "*/")
	} else {
		body = strings.TrimPrefix(text, "//")
	}
	trimmed := strings.TrimLeft(body, " \t")
	word, rest := cutWord(trimmed)
	if word == "" || !isLetter(word[0]) {
		return nil, "" // "//\t//origo:ignore ..." quotes a directive in a doc comment
	}
	lower := strings.ToLower(word)
	if lower != "origo:ignore" {
		verb, isOrigo := strings.CutPrefix(lower, "origo:")
		switch {
		case isOrigo && len(verb) > len("ignore") && strings.HasPrefix(verb, "ignore") && strings.ContainsRune("-:=_,", rune(verb[len("ignore")])):
			rest = " " + word[len("origo:ignore")+1:] + rest // "origo:ignore:race x"
		case len(lower) >= len("origo:ignore")-2 && len(lower) <= len("origo:ignore")+2 && distance(lower, "origo:ignore") <= 2: // misspelled: read on (the lengths first: every comment's first word comes here)
		case isOrigo && !block && trimmed == body:
			return nil, fmt.Sprintf("unknown origo directive %q: the only one is %s NAME reason", "//"+word, prefix)
		default:
			return nil, ""
		}
	}
	names, fixed, problem := parseRest(rest)
	written := text[:2] + body[:len(body)-len(trimmed)] + word // "// origo:ignore", as written
	switch {
	case block:
		return nil, fmt.Sprintf("bad %s directive: %q is a /* */ comment, which silences nothing; write %s", prefix, written, fixed)
	case word != "origo:ignore" && trimmed != body:
		return nil, fmt.Sprintf("bad %s directive: %q has a space after // and is misspelled, so it is an ordinary comment and silences nothing; write %s", prefix, written, fixed)
	case trimmed != body:
		return nil, fmt.Sprintf("bad %s directive: %q has a space after //, so it is an ordinary comment and silences nothing; write %s", prefix, written, fixed)
	case word != "origo:ignore":
		return nil, fmt.Sprintf("bad %s directive: %q is misspelled and silences nothing; write %s", prefix, written, fixed)
	case problem != "":
		return nil, fmt.Sprintf("bad %s directive: %s, so it silences nothing; write %s", prefix, problem, fixed)
	}
	return names, ""
}

// parseRest reads what follows "//origo:ignore": the names and the
// reason. It returns the names, the directive as it should be written
// (with each unknown name replaced by the known one it is closest to, or
// by NAME, and a missing reason by "reason"), and what is wrong with it,
// or "".
func parseRest(rest string) (names []string, fixed, problem string) {
	field, reason := cutWord(strings.TrimLeft(rest, " \t"))
	reason = strings.TrimSpace(reason)
	if field == "" {
		return nil, prefix + " NAME reason (NAME: " + strings.Join(Analyzers, ", ") + ")",
			"it names no analyzer and gives no reason"
	}
	names = strings.Split(field, ",")
	fixedNames := make([]string, len(names))
	for i, name := range names {
		fixedNames[i] = name
		if slices.Contains(Analyzers, name) {
			continue
		}
		guess, ok := closest(name)
		if problem == "" {
			problem = fmt.Sprintf("origo has no analyzer %q", name)
			if ok {
				problem += fmt.Sprintf(" (did you mean %s?)", guess)
			} else {
				problem += " (the analyzers are " + strings.Join(Analyzers, ", ") + ")"
			}
		}
		fixedNames[i] = guess
	}
	if reason == "" {
		if problem == "" {
			problem = "it gives no reason after " + field
		}
		reason = "reason"
	}
	return names, prefix + " " + strings.Join(fixedNames, ",") + " " + reason, problem
}

// closest returns the analyzer name within two edits of name, or NAME.
func closest(name string) (string, bool) {
	for _, a := range Analyzers {
		if distance(strings.ToLower(name), a) <= 2 {
			return a, true
		}
	}
	return "NAME", false
}

// cutWord splits s at its first space or tab.
func cutWord(s string) (word, rest string) {
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i], s[i:]
	}
	return s, ""
}

func isLetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// distance is the number of single-byte insertions, deletions,
// substitutions and swaps of neighbours that turn a into b (the optimal
// string alignment distance: "ingore" is one swap from "ignore").
func distance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// IsGenerated reports whether f is a generated file, left out of the
// reports: marked "// Code generated ... DO NOT EDIT.", and not a file of
// the package that cgo rewrote. cgo turns each file x.go that imports
// "C" into one marked "Code generated by cmd/cgo", whose //line
// directives lead back to x.go: the user's code, which go vet and the
// build analyze in its place. (cgo's own files, _cgo_gotypes.go, have
// no such directive before their package clause.)
func IsGenerated(fset *token.FileSet, f *ast.File) bool {
	if !ast.IsGenerated(f) {
		return false
	}
	src := fset.Position(f.Package).Filename
	return !(cgoRewritten(f) && src != fset.File(f.Package).Name() && strings.HasSuffix(src, ".go"))
}

// cgoRewritten reports whether f's comments before its package clause
// say cmd/cgo generated it.
func cgoRewritten(f *ast.File) bool {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "// Code generated by cmd/cgo") {
				return true
			}
		}
	}
	return false
}
