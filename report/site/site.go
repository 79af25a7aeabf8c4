package site

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"strings"
	"time"

	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/detect"
)

// Data is what a site shows: benchmark series against one baseline, the
// commits they were measured at, and the application's series for the
// Figure 8/9 view. [Write] checks it ([Data.Check]) and orders the series
// itself.
type Data struct {
	// Title heads every page, such as the module path.
	Title string `json:"title"`
	// Metric names what was measured, such as "time" or "instructions";
	// it goes on every axis beside the unit. Empty: only the unit.
	Metric string `json:"metric,omitempty"`
	// Baseline is the revision every change is relative to.
	Baseline Commit `json:"baseline"`
	// Commits are the compared head commits in commit order (oldest
	// first); points refer to them by index, and every chart's x axis is
	// this order.
	Commits []Commit `json:"commits"`
	// Series are the benchmark series, in any order.
	Series []Series `json:"series"`
	// Application is the application benchmark's series drawn above the
	// detections in the Figure 8/9 view; nil when none is known.
	Application *Application `json:"application,omitempty"`
	// Bridges are where the baseline moved (mbopt history rebaseline):
	// points measured against an older baseline (Point.Base) were carried
	// over to Baseline through them. The pages mark where a series'
	// baseline changes.
	Bridges []Bridge `json:"bridges,omitempty"`
}

// A Bridge is a comparison of an old baseline with a new one.
type Bridge struct {
	// From is the old baseline.
	From Commit `json:"from"`
	// To is the new baseline.
	To Commit `json:"to"`
}

// A Commit is one revision.
type Commit struct {
	// Hash is the full commit hash.
	Hash string `json:"hash"`
	// Time is the commit time.
	Time time.Time `json:"time"`
	// Subject is the first line of the commit message.
	Subject string `json:"subject,omitempty"`
}

// A Series is one benchmark's changes against the baseline in one unit on
// one machine with one set of settings.
type Series struct {
	// ID is the benchmark id (package + "." + name).
	ID string `json:"id"`
	// Package is the benchmark's import path.
	Package string `json:"package"`
	// Name is the benchmark's full name, sub-benchmarks included.
	Name string `json:"name"`
	// Unit is the unit of the measurements, such as "sec/op".
	Unit string `json:"unit"`
	// Metric names what measured the series, such as "time" or
	// "instructions", when its unit is the metric's (compare --metric);
	// empty for the other units (B/op) and where not known, and then the
	// axes name Data.Metric, if any.
	Metric string `json:"metric,omitempty"`
	// Machine describes where it ran.
	Machine string `json:"machine,omitempty"`
	// Settings names the comparison settings that set this series apart
	// from others of the same benchmark, unit and machine (such as
	// "count 5, benchmem"); empty when there are no others.
	Settings string `json:"settings,omitempty"`
	// Impact is the benchmark's impact on the application; nil when not
	// known.
	Impact *Impact `json:"impact,omitempty"`
	// Application is set on the application benchmark's own series
	// ([FromHistory]): the Figure 8/9 view marks its detections on the
	// application's chart, not among the microbenchmarks'.
	Application bool `json:"application,omitempty"`
	// InitialThreshold is the detectors' initial threshold, and
	// ThresholdSource where it came from (calibrated, suite, given or
	// default).
	InitialThreshold float64 `json:"initial_threshold"`
	// ThresholdSource says where InitialThreshold came from.
	ThresholdSource string `json:"threshold_source,omitempty"`
	// Points are the series' commits, in commit order.
	Points []Point `json:"points"`
	// Detections index Points, ordered as package detect orders them.
	Detections []detect.Detection `json:"detections"`
}

// Impact is what a benchmark means for the application.
type Impact struct {
	// Reference is the benchmark's reference impact: the share of the
	// application's flat CPU time in the functions it covers (0..1). It
	// says how much of the application the benchmark runs, not what a
	// change does to it: the pages label it "reference impact (not an
	// estimate)" and place a detection by it only where its comparison
	// estimated no application impact ([Point].App).
	Reference float64 `json:"reference"`
}

// An Estimate is what a comparison estimated of a change's effect on the
// application (compare's app_impact, package culprit): the relative
// change of the application's CPU time, its interval, and whether the
// change lies outside the application's functions.
type Estimate struct {
	// Change is the estimated relative change (+0.068 is 6.8% more CPU
	// time), CI its interval.
	Change float64 `json:"change"`
	// CI is Change's interval.
	CI benchstats.Interval `json:"ci"`
	// Basis is what it was made from: "functions", "benchmark" or "none"
	// (culprit.Basis…).
	Basis string `json:"basis"`
	// NoImpact is compare's likely_no_app_impact.
	NoImpact bool `json:"likely_no_app_impact,omitempty"`
	// Culprits name the comparison's top culprit functions.
	Culprits []string `json:"culprits,omitempty"`
}

// A Point is one commit of a series as the pages' script reads it: the
// stored point (history.Point) with its commit as an index into
// Data.Commits, the detectors' threshold at it, and the names the script
// uses. [FromHistory] makes it.
type Point struct {
	// Commit indexes Data.Commits.
	Commit int `json:"commit"`
	// Point is the change against the baseline (0.05 is +5%) and its
	// confidence interval, as the series holds it (history.Point embeds
	// it); its fields are inlined in JSON.
	detect.Point
	// Threshold is the dynamic threshold the detectors judged the point
	// with.
	Threshold float64 `json:"threshold"`
	// Verdict is the comparison's own verdict.
	Verdict benchstats.Verdict `json:"verdict"`
	// VerdictThreshold is the threshold the verdict was taken against
	// when the comparison was made (0.01 for ±1%); 0 when not known.
	VerdictThreshold float64 `json:"verdict_threshold,omitempty"`
	// Base and Head are the medians of the baseline and the commit, in
	// Unit; 0 when not known.
	Base float64 `json:"base,omitempty"`
	// Head is the commit's median, in Unit; 0 when not known.
	Head float64 `json:"head,omitempty"`
	// Against is the full hash of the baseline the point was measured
	// against when it is not Data.Baseline but one of Data.Bridges' (the
	// change then carried over); empty otherwise.
	Against string `json:"against,omitempty"`
	// App is the comparison's estimate of the change's application
	// impact; nil when it made none. The Figure 8/9 view places a
	// detection at this point as high as |App.Change|.
	App *Estimate `json:"app_impact,omitempty"`
}

// Application is the application's measured series: the upper chart of
// the Figure 8/9 view. Only measurements are drawn there; a reference
// profile's total is none.
type Application struct {
	// Name names the application benchmark, such as "tsdbload inserts".
	Name string `json:"name"`
	// Unit is the unit of Values, such as "sec/op" or "ops/s".
	Unit string `json:"unit"`
	// Source says where the values come from: "measurements" of the
	// application benchmark per commit (compare --app-benchmark), or
	// "confirmation", the application workload measured on both versions
	// of each comparison (compare's app_measured).
	Source string `json:"source"`
	// Points are the application's values, in commit order.
	Points []AppPoint `json:"points"`
}

// An AppPoint is the application's value at one commit.
type AppPoint struct {
	// Commit indexes Data.Commits.
	Commit int `json:"commit"`
	// Value is the measurement, in Application.Unit.
	Value float64 `json:"value"`
	// CI is Value's interval; zero when not known.
	CI benchstats.Interval `json:"ci"`
	// Detected is set when the application benchmark's own series has a
	// detection here ([FromHistory]: the one series of its name and unit).
	Detected bool `json:"detected,omitempty"`
	// Definite is set when one of those detections is definite, and Kind
	// is the kind of the first of the most definite ones, in the order of
	// package detect.
	Definite bool `json:"definite,omitempty"`
	// Kind is the detection's kind, with Detected.
	Kind detect.Kind `json:"kind,omitempty"`
}

// Options change how [Write] renders a site.
type Options struct {
	// CommitURL is the link of a commit with "{commit}" for its full
	// hash, such as "https://github.com/o/r/commit/{commit}"; empty: no
	// commit links. Only http and https links are allowed.
	CommitURL string
	// Force lets Write overwrite files of the directory that no earlier
	// site wrote (see [ForeignError]); it never removes them.
	Force bool
}

// CheckCommitURL returns an error unless u is empty or an http or https
// URL template holding "{commit}".
func CheckCommitURL(u string) error {
	if u == "" {
		return nil
	}
	if !strings.Contains(u, "{commit}") {
		return fmt.Errorf("commit URL %q has no {commit} for the hash, such as https://github.com/OWNER/REPO/commit/{commit}", u)
	}
	p, err := url.Parse(strings.ReplaceAll(u, "{commit}", "0"))
	if err != nil {
		return fmt.Errorf("commit URL %q: %w", u, err)
	}
	if p.Scheme != "http" && p.Scheme != "https" || p.Host == "" {
		return fmt.Errorf("commit URL %q must be an http or https URL, such as https://github.com/OWNER/REPO/commit/{commit}", u)
	}
	return nil
}

// Check reports the first problem of d, naming the series and point: a
// commit index out of range or out of order, a detection index out of
// range, or a number that is not finite.
func (d *Data) Check() error {
	if d == nil {
		return errors.New("site: no data")
	}
	finite := func(vs ...float64) bool {
		for _, v := range vs {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
		return true
	}
	bases := map[string]bool{}
	for _, b := range d.Bridges {
		bases[b.From.Hash], bases[b.To.Hash] = true, true
	}
	for i, s := range d.Series {
		prev := -1
		for j, p := range s.Points {
			if p.Commit <= prev || p.Commit >= len(d.Commits) {
				return fmt.Errorf("site: series %s (%s), point %d: commit %d is not after %d and below %d", s.ID, s.Unit, j, p.Commit, prev, len(d.Commits))
			}
			prev = p.Commit
			if !finite(p.Change, p.CI.Low, p.CI.High, p.Threshold, p.VerdictThreshold, p.Base, p.Head) {
				return fmt.Errorf("site: series %s (%s), point %d: a value is not finite", s.ID, s.Unit, j)
			}
			if p.Against != "" && !bases[p.Against] {
				return fmt.Errorf("site: series %s (%s), point %d: measured against %s, which no bridge names", s.ID, s.Unit, j, p.Against)
			}
		}
		for _, det := range s.Detections {
			if det.Index < 0 || det.Index >= len(s.Points) {
				return fmt.Errorf("site: series %s (%s): detection at point %d of %d", s.ID, s.Unit, det.Index, len(s.Points))
			}
			if !finite(det.Change, det.Threshold) {
				return fmt.Errorf("site: series %s (%s): detection at point %d: a value is not finite", s.ID, s.Unit, det.Index)
			}
		}
		if im := s.Impact; im != nil && !finite(im.Reference) {
			return fmt.Errorf("site: series %d, %s (%s): its impact is not finite", i, s.ID, s.Unit)
		}
		for j, p := range s.Points {
			if a := p.App; a != nil && !finite(a.Change, a.CI.Low, a.CI.High) {
				return fmt.Errorf("site: series %s (%s), point %d: its estimated application impact is not finite", s.ID, s.Unit, j)
			}
		}
	}
	if a := d.Application; a != nil {
		prev := -1
		for j, p := range a.Points {
			if p.Commit <= prev || p.Commit >= len(d.Commits) {
				return fmt.Errorf("site: application %s, point %d: commit %d is not after %d and below %d", a.Name, j, p.Commit, prev, len(d.Commits))
			}
			prev = p.Commit
			if !finite(p.Value, p.CI.Low, p.CI.High) {
				return fmt.Errorf("site: application %s, point %d: a value is not finite", a.Name, j)
			}
		}
	}
	return nil
}
