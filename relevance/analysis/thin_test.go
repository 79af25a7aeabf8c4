package analysis_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/recommend"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// Thin profiles are warned about with their sample count and the fix.
func TestRunWarnsAboutThinProfiles(t *testing.T) {
	tests := []struct {
		name       string
		appSamples int64 // per function, four functions
		micro      map[string]int64
		want       []string
	}{
		{"enough samples", 125, map[string]int64{"A": 50, "B": 50}, nil},
		{"thin benchmark", 125, map[string]int64{"A": 50, "B": 30},
			[]string{"1 benchmark profile has under 100 CPU samples (1 s of CPU at 100 Hz), fewest first: B: 60 (MICRO/B.pprof); functions taking a few percent of a benchmark's time may be missing from its coverage: profile longer (mbopt profile --benchtime 2s gives the thinnest about 100 samples) or record exact coverage (mbopt profile --source cover)"}},
		{"thin benchmarks", 125, map[string]int64{"A": 40, "B": 30},
			[]string{"2 benchmark profiles have under 100 CPU samples (1 s of CPU at 100 Hz), fewest first: B: 60 (MICRO/B.pprof); A: 80 (MICRO/A.pprof); functions taking a few percent of a benchmark's time may be missing from its coverage: profile longer (mbopt profile --benchtime 2s gives the thinnest about 100 samples) or record exact coverage (mbopt profile --source cover)"}},
		{"thin application", 100, map[string]int64{"A": 50, "B": 50},
			[]string{"application profile APP has only 400 CPU samples, under the 500 (5 s of CPU at 100 Hz) it needs: functions taking under 1% of its time may be missing, so coverage can change from run to run; profile the workload longer or merge the profiles of several runs"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			app := filepath.Join(dir, "app.pprof")
			proftest.WriteFile(t, app, costProfile(10, tt.appSamples, "a", "b", "c", "d"))
			micro := filepath.Join(dir, "micro")
			require.NoError(t, os.Mkdir(micro, 0o755))
			proftest.WriteFile(t, filepath.Join(micro, "A.pprof"), costProfile(1, tt.micro["A"], "a", "b"))
			proftest.WriteFile(t, filepath.Join(micro, "B.pprof"), costProfile(1, tt.micro["B"], "c", "d"))
			rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{app}, Micro: []string{micro}, Modules: []string{costModule}})
			require.NoError(t, err)
			var want, got []string
			for _, w := range tt.want {
				want = append(want, strings.NewReplacer("MICRO", micro, "APP", app).Replace(w))
			}
			for _, w := range rep.Warnings {
				var thinApp *analysis.ThinProfileWarning
				var thinBenchmarks *analysis.ThinBenchmarksWarning
				require.True(t, errors.As(w, &thinApp) || errors.As(w, &thinBenchmarks), "an unexpected warning: %v", w)
				assert.False(t, analysis.IsNote(w))
				got = append(got, w.Error())
			}
			assert.Equal(t, want, got)
		})
	}
}

// recNames returns the recommended functions.
func recNames(rep *analysis.Report) []string {
	var out []string
	for _, r := range rep.Recommendations.Recommendations {
		out = append(out, r.Function)
	}
	return out
}

// The fsync fixture: BenchmarkPut's 22 samples miss the checksum every
// commit computes. The sampled analysis flags it and, with callable
// targets, does not recommend the checksum, which exact coverage shows it
// runs; the paper's targets recommend it, marked.
func TestThinFsyncBenchmark(t *testing.T) {
	app, profiles, cover := proftest.WriteThin(t, t.TempDir())
	tests := []struct {
		name     string
		micro    string
		targets  recommend.Targets
		thin     []string
		hidden   []string
		recs     []string
		unseen   [][]string
		withheld []string
	}{
		{"sampled, callable", profiles, recommend.Callable, []string{"BenchmarkPut"}, []string{proftest.ThinChecksum},
			[]string{proftest.ThinStats}, [][]string{nil}, []string{proftest.ThinChecksum}},
		{"sampled, the paper's targets", profiles, recommend.AnyFunction, []string{"BenchmarkPut"}, []string{proftest.ThinChecksum},
			[]string{proftest.ThinStats, proftest.ThinChecksum}, [][]string{nil, {"BenchmarkPut"}}, nil},
		{"exact coverage", cover, recommend.Callable, nil, nil, []string{proftest.ThinStats}, [][]string{nil}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{app}, Micro: []string{tt.micro},
				Modules: []string{proftest.ThinModule}, Targets: tt.targets, Recommend: -1})
			require.NoError(t, err)
			var thin, hidden []string
			for _, b := range rep.Thin {
				thin = append(thin, b.ID)
				for _, v := range b.Hidden {
					hidden = append(hidden, rep.Coverage.App.Nodes[v].Name)
				}
			}
			assert.Equal(t, tt.thin, thin)
			assert.Equal(t, tt.hidden, hidden)
			assert.Equal(t, tt.recs, recNames(rep))
			var unseen [][]string
			for _, r := range rep.Recommendations.Recommendations {
				unseen = append(unseen, r.Unseen)
			}
			assert.Equal(t, tt.unseen, unseen)
			var withheld []string
			for _, v := range rep.Recommendations.Withheld {
				withheld = append(withheld, rep.Coverage.App.Nodes[v].Name)
			}
			assert.Equal(t, tt.withheld, withheld)
			if tt.micro == cover {
				id, ok := rep.Coverage.App.Lookup(proftest.ThinChecksum)
				require.True(t, ok)
				assert.True(t, rep.Coverage.Covered.Has(id), "exact coverage shows the checksum runs")
			}
		})
	}

	rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{app}, Micro: []string{profiles}, Modules: []string{proftest.ThinModule}})
	require.NoError(t, err)
	require.Len(t, rep.Thin, 1)
	put := rep.Thin[0]
	assert.Equal(t, int64(22), put.Samples)
	assert.InDelta(t, 1.2, put.Seconds, 1e-9, "1.2 s of wall time for 0.22 s of CPU: mostly waiting")
	assert.Equal(t, "", put.BenchTime, "bare profiles: no manifest")
	assert.Equal(t, "5s", put.Longer, "go test's default 1s × ⌈100/22⌉")
	var w *analysis.ThinBenchmarksWarning
	for _, e := range rep.Warnings {
		if errors.As(e, &w) {
			break
		}
	}
	require.NotNil(t, w)
	assert.Equal(t, 1, w.Hidden)
	assert.Contains(t, w.Error(), "so 1 project function no benchmark is seen to run may have run unseen: profile longer (mbopt profile --benchtime 5s gives the thinnest about 100 samples) or record exact coverage (mbopt profile --source cover)")
}
