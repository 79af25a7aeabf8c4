package flow_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/flow"
	"github.com/mbopt/mbopt/compare/mutate"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/measure"
)

// TestScoreRefusesFirst: Score checks what to score before the analysis,
// and an analysis that fails builds no mutant and reports nothing.
func TestScoreRefusesFirst(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "app.pprof")
	opts := analysis.Options{App: []string{missing}, Micro: []string{missing}, Nodes: "project", Impact: "attributed", Targets: "callable", Edges: "sampled"}
	tests := []struct {
		name  string
		score mutate.ScoreOptions
		want  string
	}{
		{"no predictions", mutate.ScoreOptions{}, "Config.Predictions 0: give the number of functions to check"},
		{"a function as well", mutate.ScoreOptions{Predictions: 2, Mutants: mutate.Options{Func: "m.F"}}, "leave out Config.Func and Config.Slowdown"},
		{"too few measurements", mutate.ScoreOptions{Predictions: 2, Mutants: mutate.Options{Compare: compare.Options{Settings: compare.Settings{Metric: measure.Instructions, Trials: 2, Runs: 3}}}},
			"plan 6 measurements per version, under the 8 a verdict needs"},
		{"the analysis fails", mutate.ScoreOptions{Predictions: 2}, missing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			analyzed, logged := false, false
			rep, sc, err := flow.Score(context.Background(), flow.ScoreConfig{Options: opts, Score: tt.score,
				Analyzed: func(*analysis.Report) { analyzed = true }, Logf: func(string, ...any) { logged = true }})
			require.ErrorIs(t, err, mbopt.ErrInput)
			assert.ErrorContains(t, err, tt.want)
			assert.Nil(t, rep)
			assert.Nil(t, sc)
			assert.False(t, analyzed || logged, "nothing analysed, nothing scored")
		})
	}
}
