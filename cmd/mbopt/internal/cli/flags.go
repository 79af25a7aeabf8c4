package cli

import (
	"errors"
	"math"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/enum"
	"github.com/mbopt/mbopt/internal/textutil"
)

// flags maps the library's settings — the mbopt.Field paths of
// analysis.Config, relevance/flow's Config, collect.Config,
// compare.Options, compare/flow's CompareConfig and HistoryConfig, and
// detect.Options — to the flags that set them, so that library errors and
// warnings read in the command's vocabulary. The packages' paths do not
// collide: where two name the same path (Out, Bench, Shard) one flag sets
// both. A path without a flag (collect's and compare's Dir, the current
// directory) is named as Go names it, or not at all before a message.
var flags = map[mbopt.Field]string{
	// analysis.Config and relevance/flow.Config
	"App": "--app", "Scenarios.Weight": "--weight", "Micro": "--micro", "Modules": "--module", "Exclude": "--exclude",
	"Targets": "--targets", "Nodes": "--nodes", "Strict": "--strict", "Impact": "--impact", "Recommend": "--recommend", "KeepNegligible": "--keep-negligible",
	"Edges": "--edges", "AppFunctions": "--app-cover", "Static.Dir": "--static-dir",
	"Select.Objective": "--objective", "Select.Budget": "--budget", "Select.CostsFile": "--costs",
	"Select.DefaultCost": "--default-cost", "Select.Top": "--top", "Select.MinGain": "--min-gain",
	"Select.ExcludeBenchmarks": "--max-instability", "MaxInstability": "--max-instability",
	"AppURL": "--app-url", "AppSeconds": "--app-seconds", "AppPGO": "--app-pgo", "AppCommand": "--app-cmd",
	"AppRuns": "--app-runs", "AppTimeout": "--app-timeout", "AppWorkloads": "--app-cmd NAME=CMD", "AppOut": "--app-out",
	"Collect.Out": "--out", "Collect.Dir": "DIR",
	// collect.Config and compare.Options
	"Out": "--out", "Bench": "--bench", "Skip": "--skip", "Patterns": "PATTERN", "Source": "--source",
	"BenchTime": "--benchtime", "Timeout": "--timeout", "DiscoveryTimeout": "--discovery-timeout", "Jobs": "-j", "Mod": "--mod",
	"Shard": "--shard", "ShardCosts": "--shard-costs", "Scope": "--scope",
	"Base": "--base", "Head": "--head", "Benchmarks": "--suite", "Packages": "PACKAGES",
	"TrialShard": "--trial-shard", "OnlyAffected": "--only-affected", "AA": "--aa", "FailOn": "--fail-on",
	"Settings.Trials": "--trials", "Settings.Runs": "--runs", "Settings.Count": "--count",
	"Settings.BenchTime": "--benchtime", "Settings.Threshold": "--threshold",
	"Settings.Confidence": "--confidence", "Settings.Resamples": "--resamples",
	"Settings.UntilStable": "--until-stable", "Settings.Budget": "--budget",
	"Settings.Metric": "--metric", "Settings.FDR": "--fdr", "Settings.Duet": "--duet",
	// compare/flow.CompareConfig, MergeConfig and RebaselineConfig, and changes.Since
	"SuiteFile": "--suite", "Analysis.App": "--app", "Analysis.Micro": "--micro", "Analysis.Modules": "--module",
	"History": "--history", "NoHistory": "--no-history", "ChangedSince": "--changed-since", "Output": "-o",
	"StepSummary": "$GITHUB_STEP_SUMMARY", "AppBenchmark": "--app-benchmark", "Confirm": "--confirm",
	"Confirm.Benchmark": "--app-benchmark", "Confirm.Command": "--app-cmd", "Relevance.Application": "--app", "MinCoverage": "--min-coverage", "AllowEmpty": "--allow-empty", "From": "--from", "To": "--to",
	// compare/flow.HistoryConfig and trend.Outputs
	"Baseline": "--baseline", "Unit": "--unit", "Metric": "--metric", "Plot": "--plot", "HTML": "--html",
	"Format": "--format", "CommitURL": "--commit-url", "Instability": "--instability",
	// bisect.Options
	"Good": "--good", "Bad": "--bad", "MaxRepetitions": "--max-repetitions",
	"Settings.AppImpactThreshold": "--app-impact-threshold", "Explain": "--explain",
	// reference.CoverOptions
	"CoverPkg": "--coverpkg", "CoverDir": "--gocoverdir",
	// detect.Options
	"InitialThreshold": "--initial-threshold", "Factor": "--factor", "Widths": "--widths",
	"Floor": "--floor", "Window": "--window", "Fixed": "--fixed", "Detectors": "--detector",
}

// Flag names a library setting by its flag, or as Go does when no flag sets
// it.
func Flag(f mbopt.Field) string {
	if name, ok := flags[f]; ok {
		return name
	}
	return f.String()
}

// Given returns whether the flag of fs that sets the library setting f was
// given on the command line: the library's Chosen hooks (such as
// compare/flow.CompareConfig.Chosen).
func Given(fs *pflag.FlagSet) func(f mbopt.Field) bool {
	return func(f mbopt.Field) bool {
		name, ok := flags[f]
		return ok && fs.Changed(strings.TrimPrefix(name, "--"))
	}
}

// limitFlags maps the callgraph.Limits fields that library messages name,
// as "(Limits.Field)", to the flags that set them.
var limitFlags = strings.NewReplacer(
	"(Limits.MaxFileBytes)", "(raise it with --max-profile-bytes)",
	"(Limits.MaxDecodedBytes)", "(raise it with --max-decoded-bytes)",
)

// Words returns msg with the library's names of the profile size limits
// replaced by the flags that set them.
func Words(msg string) string { return limitFlags.Replace(msg) }

// texter is implemented by the library's errors and warnings that name
// settings: mbopt.Error and the analysis warnings with a Text method.
type texter interface {
	error
	Text(name func(mbopt.Field) string) string
}

// worded is a library error or warning worded with flag names. It unwraps
// to the library's value, so errors.Is and errors.As still see it.
type worded struct {
	msg string
	err error
}

func (e *worded) Error() string { return e.msg }
func (e *worded) Unwrap() error { return e.err }

// Word returns err worded with the command's flags: the settings an
// [*mbopt.Error] names, or its Field's flag before its message (override
// names fields first, then the table), a warning's settings and the size
// limits. The result unwraps to err.
func Word(err error, override map[mbopt.Field]string) error {
	var w *worded
	if err == nil || errors.As(err, &w) {
		return err
	}
	flag := func(f mbopt.Field) (string, bool) {
		if n, ok := override[f]; ok {
			return n, true
		}
		n, ok := flags[f]
		return n, ok
	}
	name := func(f mbopt.Field) string {
		if n, ok := flag(f); ok {
			return n
		}
		return f.String()
	}
	msg := err.Error()
	var ie *mbopt.Error
	if t, ok := err.(texter); ok && !errors.As(err, &ie) {
		msg = t.Text(name) // a warning, or another error that names settings
	} else if errors.As(err, &ie) {
		text := ie.Text(name)
		if n, ok := flag(ie.Field); ok && ie.Field != "" {
			text = n + ": " + text
		}
		msg = strings.Replace(msg, ie.Error(), text, 1)
	}
	if msg = Words(msg); msg == err.Error() {
		return err
	}
	return &worded{msg, err}
}

// Enum checks that the flag's value is one of valid (enum.Check).
func Enum(flag, value string, valid ...string) error {
	if err := enum.Check("invalid value", value, valid...); err != nil {
		return mbopt.Errorf("%s: %w", flag, err)
	}
	return nil
}

// Size is a flag holding a byte count written as textutil.ParseSize reads
// it; 0 (not set) prints as "".
type Size struct {
	N *int64 // the count the flag sets
}

// Set parses s.
func (v Size) Set(s string) error {
	n, err := textutil.ParseSize(s)
	if err != nil {
		return err
	}
	*v.N = n
	return nil
}

// String returns the size as textutil.FormatSize writes it.
func (v Size) String() string {
	if v.N == nil || *v.N == 0 {
		return ""
	}
	return textutil.FormatSize(*v.N)
}

// Type names the flag's value in the usage.
func (Size) Type() string { return "size" }

// CheckFinite refuses a NaN or infinite value of any float flag set on the
// command line: the one check of every float flag, which the root command
// applies before any command runs (a range check such as threshold < 0
// lets NaN through).
func CheckFinite(fs *pflag.FlagSet) error {
	var err error
	fs.Visit(func(f *pflag.Flag) {
		if f.Value.Type() != "float64" || err != nil {
			return
		}
		if x, gerr := fs.GetFloat64(f.Name); gerr == nil && (math.IsNaN(x) || math.IsInf(x, 0)) {
			err = mbopt.Errorf("--%s %s: want a finite number, such as its default %s", f.Name, f.Value, f.DefValue)
		}
	})
	return err
}
