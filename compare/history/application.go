package history

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/relevance/measure"
)

// Where an [Application]'s value comes from.
const (
	// FromMeasurements: the application benchmark was measured in the
	// comparison, at the head (one of its benchmarks, named with
	// [ApplicationOf]).
	FromMeasurements = "measurements"
	// FromReferenceProfile: the total of the reference profile the
	// comparison's reference impacts come from (compare's --app); one
	// profile serves every commit until a new one is given.
	FromReferenceProfile = "reference profile"
	// FromConfirmation: the application workload measured on both
	// versions by compare's confirmation (compare.Report.AppMeasured),
	// stored with the comparison ([Confirmation.Application]).
	FromConfirmation = "confirmation"
)

// An Application is the application's measurement that a comparison
// stores beside its benchmarks' results ([RecordOptions].Application): the
// upper series of the study's Figure 8/9 view.
type Application struct {
	// Name names the application benchmark or the reference profiles.
	Name string `json:"name"`
	// Unit is Value's unit, such as "sec/op" or "CPU seconds".
	Unit string `json:"unit"`
	// Source is [FromMeasurements] or [FromReferenceProfile] (or, for
	// [Confirmation.Application], [FromConfirmation]).
	Source string `json:"source"`
	// Value is the application's value at the comparison's head.
	Value float64 `json:"value"`
	// Base is its value at the comparison's base; 0 when not known.
	Base float64 `json:"base,omitempty"`
	// CI is Value's confidence interval, in Unit; zero when not known.
	CI benchstats.Interval `json:"ci"`
}

// Check reports what makes a an application no history can store: no
// name, unit or known source, or a value that is not finite and positive.
func (a *Application) Check() error {
	finite := func(vs ...float64) bool {
		for _, v := range vs {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
		return true
	}
	switch {
	case a.Name == "" || a.Unit == "":
		return fmt.Errorf("history: the application needs a name and a unit")
	case a.Source != FromMeasurements && a.Source != FromReferenceProfile && a.Source != FromConfirmation:
		return fmt.Errorf("history: application %s: source %q is none of %q, %q and %q", a.Name, a.Source, FromMeasurements, FromReferenceProfile, FromConfirmation)
	case !finite(a.Value, a.Base, a.CI.Low, a.CI.High) || a.Value <= 0 || a.Base < 0 || a.CI.Low > a.CI.High:
		return fmt.Errorf("history: application %s: value %v (base %v, interval [%v, %v]) is not a finite positive measurement", a.Name, a.Value, a.Base, a.CI.Low, a.CI.High)
	}
	return nil
}

// ApplicationOf returns the measurement of the application benchmark
// bench in rep, as [FromMeasurements]: bench is matched like
// [Query].Benchmarks (id, full name or displayed name), its result in the
// unit of the comparison's metric (sec/op for time) first, else its first
// unit. Value is the head's median and CI the
// change's interval scaled by the base's median. A benchmark rep did not
// compare is an error that names the compared ones.
func ApplicationOf(rep *compare.Report, bench string) (*Application, error) {
	var found *compare.Result
	var names []string
	want := cmp.Or(rep.Settings.Metric, measure.Time).Unit()
	for i := range rep.Results {
		r := &rep.Results[i]
		if r.ID != bench && r.Name != bench && benchname.Display(rep.Module, r.Package, r.Name) != bench {
			if len(names) < 5 && r.Status == compare.Compared && (len(names) == 0 || names[len(names)-1] != r.Name) {
				names = append(names, r.Name)
			}
			continue
		}
		if r.Status != compare.Compared || r.Estimate == nil {
			continue
		}
		if found == nil || r.Unit == want && found.Unit != want {
			found = r
		}
	}
	if found == nil {
		return nil, fmt.Errorf("history: the application benchmark %s has no compared result in this comparison (compared: %s)", bench, strings.Join(names, ", "))
	}
	e := found.Estimate
	a := &Application{Name: found.Name, Unit: found.Unit, Source: FromMeasurements, Value: e.HeadMedian, Base: e.BaseMedian}
	if e.BaseMedian > 0 {
		a.CI = benchstats.Interval{Low: e.BaseMedian * (1 + e.CI.Low), High: e.BaseMedian * (1 + e.CI.High)}
	}
	return a, a.Check()
}

// ProfileApplication returns the reference profile's total as the
// application's value ([FromReferenceProfile]): name names the profiles,
// total is their summed value and unit its unit ("seconds" of CPU for CPU
// profiles). It returns nil for a total that is not positive.
func ProfileApplication(name string, total float64, unit string) *Application {
	if !(total > 0) || math.IsInf(total, 0) {
		return nil
	}
	if unit == "seconds" {
		unit = "CPU seconds"
	}
	return &Application{Name: name, Unit: unit, Source: FromReferenceProfile, Value: total}
}

// An AppPoint is the application's measurement stored with one
// comparison of a [Set].
type AppPoint struct {
	// Head is the comparison's head.
	Head compare.Revision `json:"head"`
	// Comparison is the stored comparison's id.
	Comparison int64 `json:"comparison"`
	// Application is what was stored.
	Application
}

// schemaV5 adds the application's measurement of each comparison.
var schemaV5 = []string{
	`CREATE TABLE applications (
		comparison_id INTEGER PRIMARY KEY REFERENCES comparisons(id) ON DELETE CASCADE,
		name TEXT NOT NULL, unit TEXT NOT NULL, source TEXT NOT NULL,
		value REAL NOT NULL, base_value REAL, ci_low REAL, ci_high REAL
	)`,
}

// addApplication stores a with the comparison id.
func addApplication(ctx context.Context, tx *sql.Tx, id int64, a *Application) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO applications (comparison_id, name, unit, source, value, base_value, ci_low, ci_high)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, id, a.Name, a.Unit, a.Source, a.Value, a.Base, a.CI.Low, a.CI.High)
	return err
}

// applications reads the applications stored with the comparisons of
// the heads against any of bases (the Set's baseline and those its
// bridges reach), A/A and dirty heads aside: per head and source the
// latest, one against the baseline itself first. They are sorted by
// source, then like [SortPoints].
func (s *Store) applications(ctx context.Context, baseline string, bases []any) ([]AppPoint, error) {
	args := append(append([]any{}, bases...), baseline)
	rows, err := s.db.QueryContext(ctx, `
		SELECT c.id, c.head_spec, c.head_commit, c.head_time, c.head_subject, c.head_depth,
			a.name, a.unit, a.source, a.value, a.base_value, a.ci_low, a.ci_high
		FROM applications a JOIN comparisons c ON a.comparison_id = c.id
		WHERE c.aa = 0 AND c.head_dirty = 0 AND c.bridge = 0
			AND c.base_commit IN (?`+strings.Repeat(", ?", len(bases)-1)+`)
		ORDER BY a.source, c.head_commit, c.base_commit = ? DESC, c.recorded DESC, c.id DESC`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []AppPoint
	seen := map[[2]string]bool{}
	for rows.Next() {
		var p AppPoint
		var t int64
		var base, lo, hi sql.NullFloat64
		if err := rows.Scan(&p.Comparison, &p.Head.Spec, &p.Head.Commit, &t, &p.Head.Subject, &p.Head.Depth,
			&p.Name, &p.Unit, &p.Source, &p.Value, &base, &lo, &hi); err != nil {
			return nil, err
		}
		k := [2]string{p.Source, p.Head.Commit}
		if seen[k] || p.Head.Commit == baseline {
			continue
		}
		seen[k] = true
		p.Head.Time = time.Unix(0, t).UTC()
		p.Base, p.CI.Low, p.CI.High = finiteOr0(base), finiteOr0(lo), finiteOr0(hi)
		if p.Check() != nil {
			continue // a damaged row draws nothing
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	sortAppPoints(out)
	return out, nil
}

// sortAppPoints orders points by source, then as SortPoints orders heads.
func sortAppPoints(ps []AppPoint) {
	bySource := map[string][]Point{}
	var sources []string
	for _, p := range ps {
		if _, ok := bySource[p.Source]; !ok {
			sources = append(sources, p.Source)
		}
		bySource[p.Source] = append(bySource[p.Source], Point{Head: p.Head, Comparison: p.Comparison})
	}
	at := map[[2]string]AppPoint{}
	for _, p := range ps {
		at[[2]string{p.Source, p.Head.Commit}] = p
	}
	ps = ps[:0]
	for _, src := range sources {
		pts := bySource[src]
		SortPoints(pts)
		for _, p := range pts {
			ps = append(ps, at[[2]string{src, p.Head.Commit}])
		}
	}
}
