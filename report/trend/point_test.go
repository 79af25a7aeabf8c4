package trend_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/report/trend"
)

// TestPointJSON checks that a Point, which embeds history.Point, keeps
// schema 1's JSON: the detectors' threshold as "threshold", the verdict
// under "judged", no comparison id, and that it reads back.
func TestPointJSON(t *testing.T) {
	head := compare.Revision{Commit: "0f98b1f7ed", Subject: "commit 1", Time: time.Date(2026, 3, 1, 13, 0, 0, 0, time.UTC), Depth: 4}
	tests := []struct {
		name string
		p    trend.Point
		want string
	}{
		{"bare", trend.Point{Point: history.Point{Head: head, Point: detect.Point{Change: 0.004, CI: benchstats.Interval{Low: -0.03, High: 0.04}}}, DetectThreshold: 0.02},
			`{"head":{"commit":"0f98b1f7ed","subject":"commit 1","time":"2026-03-01T13:00:00Z","depth":4},"change":0.004,"ci":{"low":-0.03,"high":0.04},"threshold":0.02,"judged":{"verdict":"unchanged"}}`},
		{"judged, valued, estimated, bridged", trend.Point{Point: history.Point{Head: head, Point: detect.Point{Change: 0.1, CI: benchstats.Interval{Low: 0.09, High: 0.11}},
			BaseValue: 1, HeadValue: 1.1, Verdict: benchstats.DefiniteRegression, Threshold: 0.01, Impact: &callgraph.Impact{Flat: 0.5},
			AppImpact: &culprit.AppImpact{Estimate: 0.05, Low: 0.04, High: 0.06, Basis: culprit.BasisBenchmark, BenchmarkShare: 0.5},
			Culprits:  []string{"m.F"}, Comparison: 7, Base: "abc"}, DetectThreshold: 0.03},
			`{"head":{"commit":"0f98b1f7ed","subject":"commit 1","time":"2026-03-01T13:00:00Z","depth":4},"change":0.1,"ci":{"low":0.09,"high":0.11},"threshold":0.03,"base_value":1,"head_value":1.1,"judged":{"verdict":"definite-regression","threshold":0.01},"impact":{"flat":0.5,"attributed":0},"app_impact":0.05,"app_impact_low":0.04,"app_impact_high":0.06,"app_impact_basis":"benchmark","app_relevant_share":0,"app_benchmark_share":0.5,"culprits":["m.F"],"base":"abc"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			js, err := json.Marshal(tt.p)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(js))
			var back trend.Point
			require.NoError(t, json.Unmarshal(js, &back))
			want := tt.p
			want.Comparison = 0 // not part of the document
			assert.Equal(t, want, back)
		})
	}
}
