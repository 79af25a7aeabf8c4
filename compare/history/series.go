package history

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/culprit"
	"github.com/mbopt/mbopt/compare/detect"
)

// ErrEmpty is returned (wrapped) by [Store.Series] when the history holds
// no comparison to build a series from.
var ErrEmpty = errors.New("the history holds no comparison of two different revisions")

// ErrBaseline is returned (wrapped) by [Store.Series] when
// Query.Baseline names no stored base, or more than one.
var ErrBaseline = errors.New("the baseline names no one stored base")

// baselineError is an [ErrBaseline] with its own message.
type baselineError struct{ msg string }

func (e *baselineError) Error() string        { return e.msg }
func (e *baselineError) Is(target error) bool { return target == ErrBaseline }

// MaxChange bounds the changes a series takes: a stored change (or an
// end of its interval) beyond ±MaxChange, a factor of a billion, is no
// measurement, and the detectors' sums would overflow on it.
const MaxChange = 1e9

// Query chooses the series [Store.Series] returns.
type Query struct {
	// Baseline is the base commit of the series, a full hash or a prefix
	// that names one stored base. Empty means the base of the most
	// comparisons (A/A ones aside); a tie goes to the base compared most
	// recently, then to the smaller hash.
	Baseline string
	// Benchmarks keeps the benchmarks whose id, full name (without the
	// package) or displayed name (benchname.Display: the package relative
	// to the module, as compare prints it) equals one of them; empty keeps
	// all.
	Benchmarks []string
	// Unit keeps one unit, such as "sec/op"; empty keeps all.
	Unit string
}

// A Set is the outcome of [Store.Series].
type Set struct {
	// Baseline is the base revision every series is relative to.
	Baseline compare.Revision `json:"baseline"`
	// Series are sorted by id, unit, machine and settings hash.
	Series []Series `json:"series"`
	// Unmatched are the Query.Benchmarks no stored result matched, in
	// the order given.
	Unmatched []string `json:"unmatched,omitempty"`
	// Bridges are the bridging comparisons ([Store.AddBridge]) the series
	// were carried across: where the baseline moved, in the order reached
	// from Baseline.
	Bridges []Bridge `json:"bridges,omitempty"`
	// Module is the module path of the latest comparison the series come
	// from.
	Module string `json:"module,omitempty"`
	// Comparisons counts the stored comparisons that could make points:
	// those of two different revisions (A/A and bridging comparisons
	// aside), against any baseline.
	Comparisons int `json:"comparisons"`
	// OtherBaselines are the baselines of the stored comparisons the
	// series leave out: those against a base no bridge connects to
	// Baseline, the most comparisons first (then the most recently
	// recorded, then the hash). Query.Baseline shows the series against
	// one of them.
	OtherBaselines []OtherBaseline `json:"other_baselines,omitempty"`
	// Application are the application's measurements stored with the
	// comparisons (see [RecordOptions].Application), one per head and
	// source: those [FromMeasurements] first, each source's in ancestry
	// order (see [SortPoints]).
	Application []AppPoint `json:"application,omitempty"`
	// Confirmations are the application workload's measurements on both
	// versions stored with the comparisons (compare.Report.AppMeasured),
	// one per head, in ancestry order (see [SortPoints]).
	Confirmations []Confirmation `json:"confirmations,omitempty"`
}

// An OtherBaseline is a base of stored comparisons that a [Set] leaves
// out.
type OtherBaseline struct {
	// Commit is the base's full hash.
	Commit string `json:"commit"`
	// Comparisons is how many comparisons against it are stored.
	Comparisons int `json:"comparisons"`
}

// A Series is one benchmark's changes against the baseline, one point per
// head commit, in ancestry order (see [SortPoints]).
type Series struct {
	// ID is the benchmark's id: Package + "." + Name (see package
	// benchname).
	ID string `json:"id"`
	// Package is the benchmark's import path.
	Package string `json:"package"`
	// Name is the benchmark's full name, sub-benchmarks included.
	Name string `json:"name"`
	// Unit is the unit of the measurements.
	Unit string `json:"unit"`
	// Machine is where the series ran.
	Machine Machine `json:"machine"`
	// SettingsHash is the [SettingsHash] of its comparisons' settings.
	SettingsHash string `json:"settings_hash"`
	// Settings are the settings of its latest comparison.
	Settings compare.Settings `json:"settings"`
	// Distinct names the settings that separate this series from another
	// of the same benchmark, unit and machine ([SettingsDiff], joined by
	// ", "), such as "count 10"; empty when there is no other.
	Distinct string `json:"distinct_settings,omitempty"`
	// Points are the series' commits in ancestry order (see [SortPoints]).
	Points []Point `json:"points"`
	// Skipped are the stored results the series leaves out because they
	// hold no usable change (see [Store.Series]), by head hash.
	Skipped []Skipped `json:"skipped,omitempty"`
}

// A Skipped is a stored result a series leaves out, and why.
type Skipped struct {
	// Head is the compared head revision.
	Head compare.Revision `json:"head"`
	// Comparison is the stored comparison's id.
	Comparison int64 `json:"comparison"`
	// Reason says what is wrong with it, such as "change +Inf is not
	// finite".
	Reason string `json:"reason"`
}

// A Point is one head commit of a series: what its comparison measured
// and judged, as stored then (a later calibration does not change it).
type Point struct {
	// Head is the compared head revision.
	Head compare.Revision `json:"head"`
	// Point is the change against the baseline and its confidence
	// interval, whose width is the instability: what the detectors read
	// ([detect.Detect] takes a series' points as they are). Its fields
	// are inlined in JSON.
	detect.Point
	// BaseValue and HeadValue are the medians of the measurements of the
	// baseline and the head, in the series' unit (such as sec/op); 0
	// when not stored.
	BaseValue float64 `json:"base_value,omitempty"`
	// HeadValue is the head's median.
	HeadValue float64 `json:"head_value,omitempty"`
	// Verdict is the comparison's own verdict against Threshold.
	Verdict benchstats.Verdict `json:"verdict"`
	// Threshold is the threshold the verdict was taken against (a
	// relative change, 0.01 for ±1%); 0 when not stored.
	Threshold float64 `json:"threshold,omitempty"`
	// Impact is the benchmark's reference impact on the application in
	// that comparison (compare's --app and --micro analysis); nil when it
	// had none. It is no estimate of the change's effect: AppImpact is.
	Impact *callgraph.Impact `json:"impact,omitempty"`
	// AppImpact is the comparison's estimate of the change's effect on
	// the application (compare.Result's app_impact, its interval, basis
	// and likely_no_app_impact; the same JSON fields), for a result the
	// comparison explained with the application's reference profile; nil
	// otherwise, and for comparisons stored before schema 6.
	*culprit.AppImpact
	// Culprits names the result's top culprit functions (at most
	// [MaxCulpritNames], the largest changes first); omitted when none.
	Culprits []string `json:"culprits,omitempty"`
	// Comparison is the stored comparison's id.
	Comparison int64 `json:"comparison"`
	// Base is the commit the point was measured against when it is not
	// the Set's baseline: a baseline the Set's Bridges connect to it.
	// Change and CI are then carried over to the Set's baseline through
	// the bridges' results (their ratios multiplied, the intervals by
	// interval arithmetic); the values and the verdict stay as measured
	// and judged against Base.
	Base string `json:"base,omitempty"`
}

// Series returns the stored series that q chooses. An empty history, or
// one with only A/A comparisons, is an error wrapping [ErrEmpty]; a
// Baseline that names no stored base, or more than one, is an error
// wrapping [ErrBaseline] that lists the stored bases. A stored result that
// holds no usable change (not finite, beyond ±[MaxChange], −100% or less,
// an interval missing or inverted, an unknown verdict) does not fail the
// series: it is left out and listed in Series.Skipped.
//
// A series continues across a rebaseline: the comparisons against every
// baseline that bridging comparisons connect to the baseline are carried
// over to it (see Point.Base and Set.Bridges); a head measured against
// the baseline itself counts before one carried over, and the baseline
// itself is no point.
func (s *Store) Series(ctx context.Context, q Query) (*Set, error) {
	base, err := s.baseline(ctx, q.Baseline)
	if err != nil {
		return nil, fmt.Errorf("history: %s: %w", s.path, err)
	}
	set := &Set{Baseline: base, Series: []Series{}}
	paths, ratios, err := s.connectBridges(ctx, set)
	if err != nil {
		return nil, fmt.Errorf("history: %s: %w", s.path, err)
	}
	rows, bases, err := s.querySeriesRows(ctx, q, base.Commit, paths)
	if err != nil {
		return nil, fmt.Errorf("history: %s: %w", s.path, err)
	}
	defer rows.Close()
	matched := map[string]bool{}
	keep := benchmarkFilter(q.Benchmarks, matched)
	var (
		cur      *Series
		lastHead string // of cur: rows of one head come latest first
		latest   int64  // the comparison cur.Settings are from
	)
	settings := map[string]compare.Settings{} // parsed once per distinct JSON
	var moduleOf int64                        // the comparison set.Module is from
	for rows.Next() {
		var r seriesRow
		if err := r.scan(rows); err != nil {
			return nil, fmt.Errorf("history: %s: %w", s.path, err)
		}
		if !keep(r.module, r.sr.Package, r.sr.ID, r.sr.Name) {
			continue
		}
		r.p.Head.Time = time.Unix(0, r.headT).UTC()
		if cur == nil || cur.ID != r.sr.ID || cur.Unit != r.sr.Unit || cur.Machine != r.sr.Machine || cur.SettingsHash != r.sr.SettingsHash {
			set.Series = append(set.Series, r.sr)
			cur, lastHead, latest = &set.Series[len(set.Series)-1], "", 0
		}
		if r.p.Comparison > moduleOf {
			set.Module, moduleOf = r.module, r.p.Comparison
		}
		if r.p.Comparison > latest {
			st, ok := settings[r.settingsJSON]
			if !ok {
				// Unreadable settings (a damaged row) leave the zero value.
				_ = json.Unmarshal([]byte(r.settingsJSON), &st)
				settings[r.settingsJSON] = st
			}
			cur.Settings, latest = st, r.p.Comparison
		}
		// The latest comparison of a head counts, even when unusable; one
		// against the baseline itself first.
		if r.p.Head.Commit == lastHead || r.p.Head.Commit == base.Commit {
			continue
		}
		lastHead = r.p.Head.Commit
		p, reason := r.point(base.Commit, paths, ratios)
		if reason != "" {
			cur.Skipped = append(cur.Skipped, Skipped{Head: p.Head, Comparison: p.Comparison, Reason: reason})
			continue
		}
		cur.Points = append(cur.Points, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("history: %s: %w", s.path, err)
	}
	for i := range set.Series {
		SortPoints(set.Series[i].Points)
	}
	nameDistinctSettings(set.Series)
	if set.Application, err = s.applications(ctx, base.Commit, bases); err != nil {
		return nil, fmt.Errorf("history: %s: %w", s.path, err)
	}
	if set.Confirmations, err = s.confirmations(ctx, base.Commit, bases); err != nil {
		return nil, fmt.Errorf("history: %s: %w", s.path, err)
	}
	for _, b := range q.Benchmarks {
		if !matched[b] && !slices.Contains(set.Unmatched, b) {
			set.Unmatched = append(set.Unmatched, b)
		}
	}
	return set, nil
}

// finiteOr0 is a stored number, 0 when it is NULL or not finite.
func finiteOr0(x sql.NullFloat64) float64 {
	if !x.Valid || math.IsNaN(x.Float64) || math.IsInf(x.Float64, 0) {
		return 0
	}
	return x.Float64
}

// nameDistinctSettings sets Series.Distinct in every run of series (sorted
// by id, unit and machine) that share a benchmark, unit and machine: the
// settings in which each differs from any of the others.
func nameDistinctSettings(series []Series) {
	for i := 0; i < len(series); {
		j := i + 1
		for j < len(series) && series[j].ID == series[i].ID && series[j].Unit == series[i].Unit && series[j].Machine == series[i].Machine {
			j++
		}
		for a := i; a < j && j-i > 1; a++ {
			var names []string
			for b := i; b < j; b++ {
				if b == a {
					continue
				}
				for _, d := range SettingsDiff(series[a].Settings, series[b].Settings) {
					if !slices.Contains(names, d) {
						names = append(names, d)
					}
				}
			}
			if len(names) == 0 {
				// Same settings, another hash: an older hash rule.
				names = []string{"settings " + series[a].SettingsHash}
			}
			series[a].Distinct = strings.Join(names, ", ")
		}
		i = j
	}
}

// unusable says why a stored change and interval make no point, "" when
// they do.
func unusable(change, lo, hi sql.NullFloat64) string {
	if !lo.Valid || !hi.Valid {
		return "no confidence interval stored"
	}
	for _, v := range []struct {
		what string
		x    float64
	}{{"change", change.Float64}, {"interval low", lo.Float64}, {"interval high", hi.Float64}} {
		switch {
		case math.IsNaN(v.x) || math.IsInf(v.x, 0):
			return fmt.Sprintf("%s %v is not finite", v.what, v.x)
		case math.Abs(v.x) > MaxChange:
			return fmt.Sprintf("%s %v is beyond any measurement (±%g)", v.what, v.x, float64(MaxChange))
		}
	}
	switch {
	case change.Float64 <= -1:
		return fmt.Sprintf("change %v is −100%% or less", change.Float64)
	case lo.Float64 > hi.Float64:
		return fmt.Sprintf("interval [%v, %v] is inverted", lo.Float64, hi.Float64)
	}
	return ""
}

// SortPoints orders points by ancestry: when every point's head has a
// first-parent depth (compare.Revision.Depth), by depth, then commit time,
// then hash; otherwise (a comparison stored before depths were, or run in
// a shallow clone) by commit time, then depth, then hash. Commit times
// alone put commits made in the same second (a script, a rebase) in hash
// order, which made false jumps and trends.
func SortPoints(points []Point) {
	byDepth := !slices.ContainsFunc(points, func(p Point) bool { return p.Head.Depth == 0 })
	slices.SortStableFunc(points, func(a, b Point) int {
		d := cmp.Compare(a.Head.Depth, b.Head.Depth)
		t := a.Head.Time.Compare(b.Head.Time)
		if !byDepth {
			d, t = t, d
		}
		if d != 0 {
			return d
		}
		if t != 0 {
			return t
		}
		return strings.Compare(a.Head.Commit, b.Head.Commit)
	})
}

// Baseline resolves want as [Query.Baseline] does (empty: the default
// rule) to a stored base revision. Errors are those of [Store.Series].
func (s *Store) Baseline(ctx context.Context, want string) (compare.Revision, error) {
	r, err := s.baseline(ctx, want)
	if err != nil {
		return compare.Revision{}, fmt.Errorf("history: %s: %w", s.path, err)
	}
	return r, nil
}

// baseline resolves Query.Baseline to a stored base revision.
func (s *Store) baseline(ctx context.Context, want string) (compare.Revision, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT base_commit, count(*), max(recorded) FROM comparisons WHERE aa = 0
		GROUP BY base_commit ORDER BY count(*) DESC, max(recorded) DESC, base_commit`)
	if err != nil {
		return compare.Revision{}, err
	}
	var bases, matches []string
	for rows.Next() {
		var c string
		var n, rec int64
		if err := rows.Scan(&c, &n, &rec); err != nil {
			rows.Close()
			return compare.Revision{}, err
		}
		bases = append(bases, c)
		if want != "" && strings.HasPrefix(c, strings.ToLower(want)) {
			matches = append(matches, c)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return compare.Revision{}, err
	}
	if len(bases) == 0 {
		return compare.Revision{}, ErrEmpty
	}
	commit := bases[0]
	if want != "" {
		switch len(matches) {
		case 0:
			return compare.Revision{}, &baselineError{fmt.Sprintf("no stored comparison has base %s; the stored bases are %s", want, shortList(bases))}
		case 1:
			commit = matches[0]
		default:
			return compare.Revision{}, &baselineError{fmt.Sprintf("base %s is ambiguous: it begins %s", want, shortList(matches))}
		}
	}
	var r compare.Revision
	var t int64
	err = s.db.QueryRowContext(ctx, `
		SELECT base_spec, base_commit, base_time, base_subject FROM comparisons
		WHERE base_commit = ? AND aa = 0 ORDER BY recorded DESC, id DESC LIMIT 1`, commit).Scan(&r.Spec, &r.Commit, &t, &r.Subject)
	if errors.Is(err, sql.ErrNoRows) {
		return compare.Revision{}, ErrEmpty
	}
	if err != nil {
		return compare.Revision{}, err
	}
	r.Time = time.Unix(0, t).UTC()
	return r, nil
}

// otherBaselines counts the stored comparisons of two different
// revisions that are not bridges, and returns that count with the bases
// of those against a base not in reached, in the order of
// Set.OtherBaselines.
func (s *Store) otherBaselines(ctx context.Context, reached map[string]bridgePath) (int, []OtherBaseline, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT base_commit, count(*) FROM comparisons WHERE aa = 0 AND bridge = 0
		GROUP BY base_commit ORDER BY count(*) DESC, max(recorded) DESC, base_commit`)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	total := 0
	var others []OtherBaseline
	for rows.Next() {
		var o OtherBaseline
		if err := rows.Scan(&o.Commit, &o.Comparisons); err != nil {
			return 0, nil, err
		}
		total += o.Comparisons
		if _, ok := reached[o.Commit]; !ok {
			others = append(others, o)
		}
	}
	return total, others, rows.Err()
}

// shortList names up to five commits by their first 12 characters.
func shortList(commits []string) string {
	var out []string
	for i, c := range commits {
		if i == 5 {
			out = append(out, fmt.Sprintf("and %d more", len(commits)-5))
			break
		}
		out = append(out, c[:min(12, len(c))])
	}
	return strings.Join(out, ", ")
}
