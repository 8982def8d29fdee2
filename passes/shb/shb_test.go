package shb_test

import (
	"flag"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/origo-dev/origo/passes/shb"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestGraphs")

// render is a test-only analyzer whose Result is the happens-before
// graph of its package as text (see dump).
var render = &analysis.Analyzer{
	Name:       "shbrender",
	Doc:        "render the shb Result as text (test only)",
	Requires:   []*analysis.Analyzer{shb.Analyzer},
	ResultType: reflect.TypeFor[string](),
	Run: func(pass *analysis.Pass) (any, error) {
		return dump(pass.Fset, pass.ResultOf[shb.Analyzer].(*shb.Result)), nil
	},
}

// TestGraphs checks the graph of each fixture in testdata/src against
// testdata/<name>.golden; go test -run TestGraphs -update rewrites them.
// Each fixture says at its top which edges the Go memory model gives it.
// The fixtures share one run of the analysis, which analyzes their
// imports again each time.
func TestGraphs(t *testing.T) {
	names := []string{
		"gostmt", "unbuffered", "buffered", "closed", "waitgroup", "wglate", "wgshared", "wggo",
		"once", "oncebefore", "cond", "selects", "loop", "mutex", "transfer",
	}
	results := analysistest.Run(t, analysistest.TestData(), render, names...)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			var got string
			n := 0
			for _, r := range results {
				if r.Pass.Pkg.Path() != name || r.Err != nil {
					continue
				}
				got = r.Result.(string)
				n++
			}
			if n != 1 {
				t.Fatalf("%d results for package %s, want 1", n, name)
			}
			golden := filepath.Join(analysistest.TestData(), name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("graph of %s differs from %s:\n--- got\n%s--- want\n%s", name, golden, got, want)
			}
		})
	}
}

// dump renders a graph: for each trace in order, its origin, its events
// (kind, object, loop, lockset, position), its loops, and the edges that
// leave it: "before e3 -> #2 from e5" says that the events of the trace
// with IDs below 3 happen before those of origin #2 from ID 5 on, and
// "e1..before e3 -> #2 from e5" the same of the events e1 and e2 only.
// Positions are file:line with the file's base name.
func dump(fset *token.FileSet, r *shb.Result) string {
	var b strings.Builder
	pos := func(p token.Pos) string {
		if !p.IsValid() {
			return "-"
		}
		q := fset.Position(p)
		return fmt.Sprintf("%s:%d", filepath.Base(q.Filename), q.Line)
	}
	for _, t := range r.Traces {
		o := t.Origin
		fmt.Fprintf(&b, "trace %v at %s", o, pos(o.Site))
		if o.Parent != nil {
			fmt.Fprintf(&b, ", started by #%d", o.Parent.ID)
		}
		if o.Multi {
			b.WriteString(", multi")
		}
		if t.Truncated {
			b.WriteString(", truncated")
		}
		b.WriteString("\n")
		for _, ev := range t.Events {
			fmt.Fprintf(&b, "  e%d %s", ev.ID, shb.Kinds[ev.Kind])
			switch {
			case ev.Kind == shb.Spawn:
				var ids []string
				for _, s := range t.Spawned(ev.ID) {
					ids = append(ids, fmt.Sprintf("#%d", s.ID))
				}
				fmt.Fprintf(&b, " [%s]", strings.Join(ids, " "))
				if ev.Obj >= 0 {
					fmt.Fprintf(&b, " group %s", r.Location(ev.Obj))
				}
			case ev.Kind == shb.Access:
				if ev.Imported > 0 {
					fmt.Fprintf(&b, " ext%d", ev.Imported)
				}
			case ev.Obj >= 0:
				fmt.Fprintf(&b, " %s", r.Location(ev.Obj))
			default:
				b.WriteString(" ?")
			}
			if ev.Read {
				b.WriteString(" read")
			}
			if ev.Select {
				b.WriteString(" maybe")
			}
			if ev.Loop >= 0 {
				fmt.Fprintf(&b, " loop%d", ev.Loop)
			}
			if ev.Locks != 0 {
				fmt.Fprintf(&b, " holds %s", lockset(r, ev.Locks))
			}
			p := token.NoPos
			if ev.Instr != nil {
				p = ev.Instr.Pos()
			}
			fmt.Fprintf(&b, " @%s\n", pos(p))
		}
		for i, l := range t.Loops {
			fmt.Fprintf(&b, "  loop%d e%d..e%d\n", i, l.Start, l.End)
		}
		for _, e := range t.Out {
			from := ""
			if e.From > 0 {
				from = fmt.Sprintf("e%d..", e.From)
			}
			fmt.Fprintf(&b, "  edge: %sbefore e%d -> #%d from e%d\n", from, e.Before, e.To.Origin.ID, e.At)
		}
	}
	if len(r.LateAdds) > 0 {
		for _, la := range r.LateAdds {
			fmt.Fprintf(&b, "late add: #%d e%d, waited for by #%d e%d\n", la.Trace.Origin.ID, la.Add, la.Waiter.Origin.ID, la.Wait)
		}
	}
	return b.String()
}

// lockset renders the members of a lockset as "{c.mu, rw(read)}", each
// lock by how the code names it, or by its location; "+once" marks the
// Once of a Do callback, which the set holds but Members leaves out.
func lockset(r *shb.Result, id shb.LocksetID) string {
	locs, read := r.Locks.Members(id)
	var elems []string
	for i, ls := range locs {
		var names []string
		for _, l := range ls {
			n := r.Locks.Name(l)
			if n == "" {
				n = r.Location(l).String()
			}
			names = append(names, n)
		}
		s := strings.Join(names, "|")
		if read[i] {
			s += "(read)"
		}
		elems = append(elems, s)
	}
	if r.Locks.Len(id) > len(locs) {
		elems = append(elems, "+once")
	}
	return "{" + strings.Join(elems, ", ") + "}"
}
