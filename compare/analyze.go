package compare

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/compare/engine"
)

// An Input is one raw result file to [AnalyzeReaders].
type Input struct {
	// Name names the file in errors.
	Name string
	// R holds the file's content.
	R io.Reader
}

// Analyze reads raw result files written by [Run] (one per version, or
// several of each, such as the shards of one comparison) and compares
// every benchmark and unit measured in both versions; see
// [AnalyzeReaders].
func Analyze(files []string, s Settings, impacts map[string]callgraph.Impact) (*Report, error) {
	d, err := engine.ReadFiles(files)
	if err != nil {
		return nil, err
	}
	return report(d, s, impacts)
}

// AnalyzeReaders is [Analyze] on readers. The files' "# mbopt-compare"
// lines say which version, trial and run the results after them belong
// to; results are grouped by benchmark id (the "pkg:" configuration, a
// dot and the full name without its GOMAXPROCS suffix) and unit.
//
// Each benchmark and unit measured in both versions is a [Compared]
// result: the relative change of the medians with a hierarchical
// bootstrap interval (s.Resamples, s.Confidence, s.Seed), classified
// against s.Threshold, and the U-test's p-value. Which direction is better
// comes from the unit (golang.org/x/perf/benchfmt: higher is better for
// throughput such as B/s; lower for sec/op, B/op, allocs/op and every
// unknown unit). One measured in only the head is [Added], only the base
// [Removed]. impacts (benchmark id → [callgraph.Impact], may be nil) adds each
// benchmark's reference impact. Results are sorted by [SortResults]. The
// report's Base and Head hold only the commits; Run fills in the rest.
func AnalyzeReaders(inputs []Input, s Settings, impacts map[string]callgraph.Impact) (*Report, error) {
	d := engine.NewData()
	for _, in := range inputs {
		if err := d.Read(in.Name, in.R); err != nil {
			return nil, err
		}
	}
	return report(d, s, impacts)
}

// report computes the report of the raw data.
func report(d *engine.Data, s Settings, impacts map[string]callgraph.Impact) (*Report, error) {
	s = s.withDefaults()
	if err := s.check(); err != nil {
		return nil, err
	}
	rep := &Report{Schema: SchemaVersion, Settings: s,
		Base: Revision{Commit: d.Commits[Base]}, Head: Revision{Commit: d.Commits[Head]}}
	keys := make([]engine.Key, 0, len(d.Order)) // of each result
	for _, k := range d.Order {
		who := d.Benches[k.ID]
		r := Result{ID: k.ID, Package: who.Package, Name: who.Name, Unit: k.Unit}
		if imp, ok := impacts[k.ID]; ok {
			imp := imp
			r.Impact = &imp
		}
		b, h := d.Samples[Base][k], d.Samples[Head][k]
		switch {
		case b == nil:
			r.Status, r.Trials = Added, h.H.Trials()
		case h == nil:
			r.Status, r.Trials = Removed, b.H.Trials()
		default:
			r.Status = Compared
			r.Trials = min(b.H.Trials(), h.H.Trials())
			est, err := benchstats.Compare(b.H, h.H, bootstrapOptions(s, k, s.Resamples))
			switch {
			case errors.Is(err, benchstats.ErrZeroMedian):
				// A unit that is 0 in the base (0 allocs/op) has no
				// relative change; equal medians are unchanged.
				r.Error = "the base median is 0, so there is no relative change"
				r.Verdict = benchstats.Unchanged
				minN := benchstats.MinSamples(s.Confidence)
				if b.H.Len() < minN || h.H.Len() < minN {
					r.TooFew = true
				} else if m := benchstats.Median(h.H.Values()); m != 0 {
					r.Verdict = benchstats.Classify(benchstats.Estimate{Change: math.Inf(1), CI: benchstats.Interval{Low: math.Inf(1), High: math.Inf(1)}}, s.Threshold, b.Better > 0)
					r.Error = fmt.Sprintf("the base median is 0 and the head median %g", m)
				}
				r.PValue = benchstats.UTest(b.H.Values(), h.H.Values())
				rep.Results = append(rep.Results, r)
				keys = append(keys, k)
				continue
			case err != nil:
				return nil, fmt.Errorf("%s %s: %w", k.ID, k.Unit, err)
			}
			r.Estimate = &est
			r.Instability = est.Instability()
			r.PValue = benchstats.UTest(b.H.Values(), h.H.Values())
		}
		rep.Results = append(rep.Results, r)
		keys = append(keys, k)
	}
	if err := sharpen(d, rep, keys); err != nil {
		return nil, err
	}
	judge(rep, nil)
	SortResults(rep.Results)
	return rep, nil
}

// bootstrapOptions returns the bootstrap's options for benchmark and unit
// k with n resamples. Each benchmark and unit gets its own stream of
// resamples, so adding a benchmark does not change another's interval.
func bootstrapOptions(s Settings, k engine.Key, n int) benchstats.Options {
	return benchstats.Options{Resamples: n, Confidence: s.Confidence, Seed: s.Seed ^ engine.Hash(k.ID+"\x00"+k.Unit)}
}

// sharpen resamples again the p-values that sit at their floor
// (benchstats.PFloor of Settings.Resamples: every resample on one side of
// 0) and that the correction would otherwise not pass, with
// benchstats.ResamplesFor the number of tests (judge's [tests]) at
// Settings.FDR, so that such a p-value can pass the correction on its own
// however many benchmarks the suite has: 10,000 resamples give no p-value
// below 0.0002, which Benjamini–Hochberg over more than 250 tests at 5%
// cannot pass. The same seed draws the same first resamples, so a p-value
// only gets finer; the interval keeps Settings.Resamples. keys[i] is the
// benchmark and unit of rep.Results[i]. At most 2·tests/(q·Resamples)
// p-values can sit at the floor without passing (12 among 3,000 tests),
// so the cost stays small.
func sharpen(d *engine.Data, rep *Report, keys []engine.Key) error {
	s := rep.Settings
	idx := tests(rep)
	need := benchstats.ResamplesFor(len(idx), s.FDR)
	if need <= s.Resamples {
		return nil
	}
	ps := make([]float64, len(idx))
	for k, i := range idx {
		ps[k] = rep.Results[i].Estimate.P
	}
	floor := benchstats.PFloor(s.Resamples)
	for k, a := range benchstats.AdjustBH(ps) {
		e := rep.Results[idx[k]].Estimate
		if a <= s.FDR || e.P > floor*(1+1e-9) {
			continue
		}
		key := keys[idx[k]]
		fine, err := benchstats.Compare(d.Samples[Base][key].H, d.Samples[Head][key].H, bootstrapOptions(s, key, need))
		if err != nil {
			return fmt.Errorf("%s %s: %w", key.ID, key.Unit, err)
		}
		e.P, e.PResamples = fine.P, need
	}
	return nil
}

// group ranks a result for [SortResults].
func group(r Result) int {
	if r.Status != Compared {
		switch r.Status {
		case BuildFailed:
			return 5
		case Failed:
			return 6
		case Skipped:
			return 7
		case Added:
			return 8
		case Removed:
			return 9
		}
		return 10
	}
	// 0 for a definite regression … 4 for unchanged.
	return 4 - r.Verdict.Severity()
}

// SortResults sorts results by the report's rule: first by group — the
// verdicts most severe first (benchstats.Verdict.Severity: definite
// regressions, potential regressions, definite improvements, potential
// improvements, unchanged), then the results without a verdict: build
// failures, failures, skipped, added, removed; within a group by
// Impact.Attributed, highest first (results with an impact before those
// without), then by the size of the change |Estimate.Change|, largest
// first, then by id and unit.
func SortResults(rs []Result) {
	slices.SortStableFunc(rs, func(a, b Result) int {
		if c := cmp.Compare(group(a), group(b)); c != 0 {
			return c
		}
		if (a.Impact != nil) != (b.Impact != nil) {
			if a.Impact != nil {
				return -1
			}
			return 1
		}
		if a.Impact != nil {
			if c := cmp.Compare(b.Impact.Attributed, a.Impact.Attributed); c != 0 {
				return c
			}
		}
		if c := cmp.Compare(absChange(b), absChange(a)); c != 0 {
			return c
		}
		if c := strings.Compare(a.ID, b.ID); c != 0 {
			return c
		}
		if c := strings.Compare(a.Unit, b.Unit); c != 0 {
			return c
		}
		return strings.Compare(a.Side, b.Side)
	})
}

func absChange(r Result) float64 {
	if r.Estimate == nil {
		return 0
	}
	return math.Abs(r.Estimate.Change)
}
