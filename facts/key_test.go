package facts

import (
	"go/types"
	"testing"
)

func TestKeyRoundTrip(t *testing.T) {
	var p Path
	p = p.Then(Step{Op: FieldAddr, Index: 3}).Then(Step{Op: Load}).Then(Step{Op: IndexAddr}).Then(Step{Op: Field, Index: 12})
	for _, k := range []Key{
		ParamKey(0),
		ParamKey(11).Extend(p),
		FreeVarKey(2).Extend(p),
		GlobalKey("example.com/a.v").Extend(p),
		LocalKey("t3").Extend(p),
		ParamKey(1).Extend(p).Unbind(),
	} {
		var in Interner
		i := in.Key(k)
		e := &Effects{V: Version, Strings: in.Strings()}
		if got := e.Key(i); got != k {
			t.Errorf("key %v decoded as %v", k, got)
		}
	}
	if got := ParamKey(1).Extend(p).Path().Steps(); len(got) != 4 || got[0] != (Step{FieldAddr, 3}) || got[3] != (Step{Field, 12}) {
		t.Errorf("steps of %v: %v", p, got)
	}
}

func TestKeyRenaming(t *testing.T) {
	field := Path{}.Then(Step{Op: FieldAddr, Index: 1})
	callee := ParamKey(0).Extend(field) // p0.f in the callee
	arg := FreeVarKey(2).Extend(Path{}.Then(Step{Op: Load}))
	if got, want := callee.Rebase(arg), FreeVarKey(2).Extend(Path{}.Then(Step{Op: Load}).Then(Step{Op: FieldAddr, Index: 1})); got != want {
		t.Errorf("Rebase = %v, want %v", got, want)
	}
	for k, rooted := range map[Key]bool{
		ParamKey(0): true, FreeVarKey(0): true, GlobalKey("p.v"): true,
		LocalKey("t1"): false, ParamKey(0).Unbind(): false,
	} {
		if k.Rooted() != rooted {
			t.Errorf("%v.Rooted() = %v, want %v", k, !rooted, rooted)
		}
	}
	for _, bad := range []string{"", "x|", "p|", "pq|", "p0|.x", "p0|[", "p0|#"} {
		if k := parseKey(bad); k.Rooted() || k.Bound() {
			t.Errorf("malformed key %q decoded as bound %v", bad, k)
		}
	}
}

func TestPathRender(t *testing.T) {
	mu := types.NewField(0, nil, "mu", types.Typ[types.Int], false)
	items := types.NewField(0, nil, "items", types.NewSlice(types.Typ[types.Int]), false)
	st := types.NewStruct([]*types.Var{mu, items}, nil)
	ptr := types.NewPointer(st)
	p := Path{}.Then(Step{Op: FieldAddr, Index: 1}).Then(Step{Op: Load}).Then(Step{Op: IndexAddr})
	if got, want := p.Render("c", ptr), "c.items[i]"; got != want {
		t.Errorf("Render = %q, want %q", got, want)
	}
	if got := (Path{}.Then(Step{Op: FieldAddr, Index: 5})).Render("c", ptr); got != "" {
		t.Errorf("a path that does not fit renders %q", got)
	}
}
