package main

import (
	"github.com/spf13/pflag"

	"github.com/mbopt/mbopt"
)

// compareHistoryOptions are compare's history and calibration flags.
type compareHistoryOptions struct {
	path      string
	noHistory bool
	aa        bool
	// appBench is --app-benchmark.
	appBench string
}

// addCompareHistoryFlags registers compare's history flags on f.
func addCompareHistoryFlags(f *pflag.FlagSet, o *compareHistoryOptions) {
	f.StringVar(&o.path, "history", "", "store the report in this history database (default: .mbopt/history.db in the module root; a shard's results are stored by compare merge); mbopt history reads it")
	f.BoolVar(&o.noHistory, "no-history", false, "do not store the report in the history, nor use its calibrated thresholds")
	f.BoolVar(&o.aa, "aa", false, "A/A calibration: compare the head with itself, store each benchmark's instability, and calibrate the thresholds later comparisons use")
	f.StringVar(&o.appBench, "app-benchmark", "", appBenchUsage)
}

const appBenchUsage = "the compared benchmark that is the application benchmark: its measurement is stored in the history as the application's, which history --html draws above the detections (default: the --app profile's total)"

// addMergeHistoryFlags registers compare merge's history flags on f.
func addMergeHistoryFlags(f *pflag.FlagSet, o *compareHistoryOptions) {
	f.StringVar(&o.path, "history", "", "store the merged report in this history database, as mbopt compare stores its report (default: .mbopt/history.db in the module root)")
	f.BoolVar(&o.noHistory, "no-history", false, "do not store the merged report in the history, nor use its calibrated thresholds")
	f.StringVar(&o.appBench, "app-benchmark", "", appBenchUsage)
}

// checkHistoryFlags refuses --no-history with --history.
func checkHistoryFlags(f *pflag.FlagSet, o *compareHistoryOptions) error {
	if o.noHistory && f.Changed("history") {
		return mbopt.Errorf("--no-history and --history %s contradict each other: give one", o.path)
	}
	return nil
}
