package flow

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/shard"
	"github.com/mbopt/mbopt/testkit/cmpfixture"
)

// TestCompareStoreFailsAtEnd: when storing the report fails after the
// run, the failure is a warning and the returned error, which says the
// report was printed (issue 25 item 3).
func TestCompareStoreFailsAtEnd(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	st, err := openCompareHistory(ctx, path)
	require.NoError(t, err)
	require.NoError(t, st.Close()) // storing will fail
	rep := &compare.Report{Module: cmpfixture.Module, Settings: compare.Settings{Threshold: 0.01},
		Base: compare.Revision{Commit: strings.Repeat("a", 40)}, Head: compare.Revision{Commit: strings.Repeat("b", 40)}}
	var warnings []string
	flag := func(f mbopt.Field) string {
		return map[mbopt.Field]string{"History": "--history", "Settings.Threshold": "--threshold"}[f]
	}
	o := historyRecord{logf: logf(nil), warn: func(err error) {
		var ie *mbopt.Error
		require.True(t, errors.As(err, &ie))
		warnings = append(warnings, ie.Text(flag))
	}}
	err = applyHistory(ctx, o, st, path, rep, history.ThisMachine(""))
	require.Error(t, err)
	assert.False(t, errors.Is(err, mbopt.ErrInput), "storing failed: not an input error")
	assert.True(t, strings.HasPrefix(err.Error(), path+": the report was printed but not stored in the history: "), err.Error())
	require.Len(t, warnings, 2)
	assert.Contains(t, warnings[0], "--history "+path+": reading the A/A calibration: ")
	assert.Contains(t, warnings[0], "; the verdicts use --threshold 1.0%")
	assert.Contains(t, warnings[1], "--history "+path+": the comparison was not stored: ")
}

// TestCompareCheck: what Compare refuses before opening or running
// anything, each naming the settings at fault.
func TestCompareCheck(t *testing.T) {
	two := shard.Spec{Index: 0, Count: 2}
	tests := []struct {
		name string
		cfg  CompareConfig
		want string
	}{
		{"aa without history", CompareConfig{Options: compare.Options{AA: true}, NoHistory: true}, "Config.AA stores the instabilities in the history: leave Config.NoHistory unset"},
		{"two sources", CompareConfig{Options: compare.Options{Bench: "."}, SuiteFile: "suite.json"}, "Config.SuiteFile, the analysis flags (Config.Analysis.App, Config.Analysis.Micro) and Config.Bench each choose the benchmarks; give one of them (the analysis flags with Config.Bench weigh the pattern's benchmarks by the application)"},
		{"changed since with bench", CompareConfig{Options: compare.Options{Bench: "."}, Analysis: &analysis.Config{}, ChangedSince: "HEAD~1"}, "Config.ChangedSince marks the benchmarks of the analysis's suite; with Config.Bench the pattern chooses them: leave one out"},
		{"only affected", CompareConfig{Options: compare.Options{OnlyAffected: true}, Analysis: &analysis.Config{}}, "Config.OnlyAffected needs Config.ChangedSince REV (or Config.ChangedSince merge-base) to know what changed"},
		{"changed since without analysis", CompareConfig{ChangedSince: "HEAD~1"}, "Config.ChangedSince needs the analysis flags (Config.Analysis.App, Config.Analysis.Micro): they say which functions each benchmark covers"},
		{"packages without bench", CompareConfig{Options: compare.Options{Packages: []string{"./a", "./b"}}}, "package patterns ./a ./b need Config.Bench PATTERN (or use Config.SuiteFile)"},
		{"shard with history", CompareConfig{Options: compare.Options{Shard: two}, History: "h.db"}, "Config.History: a shard's results are only part of the comparison; compare merge judges them together and stores them in its Config.History"},
	}
	for _, tt := range tests {
		_, err := Compare(context.Background(), tt.cfg)
		if assert.Error(t, err, tt.name) {
			assert.Equal(t, tt.want, err.Error(), tt.name)
			assert.True(t, errors.Is(err, mbopt.ErrInput), "%s: an input error", tt.name)
		}
	}
}

// TestCompareSuiteFile: a suite file that is not there, or is empty, is
// bad input that says how to write one; -o naming it is refused.
func TestCompareSuiteFile(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.json")
	require.NoError(t, os.WriteFile(empty, []byte(`{"invocations": []}`+"\n"), 0o644))
	missing := filepath.Join(dir, "missing.json")
	tests := []struct {
		name string
		cfg  CompareConfig
		want string
	}{
		{"missing", CompareConfig{SuiteFile: missing, NoHistory: true}, "Config.SuiteFile " + missing + ": "},
		{"empty", CompareConfig{SuiteFile: empty, NoHistory: true}, "Config.SuiteFile " + empty + ": the suite is empty, so there is nothing to compare; write it with mbopt suite --format json -o FILE"},
		{"output is the suite", CompareConfig{SuiteFile: empty, NoHistory: true, Output: empty}, "Config.Output " + empty + " is the input " + empty},
	}
	for _, tt := range tests {
		_, err := Compare(context.Background(), tt.cfg)
		if assert.Error(t, err, tt.name) {
			assert.Contains(t, err.Error(), tt.want, tt.name)
			assert.True(t, errors.Is(err, mbopt.ErrInput), "%s: an input error", tt.name)
		}
	}
}
