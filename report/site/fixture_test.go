package site_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/report/site"
	"github.com/mbopt/mbopt/testkit/hostile"
)

// fixtureBench is one benchmark of the fixture history: its changes at
// the three commits, its base median in its unit, and its reference
// impact (negative: unknown).
type fixtureBench struct {
	pkg, name, unit string
	changes         [3]float64
	half            float64 // half the width of every interval
	base            float64
	impact          float64
	// estimate is what the last commit's comparison estimated of the
	// change's application impact (nil: none), with culprits.
	estimate *culprit.AppImpact
	culprits []culprit.Culprit
}

// fixtureBenches: the application-relevant query regresses by 9% at
// commit 3 (reference impact 40%), which compare estimated at +6.8% of the
// application; an irrelevant helper by 12% at commit 2 (impact 2%, no
// estimate); insert is 2.5% slower at commit 3, but so unstable that the
// jump and trend are potential, and compare called it likely no
// application impact though it covers 25% of the application; and
// BenchmarkQuery's allocations are a second unit.
var fixtureBenches = []fixtureBench{
	{"example.com/tsdb/query", "BenchmarkQuery", "sec/op", [3]float64{0.002, -0.001, 0.09}, 0.006, 2.5e-6, 0.40,
		&culprit.AppImpact{Estimate: 0.068, Low: 0.061, High: 0.074, Basis: culprit.BasisFunctions, RelevantShare: 0.95},
		[]culprit.Culprit{{Function: "example.com/tsdb/query.(*Plan).copyRows"}, {Function: "example.com/tsdb/query.scan"}}},
	{"example.com/tsdb/query", "BenchmarkQuery", "B/op", [3]float64{0, 0, 0.25}, 0.006, 4096, 0.40, nil, nil},
	{"example.com/tsdb/store", "BenchmarkInsert", "sec/op", [3]float64{0.001, 0.003, 0.025}, 0.012, 8.1e-7, 0.25,
		&culprit.AppImpact{Estimate: 0.0003, Low: -0.0004, High: 0.0011, Basis: culprit.BasisFunctions, RelevantShare: 0.03, NoImpact: true}, nil},
	{"example.com/tsdb/util", "BenchmarkFormat", "sec/op", [3]float64{-0.002, 0.12, 0.121}, 0.006, 3.2e-8, 0.02, nil, nil},
}

// fixtureCommits are the three compared heads.
var fixtureCommits = [3]compare.Revision{
	{Spec: "HEAD~2", Commit: "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678", Time: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC), Subject: "query: cache the parsed plan"},
	{Spec: "HEAD~1", Commit: "b2c3d4e5f60718293a4b5c6d7e8f901234567891", Time: time.Date(2026, 3, 2, 11, 30, 0, 0, time.UTC), Subject: "util: format with fmt"},
	{Spec: "HEAD", Commit: "c3d4e5f60718293a4b5c6d7e8f90123456789123", Time: time.Date(2026, 3, 3, 9, 15, 0, 0, time.UTC), Subject: "query: <b>copy</b> every row"},
}

var fixtureBase = compare.Revision{Spec: "v1.0.0", Commit: "0f1e2d3c4b5a69788796a5b4c3d2e1f001234567", Time: time.Date(2026, 2, 28, 8, 0, 0, 0, time.UTC), Subject: "release 1.0.0"}

// fixtureOld is the baseline the first commit was compared with, before
// mbopt history rebaseline moved it to fixtureBase.
var fixtureOld = compare.Revision{Spec: "v0.9.0", Commit: "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a291807", Time: time.Date(2026, 2, 1, 8, 0, 0, 0, time.UTC), Subject: "release 0.9.0"}

// fixtureApp is the application benchmark's median at each commit, in
// ms/query: slower at commit 3, as the relevant benchmark says.
var fixtureApp = [3]float64{1.20, 1.21, 1.31}

// fixtureData stores three comparisons in a history (the first against
// an older baseline, bridged to the others' by a rebaseline), each with
// the application benchmark's measurement, reads them back as mbopt
// history does and returns the site data.
// With withHostile, each name of the hostile-names fixture (hostile.Names:
// HTML, Markdown, mentions, workflow commands, paths) is a sub-benchmark
// of BenchmarkNames.
func fixtureData(t *testing.T, withHostile bool) *site.Data {
	t.Helper()
	benches := fixtureBenches
	if withHostile {
		benches = append([]fixtureBench(nil), benches...)
		for i, n := range hostile.Names {
			benches = append(benches, fixtureBench{"example.com/tsdb/evil", "BenchmarkNames/" + n, "sec/op", [3]float64{0.001 * float64(i), 0.08, 0.081}, 0.006, 1e-6, 0.05 * float64(i+1),
				&culprit.AppImpact{Estimate: 0.001 * float64(i), Low: 0, High: 0.002 * float64(i), Basis: culprit.BasisFunctions}, []culprit.Culprit{{Function: n}}})
		}
	}
	ctx := context.Background()
	st, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
	require.NoError(t, err)
	defer st.Close()
	machine := history.Machine{GOOS: "linux", GOARCH: "amd64", CPU: "Test CPU @ 2.0GHz", GoVersion: "go1.26.8"}
	report := func(base, head compare.Revision, changes func(fixtureBench) float64, last bool) *compare.Report {
		r := &compare.Report{Schema: compare.SchemaVersion, Module: "example.com/tsdb", Base: base, Head: head,
			Settings: compare.Settings{Trials: 3, Runs: 3, Count: 5, BenchTime: "100ms", Seed: 1, Threshold: 0.01, Confidence: 0.99, Resamples: 1000}}
		for _, b := range benches {
			ch := changes(b)
			e := &benchstats.Estimate{Change: ch, CI: benchstats.Interval{Low: ch - b.half, High: ch + b.half}, BaseMedian: b.base, HeadMedian: b.base * (1 + ch), BaseN: 45, HeadN: 45}
			r.Results = append(r.Results, compare.Result{ID: b.pkg + "." + b.name, Package: b.pkg, Name: b.name, Unit: b.unit,
				Status: compare.Compared, Estimate: e, Verdict: benchstats.Classify(*e, 0.01, false), Trials: 3,
				Impact: &callgraph.Impact{Flat: b.impact, Attributed: b.impact}})
			if last {
				res := &r.Results[len(r.Results)-1]
				res.AppImpact, res.Culprits = b.estimate, b.culprits
			}
		}
		return r
	}
	for c, head := range fixtureCommits {
		base := fixtureBase
		if c == 0 {
			base = fixtureOld
		}
		app := &history.Application{Name: "tsdbload queries", Unit: "ms/query", Source: history.FromMeasurements, Value: fixtureApp[c], Base: 1.2,
			CI: benchstats.Interval{Low: fixtureApp[c] - 0.02, High: fixtureApp[c] + 0.02}}
		_, err := st.Record(ctx, report(base, head, func(b fixtureBench) float64 { return b.changes[c] }, c == 2), history.RecordOptions{Machine: machine, Verdicts: history.AsCompared, Application: app})
		require.NoError(t, err)
		if c == 0 {
			// The rebaseline: the new baseline measures as the old one.
			_, err := st.Record(ctx, report(fixtureOld, fixtureBase, func(fixtureBench) float64 { return 0 }, false), history.RecordOptions{Machine: machine, Verdicts: history.AsCompared, Bridge: true})
			require.NoError(t, err)
		}
	}
	// BenchmarkInsert once more at the last commit, with --count 10: a
	// series of its own, which the pages tell apart by that setting.
	r := report(fixtureBase, fixtureCommits[2], func(b fixtureBench) float64 { return b.changes[2] }, true)
	r.Settings.Count = 10
	r.Results = slices.DeleteFunc(r.Results, func(x compare.Result) bool { return x.Name != "BenchmarkInsert" })
	_, err = st.Record(ctx, r, history.RecordOptions{Machine: machine, Verdicts: history.AsCompared})
	require.NoError(t, err)

	set, err := st.Series(ctx, history.Query{Baseline: fixtureBase.Commit})
	require.NoError(t, err)
	opt := detect.DefaultOptions
	opt.InitialThreshold = 0.02
	detected, err := set.Detect(opt, nil)
	require.NoError(t, err)
	d, err := site.FromHistory(set, detected)
	require.NoError(t, err)
	require.Equal(t, "example.com/tsdb", d.Title)
	require.Len(t, d.Bridges, 1)
	// The history keeps the values and impacts it was given.
	settings := map[string]bool{}
	for _, s := range d.Series {
		if s.Name == "BenchmarkInsert" {
			settings[s.Settings] = true
		}
		if s.Settings == "count 10" {
			continue
		}
		for _, b := range benches {
			if b.pkg+"."+b.name == s.ID && b.unit == s.Unit {
				require.NotNil(t, s.Impact, s.ID)
				require.InDelta(t, b.impact, s.Impact.Reference, 1e-12, s.ID)
				require.InDelta(t, b.base, s.Points[0].Base, 1e-12*b.base, s.ID)
				require.InDelta(t, 0.01, s.Points[0].VerdictThreshold, 1e-12, s.ID)
				require.Equal(t, fixtureOld.Commit, s.Points[0].Against, s.ID)
				require.Empty(t, s.Points[1].Against, s.ID)
			}
		}
	}
	require.Equal(t, map[string]bool{"count 5": true, "count 10": true}, settings, "the settings that separate the two series of BenchmarkInsert")
	require.NotNil(t, d.Application, "the stored application measurements")
	require.Len(t, d.Application.Points, 3)
	require.Equal(t, history.FromMeasurements, d.Application.Source)
	return d
}

// syntheticData returns a history of nSeries benchmarks over nCommits
// commits in packages of 20 benchmarks: a random walk of small changes
// with a step now and then, detected with the study's detectors.
func syntheticData(t testing.TB, nSeries, nCommits int) *site.Data {
	rng := rand.New(rand.NewPCG(42, 7))
	d := &site.Data{Title: "example.com/big", Metric: "time", Baseline: site.Commit{Hash: fmt.Sprintf("%040x", 1), Time: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), Subject: "baseline"}}
	for c := range nCommits {
		d.Commits = append(d.Commits, site.Commit{Hash: fmt.Sprintf("%040x", uint64(c+2)*0x9e3779b97f4a7c15), Time: d.Baseline.Time.Add(time.Duration(c+1) * 6 * time.Hour), Subject: fmt.Sprintf("commit %d: change something in package %d", c+1, c%25)})
	}
	for k := range nSeries {
		s := site.Series{ID: fmt.Sprintf("example.com/big/pkg%02d.BenchmarkOp%03d/size=%d", k/20, k, 1<<(k%8)), Package: fmt.Sprintf("example.com/big/pkg%02d", k/20), Unit: "sec/op", Machine: "linux/amd64, Test CPU, go1.26.8", ThresholdSource: "calibrated", InitialThreshold: 0.03}
		s.Name = s.ID[len(s.Package)+1:]
		s.Impact = &site.Impact{Reference: math.Round(rng.Float64()*rng.Float64()*1e4) / 1e4}
		level, base := 0.0, 1e-6*(1+rng.Float64()*100)
		for c := range nCommits {
			if rng.Float64() < 0.01 {
				level += 0.05 * rng.NormFloat64()
			}
			sd := 0.005 + 0.01*rng.Float64()
			v := level + sd*rng.NormFloat64()
			ci := benchstats.Interval{Low: v - 2.6*sd, High: v + 2.6*sd}
			s.Points = append(s.Points, site.Point{Commit: c, Point: detect.Point{Change: v, CI: ci}, Verdict: benchstats.Classify(benchstats.Estimate{Change: v, CI: ci}, 0.01, false), Base: base, Head: base * (1 + v)})
		}
		opt := detect.DefaultOptions
		opt.InitialThreshold = s.InitialThreshold
		res, err := detect.Detect(s.Points, opt) // a site.Point is read as it is
		require.NoError(t, err)
		for i := range s.Points {
			s.Points[i].Threshold = res.Thresholds[i]
		}
		s.Detections = res.Detections
		d.Series = append(d.Series, s)
	}
	return d
}
