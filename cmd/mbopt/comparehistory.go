package main

import (
	"github.com/spf13/pflag"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/flow"
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
	cli.Bind(f, &o.path, "history", "", "store the report in this history database (default: .mbopt/history.db in the module root; a shard's results are stored by compare merge); mbopt history reads it", flow.FieldHistory)
	cli.Bind(f, &o.noHistory, "no-history", false, "do not store the report in the history, nor use its calibrated thresholds", flow.FieldNoHistory)
	cli.Bind(f, &o.aa, "aa", false, "A/A calibration: compare the head with itself, store each benchmark's instability, and calibrate the thresholds later comparisons use", compare.FieldAA)
	cli.Bind(f, &o.appBench, "app-benchmark", "", appBenchUsage, flow.FieldAppBenchmark, compare.FieldConfirmBenchmark)
}

const appBenchUsage = "the compared benchmark that is the application benchmark: its measurement is stored in the history as the application's, which history --html draws above the detections (default: the --app profile's total)"

// addMergeHistoryFlags registers compare merge's history flags on f.
func addMergeHistoryFlags(f *pflag.FlagSet, o *compareHistoryOptions) {
	cli.Bind(f, &o.path, "history", "", "store the merged report in this history database, as mbopt compare stores its report (default: .mbopt/history.db in the module root)", flow.FieldHistory)
	cli.Bind(f, &o.noHistory, "no-history", false, "do not store the merged report in the history, nor use its calibrated thresholds", flow.FieldNoHistory)
	cli.Bind(f, &o.appBench, "app-benchmark", "", appBenchUsage, flow.FieldAppBenchmark, compare.FieldConfirmBenchmark)
}

// checkHistoryFlags refuses --no-history with --history.
func checkHistoryFlags(f *pflag.FlagSet, o *compareHistoryOptions) error {
	if o.noHistory && f.Changed("history") {
		return mbopt.Errorf("--no-history and --history %s contradict each other: give one", o.path)
	}
	return nil
}
