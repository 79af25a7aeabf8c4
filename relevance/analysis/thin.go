package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/coverage"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/recommend"
)

// Thresholds of thin profiles ([ThinProfileWarning], [ThinBenchmark]), in
// samples the profiler took (callgraph.Graph.SamplesTaken,
// Footprint.SamplesTaken).
//
// A function that takes a share s of a profile's CPU time appears in a
// profile of N samples with probability 1 − e^(−N·s), and a coverage set
// holds only the functions that appear.
const (
	// MinBenchmarkSamples: 100 samples are 1 s of CPU at Go's 100 Hz,
	// the time a benchmark gets at go test's default -benchtime of 1s.
	// Below it, a function taking 3% of the benchmark's time is missed
	// more than 5% of the time (1 − e^(−3) = 95% seen at 100 samples),
	// and 1% ones a third of the time, so the benchmark's coverage set
	// depends on chance.
	MinBenchmarkSamples = 100
	// MinAppSamples: 500 samples are 5 s of CPU at 100 Hz. The
	// application profile defines what coverage means, so it needs more:
	// at 500 samples a function taking 0.6% of the workload's time is
	// seen 95% of the time; with fewer, the project coverage of two runs
	// of the same workload differs by several points.
	MinAppSamples = 500
)

// isThin reports whether a benchmark's footprint is thin: a CPU profile
// that took fewer than [MinBenchmarkSamples] samples. Function sets (exact
// coverage) and non-CPU profiles are never thin.
func isThin(fp *callgraph.Footprint) bool {
	return fp.Unit == "seconds" && fp.SamplesTaken < MinBenchmarkSamples
}

// ThinProfileWarning is a warning: the application profile took fewer
// samples than [MinAppSamples], so functions taking a small share of its
// time may be missing from its graph.
type ThinProfileWarning struct {
	// Files are the profile files (several for a merged application).
	Files []string
	// Scenario names the application scenario, when there are several.
	Scenario string
	// Samples is the number of samples the profiler took, Min the
	// threshold.
	Samples, Min int64
}

// Error returns the warning with its fix.
func (t *ThinProfileWarning) Error() string {
	what := "application profile"
	if t.Scenario != "" {
		what = "scenario " + t.Scenario
	}
	return fmt.Sprintf("%s %s has only %d CPU samples, under the %d (5 s of CPU at 100 Hz) it needs: functions taking under 1%% of its time may be missing, so coverage can change from run to run; profile the workload longer or merge the profiles of several runs",
		what, strings.Join(t.Files, ", "), t.Samples, t.Min)
}

// ThinBenchmark is a benchmark whose CPU profile took fewer than
// [MinBenchmarkSamples] samples: functions it ran briefly may be missing
// from its coverage set, so its coverage is a lower bound.
//
// What it may hide (Hidden) follows recommend.Unseen: the project functions
// that no benchmark is seen to cover and that the application graph (its
// sampled call edges) reaches from a project function the thin profile
// covers. Algorithm 3 credits a benchmark of F with everything F reaches;
// by the same assumption a benchmark seen in F may have run any of that
// without a sample. With callable targets the recommendations leave these
// functions out (recommend.Result.Withheld); with the paper's targets they
// only mark them.
type ThinBenchmark struct {
	// ID is the benchmark's id and File its profile.
	ID, File string
	// Samples is the number of samples the profiler took: its CPU time in
	// hundredths of a second.
	Samples int64
	// Seconds is the wall-clock time the profile covers, 0 when it does
	// not record it; a CPU time far below it means the benchmark mostly
	// waits (fsync, sleep, locks, the network).
	Seconds float64
	// BenchTime is the benchtime of the collection (its manifest's), ""
	// when unknown.
	BenchTime string
	// Longer is the benchtime that gives about [MinBenchmarkSamples]
	// samples: BenchTime (go test's default 1s when unknown) times
	// MinBenchmarkSamples/Samples, rounded up, for `mbopt profile
	// --benchtime`.
	Longer string
	// Hidden holds the ids of the application's project nodes that this
	// benchmark may have run without a sample (see the type's
	// documentation), in increasing order.
	Hidden []int

	set int // index in Report.Coverage.Sets
}

// longerBenchTime returns benchTime scaled so that a profile of samples
// samples would take about MinBenchmarkSamples: "Nx" iterations scale N,
// a duration is scaled and rounded up to whole seconds (to whole
// milliseconds under a second); "" or a benchtime it cannot read means go
// test's default 1s.
func longerBenchTime(benchTime string, samples int64) string {
	factor := int64(math.Ceil(float64(MinBenchmarkSamples) / float64(max(samples, 1))))
	if n, ok := strings.CutSuffix(benchTime, "x"); ok {
		if iters, err := strconv.ParseInt(n, 10, 64); err == nil && iters > 0 {
			return strconv.FormatInt(iters*factor, 10) + "x"
		}
	}
	d, err := time.ParseDuration(benchTime)
	if err != nil || d <= 0 {
		d = time.Second
	}
	d *= time.Duration(factor)
	if d >= time.Second {
		return strconv.FormatInt(int64((d+time.Second-1)/time.Second), 10) + "s"
	}
	return strconv.FormatInt(int64((d+time.Millisecond-1)/time.Millisecond), 10) + "ms"
}

// thinBenchmarks returns the thin benchmarks of benches (in their order,
// which is by id) with what each may hide, walking cov's application graph.
func thinBenchmarks(cov *coverage.Result, benches []loaded) []ThinBenchmark {
	var out []ThinBenchmark
	for i, b := range benches {
		if !isThin(b.fp) {
			continue
		}
		t := ThinBenchmark{ID: b.id, File: b.file, Samples: b.fp.SamplesTaken, Seconds: b.fp.Duration,
			BenchTime: b.benchTime, Longer: longerBenchTime(b.benchTime, b.fp.SamplesTaken), set: i}
		for _, v := range recommend.Unseen(cov.App, cov.Covered, cov.Sets[i].Nodes) {
			if cov.App.Nodes[v].Project {
				t.Hidden = append(t.Hidden, v)
			}
		}
		out = append(out, t)
	}
	return out
}

// recommendThin returns the thin benchmarks as Algorithm 3 takes them.
func recommendThin(cov *coverage.Result, thin []ThinBenchmark) []recommend.Thin {
	var out []recommend.Thin
	for _, t := range thin {
		out = append(out, recommend.Thin{ID: t.ID, Covered: cov.Sets[t.set].Nodes})
	}
	return out
}

// ThinBenchmarksWarning is one warning for every benchmark profile that
// took fewer samples than [MinBenchmarkSamples] (see [ThinBenchmark]). One
// warning for all of them, since they share the cause and the fix (a
// longer benchtime, or exact coverage).
type ThinBenchmarksWarning struct {
	// Benchmarks are the thin profiles, sorted by id.
	Benchmarks []ThinBenchmark
	// Min is the threshold.
	Min int64
	// Hidden counts the distinct project functions they may hide.
	Hidden int
}

// ByThinness returns the thin benchmarks bs sorted by samples, fewest
// first, then in bs's order (by id): the first one's Longer is the
// benchtime that gives every one of them about [MinBenchmarkSamples], which
// the fixes of thin profiles suggest. bs is not modified.
func ByThinness(bs []ThinBenchmark) []ThinBenchmark {
	bs = slices.Clone(bs)
	slices.SortStableFunc(bs, func(a, b ThinBenchmark) int { return cmp.Compare(a.Samples, b.Samples) })
	return bs
}

// Error names the thinnest profiles (up to three, fewest samples first,
// then by id), what they may hide and the fixes.
func (t *ThinBenchmarksWarning) Error() string {
	bs := ByThinness(t.Benchmarks)
	var names []string
	for _, b := range bs[:min(3, len(bs))] {
		names = append(names, fmt.Sprintf("%s: %d (%s)", b.ID, b.Samples, b.File))
	}
	list := strings.Join(names, "; ")
	if more := len(bs) - len(names); more > 0 {
		list += fmt.Sprintf("; and %d more", more)
	}
	verb := "have"
	if len(bs) == 1 {
		verb = "has"
	}
	hidden := ""
	if t.Hidden > 0 {
		hidden = fmt.Sprintf(", so %s no benchmark is seen to run may have run unseen", textutil.Plural(t.Hidden, "project function"))
	}
	return fmt.Sprintf("%s %s under %d CPU samples (1 s of CPU at 100 Hz), fewest first: %s; functions taking a few percent of a benchmark's time may be missing from its coverage%s: profile longer (mbopt profile --benchtime %s gives the thinnest about %d samples) or record exact coverage (mbopt profile --source cover)",
		textutil.Plural(len(bs), "benchmark profile"), verb, t.Min, list, hidden, bs[0].Longer, t.Min)
}

// thinProfiles returns the thin-profile warnings: the application's, then
// one for all thin benchmarks. Non-CPU profiles (Config.AllowNonCPU) are
// not checked.
func thinProfiles(app []string, appSamples int64, cpu bool, thin []ThinBenchmark) []error {
	var out []error
	if cpu && appSamples < MinAppSamples {
		out = append(out, &ThinProfileWarning{Files: app, Samples: appSamples, Min: MinAppSamples})
	}
	if len(thin) > 0 {
		w := &ThinBenchmarksWarning{Benchmarks: thin, Min: MinBenchmarkSamples}
		hidden := map[int]bool{}
		for _, b := range thin {
			for _, v := range b.Hidden {
				hidden[v] = true
			}
		}
		w.Hidden = len(hidden)
		out = append(out, w)
	}
	return out
}
