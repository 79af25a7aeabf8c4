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

	"github.com/mbopt/mbopt/analysis"
	"github.com/mbopt/mbopt/internal/testing/proftest"
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
			[]string{"1 benchmark profile has under 100 CPU samples (1 s of CPU at 100 Hz), fewest first: B: 60 (MICRO/B.pprof); functions taking a few percent of a benchmark's time may be missing from its coverage: profile longer (raise the benchtime, e.g. mbopt profile --benchtime 10s)"}},
		{"thin benchmarks", 125, map[string]int64{"A": 40, "B": 30},
			[]string{"2 benchmark profiles have under 100 CPU samples (1 s of CPU at 100 Hz), fewest first: B: 60 (MICRO/B.pprof); A: 80 (MICRO/A.pprof); functions taking a few percent of a benchmark's time may be missing from its coverage: profile longer (raise the benchtime, e.g. mbopt profile --benchtime 10s)"}},
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
