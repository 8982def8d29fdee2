package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The edit benchmark measures what a developer pays to re-run go vet
// after editing one function body: the edited package is compiled and
// analysed again, and so is every package whose inputs changed. go vet
// keys a package's analysis on its compiled form and on the facts its
// imports' analyses wrote, so an edit that leaves the compiled code and
// the facts as they were re-analyses the edited package alone.
//
// Each tool first vets the packages with the original source, so that
// every analysis result is cached. Then each run makes an edit of its own
// (a blank assignment of a constant unique to the run, inserted after
// the function's opening brace, on the same line: no position below it
// moves, so the compiler's output and an unchanged package's facts stay
// byte-identical), vets again, timed, and puts the source back. Both
// tools compile the edited package once per run, as a developer would.

// benchEdit runs the edit benchmark.
func benchEdit(args []string) error {
	fs := flag.NewFlagSet("edit", flag.ExitOnError)
	runs := fs.Int("n", 3, "number of runs of each tool")
	origo := fs.String("origo", "", "the origo binary (default: built from this repository)")
	dir := fs.String("C", ".", "run go vet in this directory")
	var edits []string
	fs.Func("edit", "a function to edit, as file.go:Name or file.go:Type.Method (relative to -C; repeatable)", func(s string) error {
		edits = append(edits, s)
		return nil
	})
	fs.Parse(args)
	if len(edits) == 0 {
		return fmt.Errorf("edit: no -edit given")
	}
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
	tools := []struct{ name, path string }{{"go vet", stdvet}, {"origo", *origo}}
	fmt.Printf("packages %s in %s, %d runs each; the edited package compiled again in every run\n", strings.Join(patterns, " "), *dir, *runs)
	for _, target := range edits {
		file, fn, ok := strings.Cut(target, ":")
		if !ok {
			return fmt.Errorf("edit: %q is not file.go:Func", target)
		}
		file = filepath.Join(*dir, file)
		orig, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		at, err := bodyStart(file, orig, fn)
		if err != nil {
			return err
		}
		nonces := make([]string, len(tools))
		before := make([]map[string]unit, len(tools))
		for i, tool := range tools {
			nonces[i] = strconv.FormatInt(time.Now().UnixNano(), 36)
			log := filepath.Join(tmp, fmt.Sprintf("prime-%d.jsonl", i))
			os.Remove(log)
			if _, out := wrappedVet(*dir, patterns, self, tool.path, log, nonces[i]); crashed(out) {
				return fmt.Errorf("%s crashed or failed inside:\n%s", tool.name, lastLines(out, 40))
			}
			us, err := readUnits(log)
			if err != nil {
				return err
			}
			before[i] = byPackage(us)
		}
		walls := make([][]time.Duration, len(tools))
		redone := make([][]unit, len(tools)) // the packages analysed again, in the last run
		for run := range *runs {
			for i, tool := range tools {
				edited := slices.Concat(orig[:at], fmt.Appendf(nil, " _ = %d;", 1+run*len(tools)+i), orig[at:])
				if err := os.WriteFile(file, edited, 0o644); err != nil {
					return err
				}
				log := filepath.Join(tmp, fmt.Sprintf("edit-%d-%d.jsonl", i, run))
				wall, out := wrappedVet(*dir, patterns, self, tool.path, log, nonces[i])
				if err := os.WriteFile(file, orig, 0o644); err != nil {
					return err
				}
				if crashed(out) {
					return fmt.Errorf("%s crashed or failed inside:\n%s", tool.name, lastLines(out, 40))
				}
				walls[i] = append(walls[i], wall)
				if redone[i], err = readUnits(log); err != nil {
					return err
				}
			}
		}
		fmt.Printf("\nedit of %s in %s\n", fn, target)
		fmt.Printf("%-8s %10s %10s %8s  %s\n", "tool", "wall min", "median", "ratio", "packages analysed again (last run), and whether their facts changed")
		ref := median(walls[0])
		for i, tool := range tools {
			fmt.Printf("%-8s %10s %10s %7.2fx  %s\n", tool.name, round(slices.Min(walls[i])), round(median(walls[i])),
				float64(median(walls[i]))/float64(ref), describeRedone(redone[i], before[i]))
		}
	}
	return nil
}

// stdVet returns the path of the standard vet tool.
func stdVet() (string, error) {
	out, err := goCmd("", "env", "GOTOOLDIR")
	if err != nil {
		return "", err
	}
	return filepath.Join(strings.TrimSpace(string(out)), "vet"), nil
}

// bodyStart returns the offset in src just past the opening brace of the
// body of the function named name ("F", "T.M" or "(*T).M").
func bodyStart(file string, src []byte, name string) (int, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return 0, err
	}
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		if full := funcDeclName(fd); name != full && name != strings.NewReplacer("(*", "", ")", "").Replace(full) {
			continue
		}
		return fset.Position(fd.Body.Lbrace).Offset + 1, nil
	}
	return 0, fmt.Errorf("edit: no function %s with a body in %s", name, file)
}

// byPackage indexes units by package (see unitName).
func byPackage(us []unit) map[string]unit {
	m := make(map[string]unit)
	for _, u := range us {
		m[unitName(u)] = u
	}
	return m
}

// unitName tells apart the runs of go vet on one package: the run for
// its importers' facts alone, and the run on the package (with its
// tests) whose findings go vet prints, which unitchecker's config names
// alike.
func unitName(u unit) string {
	if u.VetxOnly {
		return u.Package + " (facts only)"
	}
	return u.Package
}

// describeRedone lists the packages analysed again, each with its time
// and whether the facts it wrote differ from the original's.
func describeRedone(redone []unit, before map[string]unit) string {
	if len(redone) == 0 {
		return "none"
	}
	slices.SortFunc(redone, func(x, y unit) int { return strings.Compare(unitName(x), unitName(y)) })
	var b bytes.Buffer
	for i, u := range redone {
		if i > 0 {
			b.WriteString(", ")
		}
		facts := "facts identical"
		if old, ok := before[unitName(u)]; !ok || old.FactsHash != u.FactsHash {
			facts = "facts changed"
		}
		fmt.Fprintf(&b, "%s %s (%s)", unitName(u), round(u.Wall), facts)
	}
	return b.String()
}
