package race

import (
	"slices"
	"testing"

	"github.com/origo-dev/origo/passes/rules"
)

// TestWhyVerdicts checks what -why prints of one candidate: reported
// when any of its pairs is; else each rule that ruled out a pair, in
// the order of rules.All, one-goroutine only when it is the only one.
func TestWhyVerdicts(t *testing.T) {
	ids := func(vs []whyVerdict) []rules.ID {
		var out []rules.ID
		for _, v := range vs {
			out = append(out, v.rule)
		}
		return out
	}
	for _, tc := range []struct {
		e    whyEntry
		want []rules.ID
	}{
		{whyEntry{reported: true, ruled: []whyVerdict{{rule: rules.CommonLock}}}, []rules.ID{""}},
		{whyEntry{ruled: []whyVerdict{{rule: rules.CommonLock}, {rule: rules.OneGoroutine}, {rule: rules.HappensBefore}}}, []rules.ID{rules.HappensBefore, rules.CommonLock}},
		{whyEntry{ruled: []whyVerdict{{rule: rules.OneGoroutine}}}, []rules.ID{rules.OneGoroutine}},
	} {
		if got := ids(tc.e.verdicts()); !slices.Equal(got, tc.want) {
			t.Errorf("verdicts of %+v = %v, want %v", tc.e, got, tc.want)
		}
	}
}
