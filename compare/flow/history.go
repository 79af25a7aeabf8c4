package flow

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare/detect"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/internal/gitrev"
	"github.com/mbopt/mbopt/relevance/measure"
)

// A HistoryConfig says which trends of a history [History] reads, and
// which A/A calibration [Instability] reads. Errors about a field are
// *mbopt.Error values naming it, as "Config.Baseline" or "Config.Unit".
type HistoryConfig struct {
	// History is the history database mbopt compare writes.
	History string
	// Baseline is the base of the series (history.Query), or a
	// revision, resolved in the current directory's repository.
	Baseline string
	// Benchmarks keeps those benchmarks (history.Query).
	Benchmarks []string
	// Unit keeps that unit (history.Query).
	Unit string
	// Metric, when set, keeps the unit of that metric of mbopt compare
	// (measure.Metric.Unit: sec/op, cpu-sec/op or instructions/op); a
	// Unit set too must be the same.
	Metric measure.Metric
	// Detect configures the detectors.
	Detect detect.Options
	// InitialThreshold, when set, is Detect.InitialThreshold, and
	// replaces the thresholds calibrated from the history's A/A
	// comparisons; nil leaves those, else Detect.InitialThreshold.
	InitialThreshold *float64
	// Output is the file the caller will write what it shows to, checked
	// with mbopt.CheckOutput: not one of the history database's files
	// (history.Files), not a directory, in a directory that exists.
	Output string
	// Warn, when set, gets the benchmarks and results left out.
	Warn func(error)
}

// The fields of a [HistoryConfig] that input errors name (History is
// [FieldHistory], Output [FieldOutput]).
const (
	FieldBaseline         mbopt.Field = "Baseline"
	FieldUnit             mbopt.Field = "Unit"
	FieldMetric           mbopt.Field = "Metric"
	FieldInitialThreshold mbopt.Field = "InitialThreshold"
)

// detect returns the detectors' options, with InitialThreshold when set.
func (cfg HistoryConfig) detect() detect.Options {
	d := cfg.Detect
	if cfg.InitialThreshold != nil {
		d.InitialThreshold = *cfg.InitialThreshold
	}
	return d
}

// Check checks the combination of the settings, Detect, and that Output
// is not a file of the history.
func (cfg HistoryConfig) Check() error {
	if cfg.Metric != "" {
		m, err := measure.ParseMetric(string(cfg.Metric))
		if err != nil {
			return FieldMetric.Errorf("%v", err)
		}
		if cfg.Unit != "" && cfg.Unit != m.Unit() {
			return mbopt.Errorf("%s %s shows the unit %s, but %s is %s: give one of them", FieldMetric, m, m.Unit(), FieldUnit, cfg.Unit)
		}
	}
	if err := cfg.detect().Check(); err != nil {
		return err
	}
	return mbopt.CheckOutput(FieldOutput, cfg.Output, history.Files(cfg.History)...)
}

// Trends are what [History] found in a history: its series against one
// baseline and what the detectors found in each.
type Trends struct {
	// Set holds the series (history.Store.Series), with the bridges,
	// application measurements and confirmations a document shows beside
	// them; never empty of series.
	Set *history.Set
	// Detected holds each series of Set with its detections
	// (history.Set.Detect), in Set's order.
	Detected []history.Detected
	// Options are the detectors' parameters; each series' initial
	// threshold may differ (see history.Detected.InitialThreshold).
	Options detect.Options
}

// History reads the trends of the history database cfg.History as mbopt
// history shows them: the series against the baseline, and what the
// detectors found in them with each series' initial threshold (calibrated
// from the A/A comparisons unless given). The comparisons against other
// baselines, the benchmarks that matched nothing and the results left out
// go to cfg.Warn. A missing or empty history, an unknown baseline and a
// query that matches no series are input errors that say what to do.
func History(ctx context.Context, cfg HistoryConfig) (*Trends, error) {
	st, err := OpenHistory(ctx, cfg.History)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	set, err := cfg.series(ctx, st)
	if err != nil {
		return nil, err
	}
	d := cfg.detect()
	detected, err := set.Detect(d, st.InitialThresholds(ctx, cfg.InitialThreshold, d.InitialThreshold))
	if err != nil {
		return nil, err
	}
	return &Trends{Set: set, Detected: detected, Options: d}, nil
}

// series reads the series of st that cfg asks for and warns about what
// they leave out.
func (cfg HistoryConfig) series(ctx context.Context, st *history.Store) (*history.Set, error) {
	q := history.Query{Baseline: cfg.Baseline, Benchmarks: cfg.Benchmarks, Unit: cfg.unit()}
	set, err := st.Series(ctx, q)
	if errors.Is(err, history.ErrBaseline) {
		// Not a stored base's prefix: perhaps a revision name.
		if c, gerr := gitrev.Commit(ctx, ".", cfg.Baseline); gerr == nil {
			q.Baseline = c
			set, err = st.Series(ctx, q)
		}
	}
	switch {
	case errors.Is(err, history.ErrEmpty):
		return nil, mbopt.Errorf("%s %s: %v; run mbopt compare to add some", FieldHistory, cfg.History, err)
	case errors.Is(err, history.ErrBaseline):
		return nil, mbopt.Errorf("%s: %w", FieldBaseline, err)
	case err != nil:
		return nil, historyError(cfg.History, err)
	}
	if len(set.OtherBaselines) > 0 {
		left := 0
		var each []string
		for _, o := range set.OtherBaselines {
			left += o.Comparisons
			each = append(each, fmt.Sprintf("%d against %s", o.Comparisons, short(o.Commit)))
		}
		if len(each) > 5 {
			each = append(each[:5], fmt.Sprintf("and %d more baselines", len(each)-5))
		}
		cfg.warn(mbopt.Errorf("%d of %d comparisons are against other baselines and left out: %s; %s REV shows the series against one of them",
			left, set.Comparisons, strings.Join(each, ", "), FieldBaseline))
	}
	for _, b := range set.Unmatched {
		cfg.warn(fmt.Errorf("%s: no stored result against baseline %s matches this benchmark", b, short(set.Baseline.Commit)))
	}
	for _, sr := range set.Series {
		for _, sk := range sr.Skipped {
			cfg.warn(fmt.Errorf("%s (%s): the result of comparison %d at %s is left out: %s", sr.ID, sr.Unit, sk.Comparison, short(sk.Head.Commit), sk.Reason))
		}
	}
	if len(set.Series) == 0 {
		return nil, mbopt.Errorf("no series against baseline %s matches the arguments and %s %q", short(set.Baseline.Commit), FieldUnit, q.Unit)
	}
	return set, nil
}

// unit returns the unit cfg keeps: Metric's, else Unit.
func (cfg HistoryConfig) unit() string {
	if cfg.Metric != "" {
		return cfg.Metric.Unit()
	}
	return cfg.Unit
}

// warn gives cfg.Warn a warning; an *mbopt.Error names settings, which a
// front end words in its own vocabulary.
func (cfg HistoryConfig) warn(err error) {
	if cfg.Warn != nil {
		cfg.Warn(err)
	}
}

// A Calibration is the A/A calibration of a history, as [Instability]
// reads it.
type Calibration struct {
	// Instabilities are the benchmarks' A/A instabilities
	// (history.Store.Instabilities), in its order; never empty.
	Instabilities []history.Instability
	// Thresholds are the initial thresholds calibrated from them
	// (history.Calibrate with history.DefaultCalibrateOptions).
	Thresholds *history.Calibration
}

// Instability reads the A/A calibration of the history database
// cfg.History, for its Benchmarks and its Unit (or Metric's): the
// instabilities of its A/A comparisons, and the initial thresholds
// calibrated from them. A history without an A/A comparison of those is an
// input error that says how to make one.
func Instability(ctx context.Context, cfg HistoryConfig) (*Calibration, error) {
	st, err := OpenHistory(ctx, cfg.History)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	insts, err := st.Instabilities(ctx, history.Filter{Benchmarks: cfg.Benchmarks, Unit: cfg.unit()})
	if err != nil {
		return nil, err
	}
	if len(insts) == 0 {
		return nil, mbopt.Errorf("%s %s: no A/A comparison stored (for these benchmarks and units); run mbopt compare --aa", FieldHistory, cfg.History)
	}
	cal, err := history.Calibrate(insts, history.DefaultCalibrateOptions)
	if err != nil {
		return nil, err
	}
	return &Calibration{Instabilities: insts, Thresholds: cal}, nil
}
