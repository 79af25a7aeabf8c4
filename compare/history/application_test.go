package history

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
)

// TestApplicationStored: the application's measurement of each
// comparison is stored with it and comes back with the series, per head
// and source, measurements first, in commit order; a bridge, an A/A
// comparison and a comparison without one store none (issue 23: the
// Figure 8/9 view's top series "from stored application measurements when
// there are any; from the reference profile's total otherwise").
func TestApplicationStored(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "history.db"))
	record := func(r *compare.Report, app *Application, bench ...string) *Recorded {
		t.Helper()
		opt := RecordOptions{Machine: testMachine, Verdicts: AsCompared, Application: app}
		if len(bench) > 0 {
			opt.AppBenchmark = bench[0]
		}
		rec, err := s.Record(ctx, r, opt)
		require.NoError(t, err)
		return rec
	}
	prof := func(v float64) *Application { return ProfileApplication("app.pprof", v, "seconds") }
	// Heads c (3 h), b (1 h) and d (4 h) against a; b again, later, with a
	// measurement; one without any application.
	record(report('a', 'c', 3, 0.01, map[string]float64{"BenchmarkApp": 0.05, "BenchmarkX": 0.1}), prof(30))
	record(report('a', 'b', 1, 0.01, map[string]float64{"BenchmarkApp": 0.01}), prof(10))
	rec := record(report('a', 'b', 1, 0.01, map[string]float64{"BenchmarkApp": 0.02}), prof(11), "BenchmarkApp")
	require.NoError(t, rec.ApplicationErr)
	assert.Equal(t, FromMeasurements, rec.Application.Source, "the measurement replaces the profile's total")
	record(report('a', 'd', 4, 0.01, map[string]float64{"BenchmarkApp": 0.0}), nil)
	rec = record(report('a', 'e', 6, 0.01, map[string]float64{"BenchmarkX": 0.0}), nil, "BenchmarkApp")
	assert.ErrorContains(t, rec.ApplicationErr, "the application benchmark BenchmarkApp has no compared result")
	assert.Nil(t, rec.Application)
	record(report('a', 'a', 5, 0.01, map[string]float64{"BenchmarkApp": 0.0}), prof(99)) // A/A

	set, err := s.Series(ctx, Query{})
	require.NoError(t, err)
	assert.Equal(t, "example.com/m", set.Module)
	type got struct {
		Head   byte
		Source string
		Value  float64
		Unit   string
	}
	var all []got
	for _, p := range set.Application {
		all = append(all, got{p.Head.Commit[0], p.Source, p.Value, p.Unit})
	}
	assert.Equal(t, []got{
		{'b', FromMeasurements, 102, "sec/op"},
		{'b', FromReferenceProfile, 10, "CPU seconds"},
		{'c', FromReferenceProfile, 30, "CPU seconds"},
	}, all)
	m := set.Application[0]
	assert.Equal(t, "BenchmarkApp", m.Name)
	assert.Equal(t, 100.0, m.Base)
	assert.InDelta(t, 101, m.CI.Low, 1e-9)
	assert.InDelta(t, 103, m.CI.High, 1e-9)
}

func TestApplicationOf(t *testing.T) {
	rep := report('a', 'b', 1, 0.01, map[string]float64{"BenchmarkApp": 0.1, "BenchmarkX": 0})
	rep.Results = append(rep.Results, compare.Result{ID: "example.com/m.BenchmarkGone", Package: "example.com/m", Name: "BenchmarkGone", Unit: "sec/op", Status: compare.Removed})
	bop := rep.Results[0]
	bop.Unit, bop.Estimate = "B/op", &benchstats.Estimate{Change: 0, BaseMedian: 64, HeadMedian: 64}
	rep.Results = append([]compare.Result{bop}, rep.Results...)
	for _, tc := range []struct {
		bench, unit, err string
		value            float64
	}{
		{bench: "BenchmarkApp", unit: "sec/op", value: 110},
		{bench: "example.com/m.BenchmarkApp", unit: "sec/op", value: 110},
		{bench: "BenchmarkGone", err: "the application benchmark BenchmarkGone has no compared result in this comparison (compared: BenchmarkApp, BenchmarkX)"},
		{bench: "BenchmarkNone", err: "has no compared result"},
	} {
		t.Run(tc.bench, func(t *testing.T) {
			a, err := ApplicationOf(rep, tc.bench)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.unit, a.Unit)
			assert.InDelta(t, tc.value, a.Value, 1e-9)
			assert.Equal(t, FromMeasurements, a.Source)
		})
	}
}

func TestApplicationCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    Application
		ok   bool
	}{
		{"measured", Application{Name: "app", Unit: "sec/op", Source: FromMeasurements, Value: 1, Base: 1, CI: benchstats.Interval{Low: 0.9, High: 1.1}}, true},
		{"profile", *ProfileApplication("app.pprof", 12.5, "seconds"), true},
		{"no name", Application{Unit: "sec/op", Source: FromMeasurements, Value: 1}, false},
		{"other source", Application{Name: "app", Unit: "sec/op", Source: "guess", Value: 1}, false},
		{"zero", Application{Name: "app", Unit: "sec/op", Source: FromMeasurements}, false},
		{"inverted interval", Application{Name: "app", Unit: "sec/op", Source: FromMeasurements, Value: 1, CI: benchstats.Interval{Low: 2, High: 1}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.ok, tc.a.Check() == nil, "%v", tc.a.Check())
		})
	}
	assert.Nil(t, ProfileApplication("app.pprof", 0, "seconds"), "a profile without samples has no total")
}
