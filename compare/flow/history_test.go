package flow

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/relevance/measure"
)

// TestHistoryCheck: the settings History refuses, each naming the
// settings at fault.
func TestHistoryCheck(t *testing.T) {
	d := detect.DefaultOptions
	bad := d
	bad.Window = 0
	tests := []struct {
		name string
		cfg  HistoryConfig
		want string // "" means no error
	}{
		{"defaults", HistoryConfig{Detect: d}, ""},
		{"detector options", HistoryConfig{Detect: bad}, "Window"},
		{"output onto the database", HistoryConfig{Detect: d, History: "h.db", Output: "h.db-wal"}, "Config.Output h.db-wal is the input h.db-wal: writing the result there would overwrite it; choose another file"},
		{"a metric's unit", HistoryConfig{Detect: d, Metric: measure.CPU, Unit: "cpu-sec/op"}, ""},
		{"unknown metric", HistoryConfig{Detect: d, Metric: "wall"}, `unknown metric "wall": valid values are {time|cpu|instructions}`},
		{"metric and another unit", HistoryConfig{Detect: d, Metric: measure.Instructions, Unit: "sec/op"}, "Config.Metric instructions shows the unit instructions/op, but Config.Unit is sec/op: give one of them"},
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

// TestHistoryInputs: a missing or empty history, an A/A calibration
// without A/A comparisons, and a rebaseline without its new baseline, are
// bad input that says what to do.
func TestHistoryInputs(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.db")
	ctx := context.Background()
	empty := filepath.Join(t.TempDir(), "empty.db")
	st, err := history.Open(ctx, empty)
	require.NoError(t, err)
	require.NoError(t, st.Close())
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
		{"history without comparisons", func() error {
			_, err := History(ctx, HistoryConfig{History: empty, Detect: detect.DefaultOptions})
			return err
		}, "Config.History " + empty + ": "},
		{"instability", func() error { _, err := Instability(ctx, HistoryConfig{History: missing}); return err },
			"Config.History " + missing + ": no history database"},
		{"instability without A/A comparisons", func() error { _, err := Instability(ctx, HistoryConfig{History: empty}); return err },
			"Config.History " + empty + ": no A/A comparison stored (for these benchmarks and units); run mbopt compare --aa"},
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
