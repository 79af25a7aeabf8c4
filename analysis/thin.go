package analysis

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mbopt/mbopt/internal/textutil"
)

// Thresholds of the thin-profile warnings ([ThinProfileWarning]), in
// samples the profiler took (callgraph.Graph.SamplesTaken, Footprint.SamplesTaken).
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

// ThinBenchmark is one benchmark profile of a [ThinBenchmarksWarning].
type ThinBenchmark struct {
	// ID is the benchmark's id and File its profile.
	ID, File string
	// Samples is the number of samples the profiler took.
	Samples int64
}

// ThinBenchmarksWarning is one warning for every benchmark profile that
// took fewer samples than [MinBenchmarkSamples]: functions taking a few
// percent of such a benchmark's time may be missing from its coverage set.
// One warning for all of them, since they share the cause and the fix (a
// longer benchtime).
type ThinBenchmarksWarning struct {
	// Benchmarks are the thin profiles, sorted by id.
	Benchmarks []ThinBenchmark
	// Min is the threshold.
	Min int64
}

// Error names the thinnest profiles (up to three, fewest samples first,
// then by id) and the fix.
func (t *ThinBenchmarksWarning) Error() string {
	bs := slices.Clone(t.Benchmarks)
	slices.SortStableFunc(bs, func(a, b ThinBenchmark) int { return cmp.Compare(a.Samples, b.Samples) })
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
	return fmt.Sprintf("%s %s under %d CPU samples (1 s of CPU at 100 Hz), fewest first: %s; functions taking a few percent of a benchmark's time may be missing from its coverage: profile longer (raise the benchtime, e.g. mbopt profile --benchtime 10s)",
		textutil.Plural(len(bs), "benchmark profile"), verb, t.Min, list)
}

// thinProfiles returns the thin-profile warnings: the application's, then
// one for all thin benchmarks (sorted by id). Non-CPU profiles
// (Config.AllowNonCPU) are not checked.
func thinProfiles(app []string, appSamples int64, cpu bool, benches []loaded) []error {
	var out []error
	if cpu && appSamples < MinAppSamples {
		out = append(out, &ThinProfileWarning{Files: app, Samples: appSamples, Min: MinAppSamples})
	}
	thin := &ThinBenchmarksWarning{Min: MinBenchmarkSamples}
	for _, b := range benches {
		if b.fp.Unit == "seconds" && b.fp.SamplesTaken < MinBenchmarkSamples {
			thin.Benchmarks = append(thin.Benchmarks, ThinBenchmark{ID: b.id, File: b.file, Samples: b.fp.SamplesTaken})
		}
	}
	if len(thin.Benchmarks) > 0 {
		out = append(out, thin)
	}
	return out
}
