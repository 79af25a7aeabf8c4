package flow

import (
	"cmp"
	"context"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/relevance/analysis"
)

// AnalysisHistory says which history database an analysis takes its
// measurements from (see [AnalysisConfig]).
type AnalysisHistory struct {
	// Path is the history database given (mbopt's --history); "" means
	// the default, history.PathIn(Dir), read only where it helps and
	// never created.
	Path string
	// Dir is the directory whose module's default database is read when
	// Path is "": "" means the current directory.
	Dir string
	// MaxInstability is [ExcludeUnstable]'s maxWidth (0: keep all).
	MaxInstability float64
}

// AnalysisConfig returns the analysis configuration that o describes
// (o.Config(inputs)) with the measurements of the history h names:
//
//   - A given h.Path: its comparisons' minimum detectable effects (see
//     [MeasuredMDEs]) become o.MDEs, which make the caught objective the
//     default, and feed the detectable slowdowns, for which a history
//     that holds no comparison, or is missing, is an input error; so is
//     one that cannot be read.
//   - The default database, when h.Path is "": read only for the
//     detectable slowdowns and the caught objective when o gives no MDEs
//     (it does not change the default objective, so a module's suite
//     does not change once mbopt compare has stored there), and only
//     when it exists. A damaged or foreign file there fails nothing: the
//     MDEs are then the default and the report carries the reason
//     (SensitivityConfig.HistoryWarning).
//
// The configuration names the database its MDEs came from
// (SensitivityConfig.History, which the report prints), and leaves out
// the unstable benchmarks h.MaxInstability asks to ([ExcludeUnstable],
// from the same database).
func AnalysisConfig(ctx context.Context, o analysis.Options, inputs bool, h AnalysisHistory) (analysis.Config, error) {
	if h.Path != "" {
		mdes, err := MeasuredMDEs(ctx, h.Path)
		if err != nil {
			return analysis.Config{}, err
		}
		o.MDEs = mdes
	}
	cfg, err := o.Config(inputs)
	if err != nil {
		return analysis.Config{}, err
	}
	path := cmp.Or(h.Path, history.PathIn(h.Dir))
	if err := ExcludeUnstable(ctx, &cfg, path, h.MaxInstability); err != nil {
		return analysis.Config{}, err
	}
	switch {
	case h.Path != "" && cfg.Sensitivity != nil && len(o.MDEs) == 0:
		// No measurement: the history's own error says why.
		return cfg, SensitivityMDEs(ctx, &cfg, h.Path)
	case h.Path != "":
		setMDEs(&cfg, o.MDEs, h.Path, nil)
	case len(o.MDEs) == 0 && (cfg.Sensitivity != nil || cfg.Select.Objective == optimize.Caught):
		mdes, err := readMDEs(ctx, path)
		if err != nil {
			err = mbopt.Errorf("the module's history database %s: %s (or name another with %s)", path, historyReason(path, err), FieldHistory)
		}
		setMDEs(&cfg, mdes, path, err)
	}
	return cfg, nil
}

// setMDEs gives the MDE configurations of cfg's detectable slowdowns and
// caught objective the measured mdes read from the history at path (none
// when empty), or the warning of a history that could not be read.
func setMDEs(cfg *analysis.Config, mdes map[string]float64, path string, warning error) {
	for _, c := range []*analysis.SensitivityConfig{cfg.Sensitivity, &cfg.Select.Caught} {
		if c == nil {
			continue
		}
		if len(mdes) > 0 {
			c.MDEs, c.History = mdes, path
		}
		c.HistoryWarning = warning
	}
}
