package history

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/internal/benchname"
)

// Filter restricts [Store.Instabilities] to one configuration.
type Filter struct {
	// Machine, when not nil, keeps the results of that machine.
	Machine *Machine
	// SettingsHash, when not empty, keeps the results of those settings.
	SettingsHash string
	// Benchmarks, when not empty, keeps the benchmarks whose id or full
	// name (without the package) equals one of them, as Query.Benchmarks.
	Benchmarks []string
	// Unit, when not empty, keeps that unit.
	Unit string
}

// Instability is one benchmark's instabilities in A/A comparisons.
type Instability struct {
	// ID is the benchmark's id.
	ID string `json:"id"`
	// Unit is the unit of the measurements.
	Unit string `json:"unit"`
	// Widths are the confidence interval widths of its A/A results, in
	// the order they were stored.
	Widths []float64 `json:"widths"`
	// Skipped are its A/A results that make no width (an interval
	// inverted or not finite; see [Series.Skipped]), each as "comparison
	// N: why", left out of Widths: an inverted interval's negative width
	// would lower the threshold to the floor unseen.
	Skipped []string `json:"skipped,omitempty"`
}

// Median is the benchmark's median A/A instability, the median of Widths
// (the mean of the middle two for an even count; NaN for none): the
// figure the suite threshold takes its quantile over, the calibration
// table prints and --max-instability compares.
func (in Instability) Median() float64 { return benchstats.Median(in.Widths) }

// Instabilities returns the instabilities of every benchmark and unit with
// an A/A result that f keeps, sorted by id, then unit. A result whose
// interval makes no width is left out and listed in Instability.Skipped.
func (s *Store) Instabilities(ctx context.Context, f Filter) ([]Instability, error) {
	var m Machine
	useM := f.Machine != nil
	if useM {
		m = *f.Machine
	}
	rows, err := s.db.QueryContext(ctx, `
		SELECT r.bench_id, r.unit, r.change, r.ci_low, r.ci_high, c.id
		FROM results r JOIN comparisons c ON r.comparison_id = c.id
		WHERE c.aa = 1 AND r.status = ? AND r.ci_low IS NOT NULL
			AND (? = 0 OR (c.goos = ? AND c.goarch = ? AND c.cpu = ? AND c.go_version = ?))
			AND (? = '' OR c.settings_hash = ?)
		ORDER BY r.bench_id, r.unit, c.recorded, c.id`,
		string(compare.Compared), useM, m.GOOS, m.GOARCH, m.CPU, m.GoVersion, f.SettingsHash, f.SettingsHash)
	if err != nil {
		return nil, fmt.Errorf("history: %s: %w", s.path, err)
	}
	defer rows.Close()
	var out []Instability
	for rows.Next() {
		var id, unit string
		var change, lo, hi sql.NullFloat64
		var cid int64
		if err := rows.Scan(&id, &unit, &change, &lo, &hi, &cid); err != nil {
			return nil, fmt.Errorf("history: %s: %w", s.path, err)
		}
		if _, name, _ := benchname.SplitID(id); (f.Unit != "" && unit != f.Unit) || (len(f.Benchmarks) > 0 && !slices.Contains(f.Benchmarks, id) && !slices.Contains(f.Benchmarks, name)) {
			continue
		}
		if n := len(out); n == 0 || out[n-1].ID != id || out[n-1].Unit != unit {
			out = append(out, Instability{ID: id, Unit: unit})
		}
		in := &out[len(out)-1]
		if why := unusable(change, lo, hi); why != "" {
			in.Skipped = append(in.Skipped, fmt.Sprintf("comparison %d: %s", cid, why))
			continue
		}
		in.Widths = append(in.Widths, hi.Float64-lo.Float64)
	}
	return out, rows.Err()
}

// CalibrateOptions are the parameters of [Calibrate]; see the package
// documentation for the rule. [DefaultCalibrateOptions] holds the study's.
type CalibrateOptions struct {
	// Quantile is the share of instabilities a threshold covers (0.8).
	Quantile float64 `json:"quantile"`
	// Factor scales a benchmark's instability into its threshold (0.75,
	// the dynamic threshold's factor).
	Factor float64 `json:"factor"`
	// Floor is the smallest threshold (0.01).
	Floor float64 `json:"floor"`
}

// DefaultCalibrateOptions are the study's values.
var DefaultCalibrateOptions = CalibrateOptions{Quantile: 0.8, Factor: 0.75, Floor: 0.01}

// A Threshold is one benchmark's calibrated initial threshold.
type Threshold struct {
	// ID is the benchmark's id.
	ID string `json:"id"`
	// Unit is the unit of the measurements.
	Unit string `json:"unit"`
	// Threshold is the initial threshold, a relative change.
	Threshold float64 `json:"threshold"`
	// Instability is the Quantile of the benchmark's A/A instabilities.
	Instability float64 `json:"instability"`
	// Runs is the number of A/A results it came from.
	Runs int `json:"runs"`
}

// A Calibration holds the initial thresholds from A/A results.
type Calibration struct {
	// Options are the parameters used.
	Options CalibrateOptions `json:"options"`
	// Thresholds are sorted by id, then unit.
	Thresholds []Threshold `json:"thresholds"`
	// Suite is the threshold of benchmarks without an A/A result; 0 when
	// nothing was calibrated.
	Suite float64 `json:"suite"`
}

// Calibrate computes initial thresholds from A/A instabilities (see the
// package documentation). Instabilities without widths are ignored.
func Calibrate(insts []Instability, opt CalibrateOptions) (*Calibration, error) {
	if !(opt.Quantile > 0 && opt.Quantile <= 1) {
		return nil, fmt.Errorf("history: Quantile is %v; it must be in (0, 1], such as 0.8", opt.Quantile)
	}
	if !(opt.Factor > 0) || math.IsInf(opt.Factor, 0) {
		return nil, fmt.Errorf("history: Factor is %v; it must be positive, such as 0.75", opt.Factor)
	}
	if !(opt.Floor >= 0) || math.IsInf(opt.Floor, 0) {
		return nil, fmt.Errorf("history: Floor is %v; it must be ≥ 0, such as 0.01", opt.Floor)
	}
	c := &Calibration{Options: opt, Thresholds: []Threshold{}}
	var medians []float64
	for _, in := range insts {
		if len(in.Widths) == 0 {
			continue
		}
		w := slices.Clone(in.Widths)
		slices.Sort(w)
		q := stat.Quantile(opt.Quantile, stat.Empirical, w, nil)
		medians = append(medians, in.Median())
		c.Thresholds = append(c.Thresholds, Threshold{ID: in.ID, Unit: in.Unit, Threshold: max(opt.Floor, opt.Factor*q), Instability: q, Runs: len(w)})
	}
	sort.Slice(c.Thresholds, func(i, j int) bool {
		a, b := c.Thresholds[i], c.Thresholds[j]
		if a.ID != b.ID {
			return a.ID < b.ID
		}
		return a.Unit < b.Unit
	})
	if len(medians) > 0 {
		slices.Sort(medians)
		c.Suite = max(opt.Floor, stat.Quantile(opt.Quantile, stat.Empirical, medians, nil))
	}
	return c, nil
}

// For returns the initial threshold of benchmark id in unit: its own when
// it was calibrated (calibrated is then true), else the suite threshold
// (0 when c holds nothing).
func (c *Calibration) For(id, unit string) (threshold float64, calibrated bool) {
	i := sort.Search(len(c.Thresholds), func(i int) bool {
		t := c.Thresholds[i]
		return t.ID > id || (t.ID == id && t.Unit >= unit)
	})
	if i < len(c.Thresholds) && c.Thresholds[i].ID == id && c.Thresholds[i].Unit == unit {
		return c.Thresholds[i].Threshold, true
	}
	return c.Suite, false
}

// StabilityUnit is the unit whose A/A instability [Store.Unstable] judges:
// the time per operation, what a suite is run for.
const StabilityUnit = "sec/op"

// Unstable returns the ids of the benchmarks too unstable to measure
// changes with, sorted: those whose median A/A instability in
// [StabilityUnit], over every A/A comparison stored (on any machine),
// exceeds maxWidth, a relative confidence interval width. Benchmarks
// without an A/A result are not among them; measured counts the benchmarks
// with one, so that a caller can tell "all stable" from "never measured".
// A selection leaves the unstable ones out (analysis.SelectConfig's
// ExcludeBenchmarks).
func (s *Store) Unstable(ctx context.Context, maxWidth float64) (unstable []string, measured int, err error) {
	insts, err := s.Instabilities(ctx, Filter{})
	if err != nil {
		return nil, 0, err
	}
	for _, in := range insts {
		if in.Unit != StabilityUnit || len(in.Widths) == 0 {
			continue
		}
		measured++
		if in.Median() > maxWidth {
			unstable = append(unstable, in.ID)
		}
	}
	slices.Sort(unstable)
	return unstable, measured, nil
}

// InitialThresholds returns the rule that gives each series of the store
// its initial threshold for change detection (detect.Options), with the
// source of the threshold: given, when not nil, for every series
// ([ThresholdGiven]); else the threshold calibrated for the series'
// benchmark and unit from the A/A comparisons stored for its machine and
// settings ([ThresholdCalibrated]); else the suite threshold of those A/A
// comparisons ([ThresholdSuite]); else def ([ThresholdDefault]). The
// rule calibrates each machine and settings once.
func (s *Store) InitialThresholds(ctx context.Context, given *float64, def float64) InitialThresholdFunc {
	cals := map[string]*Calibration{}
	return func(sr Series) (float64, string, error) {
		if given != nil {
			return *given, ThresholdGiven, nil
		}
		key := sr.Machine.String() + "\x00" + sr.SettingsHash
		cal, ok := cals[key]
		if !ok {
			insts, err := s.Instabilities(ctx, Filter{Machine: &sr.Machine, SettingsHash: sr.SettingsHash})
			if err != nil {
				return 0, "", err
			}
			if cal, err = Calibrate(insts, DefaultCalibrateOptions); err != nil {
				return 0, "", err
			}
			cals[key] = cal
		}
		switch t, own := cal.For(sr.ID, sr.Unit); {
		case own:
			return t, ThresholdCalibrated, nil
		case t > 0:
			return t, ThresholdSuite, nil
		}
		return def, ThresholdDefault, nil
	}
}
