package pipeline

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/measure"
)

// TestHistoryCheck: the combinations of settings History refuses, each
// naming the settings at fault.
func TestHistoryCheck(t *testing.T) {
	d := detect.DefaultOptions
	bad := d
	bad.Window = 0
	tests := []struct {
		name string
		cfg  HistoryConfig
		want string // "" means no error
	}{
		{"defaults", HistoryConfig{Detect: d, Format: "text"}, ""},
		{"instability as markdown", HistoryConfig{Detect: d, Format: "markdown", Instability: true}, "Config.Format markdown: Config.Instability writes text or json"},
		{"detector options", HistoryConfig{Detect: bad, Format: "text"}, "Window"},
		{"site of the instabilities", HistoryConfig{Detect: d, Format: "text", HTML: "site", Instability: true}, "Config.HTML: Config.Instability writes text, json or plots"},
		{"commit URL without a site", HistoryConfig{Detect: d, Format: "text", CommitURLGiven: true}, "Config.CommitURL: it links the commits of Config.HTML; give Config.HTML DIR"},
		{"bad commit URL", HistoryConfig{Detect: d, Format: "text", HTML: "site", CommitURL: "https://example.com/"}, "Config.CommitURL: commit URL \"https://example.com/\" has no {commit}"},
		{"no links", HistoryConfig{Detect: d, Format: "text", HTML: "site", CommitURLGiven: true}, ""},
		{"output onto the database", HistoryConfig{Detect: d, Format: "text", History: "h.db", Output: "h.db-wal"}, "Config.Output h.db-wal is the input h.db-wal: writing the result there would overwrite it; choose another file"},
		{"a metric's unit", HistoryConfig{Detect: d, Format: "text", Metric: measure.CPU, Unit: "cpu-sec/op"}, ""},
		{"unknown metric", HistoryConfig{Detect: d, Format: "text", Metric: "wall"}, `unknown metric "wall": valid values are time, cpu, instructions`},
		{"metric and another unit", HistoryConfig{Detect: d, Format: "text", Metric: measure.Instructions, Unit: "sec/op"}, "Config.Metric instructions shows the unit instructions/op, but Config.Unit is sec/op: give one of them"},
	}
	for _, tt := range tests {
		err := tt.cfg.Check()
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

// TestHistoryInputs: a missing history, and a rebaseline without its new
// baseline, are bad input that says what to do.
func TestHistoryInputs(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.db")
	ctx := context.Background()
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"history", func() error {
			_, err := History(ctx, HistoryConfig{History: missing, Detect: detect.DefaultOptions})
			return err
		},
			"Config.History " + missing + ": no history database; mbopt compare writes one (unless Config.NoHistory)"},
		{"rebaseline without --to", func() error { _, err := Rebaseline(ctx, RebaselineConfig{}); return err }, "Config.To REV names the new baseline"},
		{"rebaseline without a history", func() error {
			_, err := Rebaseline(ctx, RebaselineConfig{CompareConfig: CompareConfig{History: missing}, To: "HEAD"})
			return err
		}, "Config.History " + missing + ": no history database"},
	}
	for _, tt := range tests {
		err := tt.run()
		if assert.Error(t, err, tt.name) {
			assert.Contains(t, err.Error(), tt.want, tt.name)
			assert.True(t, errors.Is(err, mbopt.ErrInput), "%s: an input error", tt.name)
		}
	}
	assert.NoFileExists(t, missing, "reading never creates a history")
}

// TestCheckSettings: what Check refuses before it reads anything, each
// naming the settings at fault.
func TestCheckSettings(t *testing.T) {
	tests := []struct {
		name string
		cfg  CheckConfig
		want string
	}{
		{"no suite", CheckConfig{}, "Config.SuiteFile is required"},
		{"coverage out of range", CheckConfig{SuiteFile: "s.json", MinCoverage: 101}, "Config.MinCoverage must be a percentage in [0, 100], not 101"},
		{"app without micro", CheckConfig{SuiteFile: "s.json", App: []string{"a.pprof"}}, "Config.App and Config.Micro go together"},
		{"coverage without profiles", CheckConfig{SuiteFile: "s.json", MinCoverage: 90}, "Config.MinCoverage needs Config.App and Config.Micro"},
	}
	for _, tt := range tests {
		_, _, err := Check(context.Background(), tt.cfg)
		if assert.Error(t, err, tt.name) {
			assert.Contains(t, err.Error(), tt.want, tt.name)
			assert.True(t, errors.Is(err, mbopt.ErrInput), "%s: an input error", tt.name)
		}
	}
}
