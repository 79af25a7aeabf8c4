package flow

import (
	"context"

	"github.com/mbopt/mbopt/compare/mutate"
	"github.com/mbopt/mbopt/relevance/analysis"
)

// ScoreConfig is a check of an analysis's predicted detectable slowdowns
// with mutants, as mbopt mutate --from-sensitivity runs it (see [Score]).
type ScoreConfig struct {
	// Options describe the analysis, as for [AnalysisConfig]; Score
	// turns its detectable slowdowns on.
	Options analysis.Options
	// History is the history the analysis reads its measurements from.
	History AnalysisHistory
	// Score says how many predictions to check and how to compare the
	// mutants (mutate.ScoreOptions).
	Score mutate.ScoreOptions
	// Analyzed, when not nil, receives the analysis's report before any
	// mutant is built: the caller's moment to report what it skipped.
	Analyzed func(*analysis.Report)
	// Logf, when not nil, receives a line that says how many functions
	// are checked, and how many of them get no mutant (predicted never
	// caught).
	Logf func(format string, args ...any)
}

// Score checks cfg.Score before anything runs (mutate.ScoreOptions.Check),
// runs the analysis with its detectable slowdowns, and checks the
// predictions of its largest project functions with mutants
// (mutate.ScoreSensitivity). It returns the analysis's report, for its
// warnings, with the score.
func Score(ctx context.Context, cfg ScoreConfig) (*analysis.Report, *mutate.Score, error) {
	if err := cfg.Score.Check(); err != nil {
		return nil, nil, err
	}
	cfg.Options.Sensitivity = true
	acfg, err := AnalysisConfig(ctx, cfg.Options, true, cfg.History)
	if err != nil {
		return nil, nil, err
	}
	rep, err := analysis.Run(ctx, acfg)
	if err != nil {
		return nil, nil, err
	}
	if cfg.Analyzed != nil {
		cfg.Analyzed(rep)
	}
	if cfg.Logf != nil {
		fns := rep.Sensitivity.Functions[:min(cfg.Score.Predictions, len(rep.Sensitivity.Functions))]
		never := 0
		for _, f := range fns {
			if f.DetectableSlowdown == nil {
				never++
			}
		}
		if never == 0 {
			cfg.Logf("mutate: checking the predicted detectable slowdowns of %d functions, two mutants each", len(fns))
		} else {
			cfg.Logf("mutate: checking the predicted detectable slowdowns of %d functions, two mutants each for the %d predicted caught (none for the %d predicted never caught)", len(fns), len(fns)-never, never)
		}
	}
	sc, err := mutate.ScoreSensitivity(ctx, rep.Sensitivity.Functions, cfg.Score)
	if err != nil {
		return nil, nil, err
	}
	return rep, sc, nil
}
