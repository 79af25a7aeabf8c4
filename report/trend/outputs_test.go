package trend_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/report/trend"
)

// outputsSet is a history of one benchmark over three commits, with what
// the default detectors found in it.
func outputsSet(t *testing.T) (*history.Set, []history.Detected) {
	t.Helper()
	s := history.Series{ID: "example.com/m.BenchmarkQuery", Unit: "sec/op", SettingsHash: "3f2a",
		Machine: history.Machine{GOOS: "linux", GOARCH: "amd64", GoVersion: "go1.26.8"}}
	for i, c := range []float64{0.001, 0.06, 0.061} {
		e := benchstats.Estimate{Change: c, CI: benchstats.Interval{Low: c - 0.005, High: c + 0.005}}
		s.Points = append(s.Points, history.Point{Head: compare.Revision{Commit: strings.Repeat(string(rune('a'+i)), 40), Time: time.Unix(int64(i)*3600, 0)},
			Point: detect.Point{Change: c, CI: e.CI}, Verdict: benchstats.Classify(e, 0.01, false), Threshold: 0.01})
	}
	set := &history.Set{Baseline: compare.Revision{Commit: strings.Repeat("0", 40)}, Series: []history.Series{s}}
	detected, err := set.Detect(detect.DefaultOptions, nil)
	require.NoError(t, err)
	return set, detected
}

// TestOutputsTrends: the document comes in the format asked for, the
// figures and the site go into their directories and are logged, and a
// directory that cannot be written is bad input naming the setting and
// the directory, without the temporary file's name.
func TestOutputsTrends(t *testing.T) {
	set, detected := outputsSet(t)
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	tests := []struct {
		name    string
		out     trend.Outputs
		prefix  string // of the document
		files   []string
		logged  int
		wantErr string
	}{
		{name: "text", out: trend.Outputs{Format: "text"}, prefix: "mbopt: benchmark history against baseline 0000000000"},
		{name: "json", out: trend.Outputs{Format: "json"}, prefix: "{\n  \"schema\": 1,"},
		{name: "markdown", out: trend.Outputs{Format: "markdown"}, prefix: "## "},
		{name: "plots and site", out: trend.Outputs{Format: "text", Plot: "DIR", HTML: "DIR"}, prefix: "mbopt: benchmark history",
			files: []string{"example.com_m.BenchmarkQuery-sec_op.svg", "index.html"}, logged: 2},
		{name: "plots below a file", out: trend.Outputs{Format: "text", Plot: filepath.Join(file, "plots")},
			wantErr: "Config.Plot " + filepath.Join(file, "plots") + ": cannot write the figures there: not a directory; give a directory you can write"},
		{name: "site below a file", out: trend.Outputs{Format: "text", HTML: filepath.Join(file, "site")},
			wantErr: "Config.HTML " + filepath.Join(file, "site") + ": cannot write the site there: not a directory"},
		{name: "unknown format", out: trend.Outputs{Format: "csv"}, wantErr: `trend: unknown format "csv"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.out.Plot == "DIR" {
				tt.out.Plot, tt.out.HTML = dir, dir
			}
			var logged []string
			tt.out.Logf = func(format string, args ...any) { logged = append(logged, format) }
			doc, err := tt.out.Trends(set, detect.DefaultOptions, detected)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.NotContains(t, err.Error(), ".tmp-")
				if strings.HasPrefix(tt.wantErr, "Config.") {
					assert.True(t, errors.Is(err, mbopt.ErrInput), "an input error")
				}
				return
			}
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(string(doc), tt.prefix), "%s document starts %q", tt.out.Format, doc[:min(len(doc), 60)])
			for _, f := range tt.files {
				assert.FileExists(t, filepath.Join(dir, f))
			}
			assert.Len(t, logged, tt.logged)
		})
	}
}

// TestOutputsCalibration: the calibration's document in text or JSON, its
// figure in Plot, the A/A results left out listed in both; Markdown is not
// one of its formats.
func TestOutputsCalibration(t *testing.T) {
	insts := []history.Instability{{ID: "example.com/m.BenchmarkQuery", Unit: "sec/op", Widths: []float64{0.01, 0.02, 0.015},
		Skipped: []string{"comparison 4: interval [0.2, -0.2] is inverted"}}}
	cal, err := history.Calibrate(insts, history.DefaultCalibrateOptions)
	require.NoError(t, err)
	dir := t.TempDir()
	doc, err := trend.Outputs{Format: "text", Plot: dir}.Calibration(insts, cal)
	require.NoError(t, err)
	assert.Contains(t, string(doc), "mbopt: A/A instabilities of 1 benchmark")
	assert.Contains(t, string(doc), "\nleft out: example.com/m.BenchmarkQuery sec/op, comparison 4: interval [0.2, -0.2] is inverted\n")
	assert.FileExists(t, filepath.Join(dir, "instability.svg"))
	doc, err = trend.Outputs{Format: "json"}.Calibration(insts, cal)
	require.NoError(t, err)
	assert.Contains(t, string(doc), `"instabilities"`)
	assert.Contains(t, string(doc), `"skipped": [`)
	_, err = trend.Outputs{Format: "markdown"}.Calibration(insts, cal)
	assert.EqualError(t, err, `trend: unknown calibration format "markdown"`)
}

// TestOutputsCheck: the combinations of settings Outputs refuses, each
// naming the settings at fault.
func TestOutputsCheck(t *testing.T) {
	url := func(s string) *string { return &s }
	tests := []struct {
		name string
		out  trend.Outputs
		want string // "" means no error
	}{
		{"text", trend.Outputs{Format: "text"}, ""},
		{"unknown format", trend.Outputs{Format: "csv"}, `invalid value "csv": valid values are {text|json|markdown}`}, // about Field Format
		{"instability as markdown", trend.Outputs{Format: "markdown", Instability: true}, "Config.Format markdown: Config.Instability writes text or json"},
		{"instability as json", trend.Outputs{Format: "json", Instability: true, Plot: "plots"}, ""},
		{"site of the instabilities", trend.Outputs{Format: "text", HTML: "site", Instability: true}, "Config.HTML: Config.Instability writes text, json or plots"},
		{"commit URL without a site", trend.Outputs{Format: "text", CommitURL: url("")}, "Config.CommitURL: it links the commits of Config.HTML; give Config.HTML DIR"},
		{"bad commit URL", trend.Outputs{Format: "text", HTML: "site", CommitURL: url("https://example.com/")}, `Config.CommitURL: commit URL "https://example.com/" has no {commit}`},
		{"no links", trend.Outputs{Format: "text", HTML: "site", CommitURL: url("")}, ""},
	}
	for _, tt := range tests {
		err := tt.out.Check()
		if tt.want == "" {
			assert.NoError(t, err, tt.name)
			continue
		}
		if assert.Error(t, err, tt.name) {
			assert.Contains(t, err.Error(), tt.want, tt.name)
			assert.True(t, errors.Is(err, mbopt.ErrInput), "%s: an input error", tt.name)
		}
	}
}
