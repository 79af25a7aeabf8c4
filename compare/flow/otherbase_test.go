package flow

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/history"
)

// TestHistoryOtherBaselines: comparisons stored against another baseline
// than the one shown are counted and named, with how to see them (issue
// 31 item 11: history left out 3 of 8 comparisons without a word until
// --baseline was given). Five comparisons against base a, two against b
// and one against c; a's are shown.
func TestHistoryOtherBaselines(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	st, err := history.Open(ctx, path)
	require.NoError(t, err)
	rev := func(c byte, hour int) compare.Revision {
		return compare.Revision{Commit: strings.Repeat(string(c), 40), Time: time.Unix(int64(3600*hour), 0)}
	}
	add := func(base compare.Revision, head byte, hour int) {
		e := &benchstats.Estimate{Change: 0.01, CI: benchstats.Interval{Low: 0.005, High: 0.015}}
		_, err := st.Add(ctx, &compare.Report{Base: base, Head: rev(head, hour),
			Settings: compare.Settings{Trials: 3, Runs: 3, Count: 5, Threshold: 0.01},
			Results: []compare.Result{{ID: "example.com/m.BenchmarkQuery", Package: "example.com/m", Name: "BenchmarkQuery", Unit: "sec/op",
				Status: compare.Compared, Estimate: e, Instability: 0.01, Verdict: benchstats.Classify(*e, 0.01, false)}},
		}, history.Machine{GOOS: "linux", GOARCH: "amd64", GoVersion: "go1.26.8"})
		require.NoError(t, err)
	}
	for i, h := range []byte("12345") {
		add(rev('a', 0), h, i+1)
	}
	add(rev('b', 0), '6', 6)
	add(rev('b', 0), '7', 7)
	add(rev('c', 0), '8', 8)
	require.NoError(t, st.Close())

	var warnings []string
	_, err = History(ctx, HistoryConfig{History: path, Detect: detect.DefaultOptions,
		Warn: func(err error) { warnings = append(warnings, err.Error()) }})
	require.NoError(t, err)
	want := fmt.Sprintf("3 of 8 comparisons are against other baselines and left out: 2 against %.10s, 1 against %.10s; Config.Baseline REV shows the series against one of them",
		strings.Repeat("b", 40), strings.Repeat("c", 40))
	assert.Contains(t, warnings, want)

	// Against b, a's five and c's one are left out.
	warnings = nil
	_, err = History(ctx, HistoryConfig{History: path, Baseline: "bbbb", Detect: detect.DefaultOptions,
		Warn: func(err error) { warnings = append(warnings, err.Error()) }})
	require.NoError(t, err)
	assert.Contains(t, strings.Join(warnings, "\n"), "6 of 8 comparisons are against other baselines and left out: 5 against aaaaaaaaaa, 1 against cccccccccc")
}
