package history

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mbopt/mbopt/benchstats"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/detect"
)

// ErrEmpty is returned (wrapped) by [Store.Series] when the history holds
// no comparison to build a series from.
var ErrEmpty = errors.New("the history holds no comparison of two different revisions")

// Query chooses the series [Store.Series] returns.
type Query struct {
	// Baseline is the base commit of the series, a full hash or a prefix
	// that names one stored base. Empty means the base of the most
	// comparisons (A/A ones aside); a tie goes to the base compared most
	// recently, then to the smaller hash.
	Baseline string
	// Benchmarks keeps the benchmarks whose id or full name (without the
	// package) equals one of them; empty keeps all.
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
	// Points are the series' commits in ancestry order (see [SortPoints]).
	Points []Point `json:"points"`
}

// A Point is one head commit of a series.
type Point struct {
	// Head is the compared head revision.
	Head compare.Revision `json:"head"`
	// Change is the change against the baseline.
	Change float64 `json:"change"`
	// CI is Change's confidence interval; its width is the instability.
	CI benchstats.Interval `json:"ci"`
	// Verdict is the comparison's own verdict against its threshold.
	Verdict benchstats.Verdict `json:"verdict"`
	// Comparison is the stored comparison's id.
	Comparison int64 `json:"comparison"`
}

// DetectPoints returns the series' points as the detectors take them.
func (s Series) DetectPoints() []detect.Point {
	out := make([]detect.Point, len(s.Points))
	for i, p := range s.Points {
		out[i] = detect.Point{Value: p.Change, CI: p.CI}
	}
	return out
}

// Series returns the stored series that q chooses. An empty history, or
// one with only A/A comparisons, is an error wrapping [ErrEmpty]; a
// Baseline that names no stored base, or more than one, is an error that
// lists the stored bases.
func (s *Store) Series(ctx context.Context, q Query) (*Set, error) {
	base, err := s.baseline(ctx, q.Baseline)
	if err != nil {
		return nil, fmt.Errorf("history: %s: %w", s.path, err)
	}
	set := &Set{Baseline: base, Series: []Series{}}
	rows, err := s.db.QueryContext(ctx, `
		SELECT r.bench_id, r.package, r.name, r.unit,
			c.goos, c.goarch, c.cpu, c.go_version, c.settings_hash,
			c.head_spec, c.head_commit, c.head_time, c.head_subject, c.head_depth,
			r.change, r.ci_low, r.ci_high, r.verdict, c.id
		FROM results r JOIN comparisons c ON r.comparison_id = c.id
		WHERE c.base_commit = ? AND c.aa = 0 AND c.head_dirty = 0
			AND r.status = ? AND r.change IS NOT NULL
			AND (? = '' OR r.unit = ?)
		ORDER BY r.bench_id, r.unit, c.goos, c.goarch, c.cpu, c.go_version, c.settings_hash,
			c.head_commit, c.recorded DESC, c.id DESC`,
		base.Commit, string(compare.Compared), q.Unit, q.Unit)
	if err != nil {
		return nil, fmt.Errorf("history: %s: %w", s.path, err)
	}
	defer rows.Close()
	matched := map[string]bool{}
	keep := func(id, name string) bool {
		if len(q.Benchmarks) == 0 {
			return true
		}
		ok := false
		for _, b := range q.Benchmarks {
			if b == id || b == name {
				matched[b], ok = true, true
			}
		}
		return ok
	}
	var cur *Series
	for rows.Next() {
		var (
			sr      Series
			p       Point
			headT   int64
			verdict string
		)
		if err := rows.Scan(&sr.ID, &sr.Package, &sr.Name, &sr.Unit,
			&sr.Machine.GOOS, &sr.Machine.GOARCH, &sr.Machine.CPU, &sr.Machine.GoVersion, &sr.SettingsHash,
			&p.Head.Spec, &p.Head.Commit, &headT, &p.Head.Subject, &p.Head.Depth,
			&p.Change, &p.CI.Low, &p.CI.High, &verdict, &p.Comparison); err != nil {
			return nil, fmt.Errorf("history: %s: %w", s.path, err)
		}
		if !keep(sr.ID, sr.Name) {
			continue
		}
		p.Head.Time = time.Unix(0, headT).UTC()
		if err := p.Verdict.UnmarshalText([]byte(verdict)); err != nil {
			return nil, fmt.Errorf("history: %s: comparison %d, %s: %w", s.path, p.Comparison, sr.ID, err)
		}
		if cur == nil || cur.ID != sr.ID || cur.Unit != sr.Unit || cur.Machine != sr.Machine || cur.SettingsHash != sr.SettingsHash {
			set.Series = append(set.Series, sr)
			cur = &set.Series[len(set.Series)-1]
		}
		// Rows of one head come latest first: keep that one.
		if n := len(cur.Points); n > 0 && cur.Points[n-1].Head.Commit == p.Head.Commit {
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
	for _, b := range q.Benchmarks {
		if !matched[b] && !slices.Contains(set.Unmatched, b) {
			set.Unmatched = append(set.Unmatched, b)
		}
	}
	return set, nil
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
			return compare.Revision{}, fmt.Errorf("no stored comparison has base %s; the stored bases are %s", want, shortList(bases))
		case 1:
			commit = matches[0]
		default:
			return compare.Revision{}, fmt.Errorf("base %s is ambiguous: it begins %s", want, shortList(matches))
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
