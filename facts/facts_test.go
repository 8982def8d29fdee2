package facts_test

import (
	"bytes"
	"encoding/gob"
	"go/token"
	"reflect"
	"testing"

	"github.com/origo-dev/origo/facts"
	"golang.org/x/tools/go/analysis"
)

// sampleFacts holds one populated value of every fact type in the package.
// A new fact type must be added here, or TestEveryFactRoundTrips fails to
// cover it.
func sampleFacts() []analysis.Fact {
	var in facts.Interner
	return []analysis.Fact{
		&facts.Origins{
			V: facts.Version,
			Sites: []facts.Site{
				{Kind: facts.SpawnGo, Flags: facts.Multiple, Target: in.Intern("example.com/c.worker"), File: in.Intern("/src/c/c.go"), Line: 12, Col: 2, Parent: -1},
				{Kind: facts.SpawnSubtest, Flags: facts.Parallel, Target: in.Intern("example.com/c.TestX$1"), File: in.Intern("/src/c/c.go"), Line: 30, Col: 4, Parent: 0},
			},
			Strings: in.Strings(),
			Dropped: 3,
		},
		&facts.OriginsTable{
			V: facts.Version,
			Funcs: []facts.NamedOrigins{
				{Name: "(*example.com/c.Pool).Start", Origins: facts.Origins{V: facts.Version, Strings: []string{"", "example.com/c.worker", "/src/c/c.go"}, Sites: []facts.Site{{Kind: facts.SpawnGo, Target: 1, File: 2, Line: 12, Col: 2, Parent: -1}}}},
				{Name: "example.com/c.Run", Origins: facts.Origins{V: facts.Version, Strings: []string{"", "/src/c/c.go"}, Sites: []facts.Site{{Kind: facts.SpawnAfterFunc, File: 1, Line: 40, Col: 2, Parent: -1}}}},
			},
		},
		&facts.PointerSummaries{
			V:       facts.Version,
			Strings: []string{"", "example.com/c.New", "c.T", "c.go:3"},
			Funcs: []facts.FuncSummary{{
				Name: 1,
				Objects: []facts.SumObject{
					{Kind: facts.SumParam, Param: 0, Leaf: 0, Size: 2, Type: 2},
					{Kind: facts.SumSub, Parent: 0, Leaf: 1, Size: 1, Type: 2},
					{Kind: facts.SumAlloc, Size: 2, Type: 2, Site: 3},
				},
				Edges:   []facts.SumEdge{{From: 2, FromOff: 1, To: 1, ToOff: 0}},
				Results: []facts.SumEdge{{From: -1, FromOff: 0, To: 2, ToOff: 0}},
			}},
		},
		&facts.Locks{
			V:       facts.Version,
			Strings: []string{"", "(*example.com/c.T).Inc", "p0|.0", "c.go:9:4"},
			Funcs: []facts.FuncLocks{{
				Name:     1,
				Acquires: []facts.HeldLock{{Key: 2, Read: true}},
				Releases: []facts.HeldLock{{Key: 2, When: []facts.ParamIs{facts.MakeParamIs(1, true)}}},
				Takes:    []facts.HeldLock{{Key: 2, Pos: 3, When: []facts.ParamIs{facts.MakeParamIs(0, false), facts.MakeParamIs(2, true)}}},
			}},
		},
		&facts.Effects{
			V:       facts.Version,
			Strings: []string{"", "(*example.com/c.T).Inc", "p0|.0", "p0|.1", "c.go:9:4"},
			Funcs: []facts.FuncEffects{{
				Name:     1,
				Accesses: []facts.MemAccess{{Key: 3, Pos: 4, Write: true, Locks: []facts.HeldLock{{Key: 2}, {Key: 3, Once: true}}}},
				Syncs:    []facts.SyncOp{{Kind: facts.SyncDone, Key: 2, Pos: 4, After: 1}, {Kind: facts.SyncOnceAfter, Key: 3, Pos: 4, After: 1}},
			}},
		},
		&facts.Guarded{
			V: facts.Version,
			By: []facts.GuardedBy{
				{Mutex: "mu", Steps: []facts.Step{{Op: facts.FieldAddr, Index: 1}}, At: "/src/c/c.go:7:2"},
				{Mutex: "s.parent.mu", Param: 1, Steps: []facts.Step{{Op: facts.FieldAddr, Index: 2}, {Op: facts.Load}, {Op: facts.FieldAddr}}, Read: true, At: "/src/c/c.go:8:2"},
				{Mutex: "globalMu", Global: "example.com/c.globalMu", At: "/src/c/c.go:9:2"},
			},
			ReadAny: true,
			Atomic:  true,
		},
	}
}

func TestEveryFactRoundTrips(t *testing.T) {
	for _, f := range sampleFacts() {
		gob.Register(f)
	}
	for _, want := range sampleFacts() {
		// Facts travel as interface values, as in x/tools' encoder.
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(&want); err != nil {
			t.Fatalf("encode %T: %v", want, err)
		}
		first := append([]byte(nil), buf.Bytes()...)
		var got analysis.Fact
		if err := gob.NewDecoder(&buf).Decode(&got); err != nil {
			t.Fatalf("decode %T: %v", want, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("round trip of %T:\n got %v\nwant %v", want, got, want)
		}
		// Encoding is deterministic: the bytes key the build cache.
		var again bytes.Buffer
		if err := gob.NewEncoder(&again).Encode(&got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, again.Bytes()) {
			t.Errorf("%T: re-encoding gives different bytes", want)
		}
	}
}

func TestOriginsVersion(t *testing.T) {
	o := sampleFacts()[0].(*facts.Origins)
	if !o.Valid() {
		t.Fatal("fact with current version reported invalid")
	}
	old := *o
	old.V = facts.Version - 1
	if old.Valid() {
		t.Error("fact from another format version reported valid")
	}
	var missing *facts.Origins
	if missing.Valid() {
		t.Error("nil fact reported valid")
	}
}

func TestOriginsTableLookup(t *testing.T) {
	tab := sampleFacts()[1].(*facts.OriginsTable)
	if o := tab.Lookup("example.com/c.Run"); o == nil || len(o.Sites) != 1 || o.Sites[0].Kind != facts.SpawnAfterFunc {
		t.Errorf("Lookup(c.Run) = %v, want its AfterFunc site", o)
	}
	if o := tab.Lookup("example.com/c.Stop"); o != nil {
		t.Errorf("Lookup(c.Stop) = %v, want nil", o)
	}
}

func TestOriginsString(t *testing.T) {
	o := sampleFacts()[0].(*facts.Origins)
	want := "origins(go c.worker c.go:12 multi; t.Run c.TestX$1 c.go:30 parallel <0; +3 more)"
	if got := o.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestShortName(t *testing.T) {
	for in, want := range map[string]string{
		"(*example.com/x/c.Pool).run": "(*c.Pool).run",
		"example.com/c.F$1":           "c.F$1",
		"fmt.Println":                 "fmt.Println",
		"net/http.(*conn).serve":      "http.(*conn).serve",
		"a.G[example.com/b.T]":        "a.G[b.T]",
		"":                            "",
	} {
		if got := facts.ShortName(in); got != want {
			t.Errorf("ShortName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestShortPos(t *testing.T) {
	for in, want := range map[string]string{
		"/src/x/b.go:12:3": "b.go:12",
		"b.go:7:1":         "b.go:7",
	} {
		if got := facts.ShortPos(in); got != want {
			t.Errorf("ShortPos(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParamIs(t *testing.T) {
	for _, i := range []int{0, 1, 7, 300} {
		for _, v := range []bool{false, true} {
			p := facts.MakeParamIs(i, v)
			if p.Param() != i || p.Value() != v {
				t.Errorf("MakeParamIs(%d, %v) reads back as (%d, %v)", i, v, p.Param(), p.Value())
			}
		}
	}
}

// TestComparePos checks that positions order by file name, line and
// column, not by token.Pos, which follows the order files were added.
func TestComparePos(t *testing.T) {
	fset := token.NewFileSet()
	b := fset.AddFile("b.go", -1, 100)
	a := fset.AddFile("a.go", -1, 100) // added later: larger token.Pos
	b.SetLines([]int{0, 10, 20})
	a.SetLines([]int{0, 10, 20})
	pa, pb := a.Pos(15), b.Pos(5)
	if pa < pb {
		t.Fatal("test setup: a.go's position should be the larger token.Pos")
	}
	if got := facts.ComparePos(fset, pa, pb); got >= 0 {
		t.Errorf("ComparePos(a.go:2, b.go:1) = %d, want < 0", got)
	}
	if got := facts.ComparePos(fset, b.Pos(15), pb); got <= 0 {
		t.Errorf("ComparePos(b.go:2, b.go:1) = %d, want > 0", got)
	}
	if got := facts.ComparePos(fset, pb, pb); got != 0 {
		t.Errorf("ComparePos(p, p) = %d, want 0", got)
	}
}

func TestGuardedString(t *testing.T) {
	var g *facts.Guarded
	for _, f := range sampleFacts() {
		if f, ok := f.(*facts.Guarded); ok {
			g = f
		}
	}
	if !g.Valid() {
		t.Fatal("fact with current version reported invalid")
	}
	want := "guarded(mu at c.go:7; read s.parent.mu at c.go:8; globalMu at c.go:9; read any; atomic)"
	if got := g.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
