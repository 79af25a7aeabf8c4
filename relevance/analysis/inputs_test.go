package analysis_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// stripNames makes p unsymbolized: its locations keep their addresses and
// lose their lines.
func stripNames(p *profile.Profile) *profile.Profile {
	for _, l := range p.Location {
		l.Line = nil
	}
	p.Function = nil
	return p
}

// figureDir writes the Figure 6.2 application and benchmarks into a
// temporary directory: app.pprof and micro/{one,two}.pprof.
func figureDir(t *testing.T) (dir, app, micro string) {
	t.Helper()
	a, b1, b2 := proftest.Figure62()
	dir = t.TempDir()
	app = filepath.Join(dir, "app.pprof")
	proftest.WriteFile(t, app, a)
	micro = filepath.Join(dir, "micro")
	require.NoError(t, os.Mkdir(micro, 0o755))
	proftest.WriteFile(t, filepath.Join(micro, "one.pprof"), b1)
	proftest.WriteFile(t, filepath.Join(micro, "two.pprof"), b2)
	return dir, app, micro
}

// An application profile that parses but cannot be analysed is an input
// error naming the file and the problem, never a --module hint; the same
// profile as a benchmark is skipped.
func TestRunUnusableProfiles(t *testing.T) {
	tests := []struct {
		name string
		make func() *profile.Profile
		want error
		msg  string
	}{
		{"unsymbolized", func() *profile.Profile { a, _, _ := proftest.Figure62(); return stripNames(a) },
			callgraph.ErrUnsymbolized, "profile is not symbolized"},
		{"negative", func() *profile.Profile {
			a, _, _ := proftest.Figure62()
			a.Sample[0].Value[1] = -1
			return a
		}, callgraph.ErrNegative, "negative sample value"},
		{"zero", func() *profile.Profile {
			a, _, _ := proftest.Figure62()
			for _, s := range a.Sample {
				s.Value = []int64{0, 0}
			}
			return a
		}, callgraph.ErrZero, "all sample values are zero"},
		{"no stacks", func() *profile.Profile {
			a, _, _ := proftest.Figure62()
			for _, s := range a.Sample {
				s.Location = nil
			}
			return a
		}, callgraph.ErrNoLocations, "no sample has a stack"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, app, micro := figureDir(t)
			bad := filepath.Join(dir, "bad.pprof")
			proftest.WriteFile(t, bad, tt.make())

			_, err := analysis.Run(context.Background(), analysis.Config{App: []string{bad}, Micro: []string{micro}, Modules: []string{proftest.Figure62Module}})
			assert.ErrorIs(t, err, mbopt.ErrInput)
			assert.ErrorIs(t, err, tt.want)
			assert.ErrorContains(t, err, "application profile "+bad+": "+tt.msg)
			assert.NotContains(t, err.Error(), "module")

			require.NoError(t, os.Rename(bad, filepath.Join(micro, "bad.pprof")))
			rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{app}, Micro: []string{micro}, Modules: []string{proftest.Figure62Module}})
			require.NoError(t, err)
			require.Len(t, rep.Skipped, 1)
			assert.Equal(t, filepath.Join(micro, "bad.pprof"), rep.Skipped[0].File)
			assert.True(t, strings.HasPrefix(rep.Skipped[0].Reason, tt.msg), "reason %q", rep.Skipped[0].Reason)
			assert.Len(t, rep.Coverage.Sets, 2)
		})
	}
}

// Config.Limits reaches every profile read: over the limit, the
// application is an input error and a benchmark a skip.
func TestRunLimits(t *testing.T) {
	_, app, micro := figureDir(t)
	st, err := os.Stat(filepath.Join(micro, "two.pprof"))
	require.NoError(t, err)
	appSt, err := os.Stat(app)
	require.NoError(t, err)
	limit := max(st.Size(), appSt.Size())

	big := filepath.Join(micro, "big.pprof")
	require.NoError(t, os.WriteFile(big, make([]byte, limit+1), 0o644))
	rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{app}, Micro: []string{micro}, Modules: []string{proftest.Figure62Module},
		Limits: callgraph.Limits{MaxFileBytes: limit}})
	require.NoError(t, err)
	require.Len(t, rep.Skipped, 1)
	assert.Equal(t, big, rep.Skipped[0].File)
	assert.Contains(t, rep.Skipped[0].Reason, "(Limits.MaxFileBytes)")

	_, err = analysis.Run(context.Background(), analysis.Config{App: []string{big}, Micro: []string{micro}, Modules: []string{proftest.Figure62Module},
		Limits: callgraph.Limits{MaxFileBytes: limit}})
	assert.ErrorIs(t, err, mbopt.ErrInput)
	var le *callgraph.LimitError
	require.True(t, errors.As(err, &le), "%v", err)
	assert.Equal(t, "MaxFileBytes", le.Limit)
}

// An application profile with a few unnamed frames is analysed with a
// warning that counts them and their time.
func TestRunWarnsAboutUnnamedFrames(t *testing.T) {
	_, app, micro := figureDir(t)
	a, _, _ := proftest.Figure62()
	a.Location[0].Line = nil // the leaf of the first stack becomes an address
	proftest.WriteFile(t, app, a)
	rep, err := analysis.Run(context.Background(), analysis.Config{App: []string{app}, Micro: []string{micro}, Modules: []string{proftest.Figure62Module}})
	require.NoError(t, err)
	var w *analysis.UnnamedFramesWarning
	for _, e := range rep.Warnings {
		if errors.As(e, &w) {
			break
		}
	}
	require.NotNil(t, w, "no UnnamedFramesWarning among %v", rep.Warnings)
	assert.Equal(t, 1, w.Frames)
	assert.Equal(t, "application profile: 1 frame without a function name left out of the call graph; 0.03 seconds (33.3%) of its time is in no function", w.Error())
}
