package site_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/relevance/measure"
	"github.com/mbopt/mbopt/report/site"
)

// TestFromHistoryApplication: the application's series is measured only:
// the stored measurements of the application benchmark (compare
// --app-benchmark) when there are any, else the application measured on
// both versions (compare's app_measured); a reference profile's total is
// no measurement and makes no series (issue 30 item 5: the upper chart
// repeated it at every commit, which read as a measurement). Where its own
// series has a detection, so does the application's point. Each series names its metric when it is in the metric's unit.
func TestFromHistoryApplication(t *testing.T) {
	for _, tc := range []struct {
		name      string
		measured  bool
		confirmed bool
		source    string
		values    []float64
		detected  []string
	}{
		{"measurements", true, true, history.FromMeasurements, []float64{1e-3, 1.001e-3, 1.3e-3}, []string{"", "", "definite jump"}},
		{"confirmation", false, true, history.FromConfirmation, []float64{2e6, 2.002e6, 2.6e6}, []string{"", "", ""}},
		{"reference profile only", false, false, "", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			st, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
			require.NoError(t, err)
			defer st.Close()
			base := compare.Revision{Commit: fmt.Sprintf("%040x", 1), Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
			appChange := []float64{0, 0.001, 0.3}
			for c := range 3 {
				head := compare.Revision{Commit: fmt.Sprintf("%040x", c+2), Time: base.Time.Add(time.Duration(c+1) * time.Hour)}
				r := &compare.Report{Schema: compare.SchemaVersion, Module: "example.com/m", Base: base, Head: head,
					Settings: compare.Settings{Trials: 3, Count: 5, Threshold: 0.01, Confidence: 0.99, Metric: measure.Instructions}}
				for _, b := range []struct {
					name, unit string
					change     float64
				}{{"BenchmarkApp", "B/op", 0}, {"BenchmarkApp", "instructions/op", appChange[c]}, {"BenchmarkX", "instructions/op", 0}} {
					e := &benchstats.Estimate{Change: b.change, CI: benchstats.Interval{Low: b.change - 0.002, High: b.change + 0.002}, BaseMedian: 1e-3, HeadMedian: 1e-3 * (1 + b.change)}
					r.Results = append(r.Results, compare.Result{ID: "example.com/m." + b.name, Package: "example.com/m", Name: b.name, Unit: b.unit,
						Status: compare.Compared, Estimate: e, Verdict: benchstats.Classify(*e, 0.01, false)})
				}
				opt := history.RecordOptions{Verdicts: history.AsCompared, Application: history.ProfileApplication("app.pprof", float64(10+c), "seconds")}
				if tc.measured {
					opt.AppBenchmark = "BenchmarkApp"
				}
				if tc.confirmed {
					r.AppMeasured = &compare.AppMeasurement{Source: "command go run ./cmd/load", Unit: "instructions",
						Estimate: benchstats.Estimate{Change: appChange[c], CI: benchstats.Interval{Low: appChange[c] - 0.01, High: appChange[c] + 0.01}, BaseMedian: 2e6, HeadMedian: 2e6 * (1 + appChange[c]), BaseN: 9, HeadN: 9}}
				}
				_, err := st.Record(ctx, r, opt)
				require.NoError(t, err)
			}
			set, err := st.Series(ctx, history.Query{})
			require.NoError(t, err)
			dopt := detect.DefaultOptions
			dopt.InitialThreshold = 0.02
			detected, err := set.Detect(dopt, nil)
			require.NoError(t, err)
			d, err := site.FromHistory(set, detected)
			require.NoError(t, err)
			assert.Equal(t, "example.com/m", d.Title)
			if tc.source == "" {
				assert.Nil(t, d.Application, "a reference profile's total is drawn as no series")
				return
			}
			require.NotNil(t, d.Application)
			assert.Equal(t, tc.source, d.Application.Source)
			var values []float64
			var marks []string
			for _, p := range d.Application.Points {
				values = append(values, p.Value)
				mark := ""
				if p.Detected {
					mark = map[bool]string{true: "definite ", false: "potential "}[p.Definite] + string(p.Kind)
				}
				marks = append(marks, mark)
			}
			assert.InDeltaSlice(t, tc.values, values, 1e-9)
			assert.Equal(t, tc.detected, marks)
			for _, s := range d.Series {
				want := map[string]string{"instructions/op": "instructions", "B/op": ""}[s.Unit]
				assert.Equal(t, want, s.Metric, "%s %s", s.Name, s.Unit)
				own := tc.measured && s.Name == "BenchmarkApp" && s.Unit == "instructions/op"
				assert.Equal(t, own, s.Application, "%s %s: the application benchmark's own series", s.Name, s.Unit)
			}
		})
	}
}
