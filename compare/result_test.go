package compare_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
)

// TestResultJSONVerdict: only a compared result carries a verdict in JSON;
// one that was added, removed, did not build or failed carries none
// (issue 25: failed results carried "unchanged"), and every result reads
// back as written.
func TestResultJSONVerdict(t *testing.T) {
	est := &benchstats.Estimate{Change: 0.2, CI: benchstats.Interval{Low: 0.1, High: 0.3}}
	for _, tc := range []struct {
		name string
		r    compare.Result
		want string // "" for no verdict
	}{
		{"compared, unchanged", compare.Result{Status: compare.Compared, Unit: "sec/op", Verdict: benchstats.Unchanged, Estimate: &benchstats.Estimate{}}, "unchanged"},
		{"compared, regression", compare.Result{Status: compare.Compared, Unit: "sec/op", Verdict: benchstats.DefiniteRegression, Estimate: est}, "definite-regression"},
		{"added", compare.Result{Status: compare.Added, Unit: "sec/op"}, ""},
		{"removed", compare.Result{Status: compare.Removed, Unit: "sec/op"}, ""},
		{"build failed", compare.Result{Status: compare.BuildFailed, Side: "head", Error: "x.go:1: oops"}, ""},
		{"failed", compare.Result{Status: compare.Failed, Side: "base", Unit: "sec/op", Error: "panic: boom"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := json.Marshal(tc.r)
			if err != nil {
				t.Fatal(err)
			}
			var fields map[string]any
			if err := json.Unmarshal(data, &fields); err != nil {
				t.Fatal(err)
			}
			got, has := fields["verdict"]
			switch {
			case tc.want == "" && has:
				t.Errorf("%s: verdict %v, want none", data, got)
			case tc.want != "" && got != tc.want:
				t.Errorf("%s: verdict %v, want %q", data, got, tc.want)
			}
			if _, ok := fields["status"]; !ok {
				t.Errorf("%s: no status", data)
			}
			var back compare.Result
			if err := json.Unmarshal(data, &back); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, tc.r) {
				t.Errorf("read back %+v, want %+v", back, tc.r)
			}
		})
	}
}
