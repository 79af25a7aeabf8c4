package flow

import (
	"context"
	"errors"
	"io/fs"
	"math"
	"os"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/measure"
)

// ExcludeUnstable feeds measured instability back into selection: it
// leaves out of the suite of cfg (Select.ExcludeBenchmarks) the benchmarks
// whose A/A instability, the median CI width of their A/A comparisons in
// the history database at path ("": history.PathIn of the current
// directory), exceeds maxWidth. A zero maxWidth keeps all; a history
// without A/A results is an input error that says how to make some.
func ExcludeUnstable(ctx context.Context, cfg *analysis.Config, path string, maxWidth float64) error {
	if maxWidth == 0 {
		return nil
	}
	field := analysis.FieldSelectExcludeBenchmarks
	if maxWidth < 0 || math.IsNaN(maxWidth) || math.IsInf(maxWidth, 0) {
		return mbopt.Errorf("%s must be a positive relative CI width such as 0.05 (0: keep all), not %v", field, maxWidth)
	}
	path = historyPath(path)
	st, err := OpenHistory(ctx, path)
	if err != nil {
		return err
	}
	defer st.Close()
	unstable, measured, err := st.Unstable(ctx, maxWidth)
	if measured == 0 && err == nil {
		return mbopt.Errorf("%s: %s holds no A/A result in %s; run mbopt compare --aa first", field, path, history.StabilityUnit)
	}
	cfg.Select.ExcludeBenchmarks = unstable
	return err
}

// SensitivityMDEs gives the detectable slowdowns of cfg (its Sensitivity,
// which must be set) the benchmarks' measured minimum detectable effects:
// each one's latest comparison stored in the history database at path
// ("": history.PathIn of the current directory), in the metric whose
// results cover the most benchmarks (ties: instructions, then cpu, then
// time, the more precise first). A history without a comparison is an
// input error.
func SensitivityMDEs(ctx context.Context, cfg *analysis.Config, path string) error {
	path = historyPath(path)
	st, err := OpenHistory(ctx, path)
	if err != nil {
		return err
	}
	defer st.Close()
	best, err := latestMDEs(ctx, st)
	if err != nil {
		return err
	}
	if len(best) == 0 {
		return mbopt.Errorf("%s %s holds no comparison to take the benchmarks' minimum detectable effects from; run mbopt compare first, or leave the history out to use the typical value", FieldHistory, path)
	}
	cfg.Sensitivity.MDEs = best
	return nil
}

// MeasuredMDEs returns the benchmarks' measured minimum detectable
// effects, as [SensitivityMDEs] reads them from the history database at
// path ("": history.PathIn of the current directory), for
// analysis.Options.MDEs, which makes the caught objective the default
// when they exist; nil, and no error, when there is no database at path
// yet (mbopt compare writes it), one that holds nothing yet
// (history.ErrNothingYet: what a compare creating it beside this one leaves
// for an instant) or one that holds no comparison.
func MeasuredMDEs(ctx context.Context, path string) (map[string]float64, error) {
	path = historyPath(path)
	mdes, err := readMDEs(ctx, path)
	if err != nil {
		return nil, historyError(path, err)
	}
	return mdes, nil
}

// readMDEs returns the MDEs of the history database at path as
// [MeasuredMDEs] does, with the history package's own errors.
func readMDEs(ctx context.Context, path string) (map[string]float64, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	st, err := history.OpenReadOnly(ctx, path)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, history.ErrNothingYet):
		return nil, nil
	case err != nil:
		return nil, err
	}
	defer st.Close()
	return latestMDEs(ctx, st)
}

// latestMDEs returns each benchmark's MDE from its latest comparison in
// st, in the metric whose results cover the most benchmarks (ties:
// instructions, then cpu, then time); empty when st holds no comparison.
func latestMDEs(ctx context.Context, st *history.Store) (map[string]float64, error) {
	var best map[string]float64
	for _, m := range []measure.Metric{measure.Instructions, measure.CPU, measure.Time} {
		mdes, err := st.MDEs(ctx, m.Unit())
		if err != nil {
			return nil, err
		}
		if len(mdes) > len(best) {
			best = mdes
		}
	}
	return best, nil
}
