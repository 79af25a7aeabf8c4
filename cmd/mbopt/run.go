package main

import (
	"context"
	"fmt"
	"time"

	"github.com/mbopt/mbopt/collect"
	"github.com/mbopt/mbopt/manifest"
	"github.com/mbopt/mbopt/pipeline"
	"github.com/spf13/cobra"
)

// runOptions holds the run command's flag values.
type runOptions struct {
	analyzeOptions
	collect    profileOptions
	appURL     string
	appSeconds int
	appPGO     bool
	appCmd     string
	appTimeout time.Duration
	appRuns    int
}

func newCmdRun(s *streams) *cobra.Command {
	o := &runOptions{}
	cmd := &cobra.Command{
		Use:   "run [DIR] (--app FILE | --app-url URL | --app-pgo | --app-cmd CMD) [flags]",
		Short: "Profile a module's benchmarks and its application, then analyse: one command",
		Long: `Run does everything on the Go module in DIR (default: the current directory):

 1. gets the application (reference) profile from one or more sources:
      --app FILE       an existing CPU profile (repeatable; NAME=FILE for scenarios)
      --app-url URL    a running program's /debug/pprof/profile, captured for
                       --app-seconds (give the base URL or the full profile URL)
      --app-pgo        the module's default.pgo files (Go's PGO profiles)
      --app-cmd CMD    a workload command run in DIR with sh -c; it must write a
                       CPU profile where {profile} stands (also in $MBOPT_CPUPROFILE)
    Several sources are merged into one application graph. --app-runs N runs
    the --app-cmd workload N times ($MBOPT_APP_RUN is the run's number),
    merges the profiles and says how many functions every run saw and how
    many only some did: functions seen by chance make coverage unstable.
 2. profiles every benchmark of the module as 'mbopt profile' does, into --out
    (default DIR/.mbopt/profiles); a rerun resumes and reuses complete profiles;
 3. prints the analysis as 'mbopt analyze' does.

Progress goes to stderr: a bar with counts and an ETA on a terminal, one line
per benchmark otherwise or when CI is set. The report goes to stdout.

Exit status: 0 success, 2 bad input (flags, no benchmarks, a bad application
profile), 1 when nothing could be profiled or another failure.`,
		Example: `  $ mbopt run --app-cmd 'go run ./cmd/loadtest -duration 30s -cpuprofile {profile}'
  $ mbopt run ~/src/myservice --app-url http://127.0.0.1:6060 --app-seconds 60
  $ mbopt run --app-cmd 'go run ./cmd/loadtest -cpuprofile {profile}' --app-runs 3
  $ mbopt run --app-pgo --benchtime 10s --recommend 5
  $ mbopt run --app prod.pprof --format json -o analysis.json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			return runRun(cmd.Context(), s, o, dir)
		},
	}
	f := cmd.Flags()
	addAnalysisFlags(cmd, &o.analyzeOptions)
	f.Lookup("app").Usage = "application CPU profile file; repeatable (NAME=FILE for scenarios)"
	must(f.MarkHidden("micro")) // the benchmarks are the ones run collects
	addCollectFlags(f, &o.collect)
	f.StringVar(&o.collect.out, "out", "", "directory for the benchmark profiles and manifest (default DIR/.mbopt/profiles)")
	f.StringVar(&o.appURL, "app-url", "", "capture the application profile from this running program's net/http/pprof `URL`")
	f.IntVar(&o.appSeconds, "app-seconds", pipeline.DefaultAppSeconds, "length of the --app-url capture, in seconds")
	f.BoolVar(&o.appPGO, "app-pgo", false, "use the module's default.pgo files as the application profile")
	f.StringVar(&o.appCmd, "app-cmd", "", "workload `command` that writes a CPU profile to {profile}")
	f.DurationVar(&o.appTimeout, "app-timeout", pipeline.DefaultAppTimeout, "kill the --app-cmd workload after this `duration`")
	f.IntVar(&o.appRuns, "app-runs", 1, "run the --app-cmd workload `N` times and merge the profiles; reports the functions seen in every run vs only some")
	f.StringVar(&o.format, "format", "text", "output format: {text|json|github} (as for analyze)")
	f.BoolVar(&o.explain, "explain", false, "list the functions each pick and recommendation adds, with their application time")
	f.StringVarP(&o.output, "output", "o", "", "write the result to this file (atomically) instead of stdout")
	return cmd
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func runRun(ctx context.Context, s *streams, o *runOptions, dir string) error {
	if len(o.micro) > 0 {
		return badInputf("--micro: run profiles the benchmarks itself; use 'mbopt analyze' for existing profiles")
	}
	if o.format != "text" && o.format != "json" && o.format != "github" {
		return badInputf("--format: invalid value %q: valid values are {text|json|github}", o.format)
	}
	if o.appSeconds <= 0 {
		return badInputf("--app-seconds must be positive, not %d", o.appSeconds)
	}
	if o.appTimeout <= 0 {
		return badInputf("--app-timeout must be positive, not %v", o.appTimeout)
	}
	if o.appRuns <= 0 {
		return badInputf("--app-runs must be positive, not %d", o.appRuns)
	}
	c := &o.collect
	// The pipeline checks DIR and gives --out its default; the other
	// collection flags are checked as for profile.
	check := *c
	check.dir, check.out = "", "."
	if err := check.validate(); err != nil {
		return err
	}
	acfg, err := o.analysisConfig()
	if err != nil {
		return err
	}
	if err := checkOutput(o.output, acfg); err != nil {
		return err
	}
	cc := c.collectConfig()
	cc.Dir = dir
	res, err := pipeline.Run(ctx, pipeline.Config{
		Config:     acfg,
		Collect:    cc,
		AppURL:     o.appURL,
		AppSeconds: o.appSeconds,
		AppPGO:     o.appPGO,
		AppCommand: o.appCmd,
		AppTimeout: o.appTimeout,
		AppRuns:    o.appRuns,
		Collector: func(ctx context.Context, cc collect.Config) (*manifest.Manifest, error) {
			return c.collect(ctx, s, cc)
		},
		Logf:   func(format string, args ...any) { fmt.Fprintf(s.Err, "mbopt: "+format+"\n", args...) },
		Stderr: s.Err,
	})
	if err != nil {
		return classify(err)
	}
	inFlagWordsReport(res.Report)
	if r := res.AppRuns; r != nil {
		fmt.Fprintf(s.Err, "mbopt: workload: %d runs: %d functions seen, %d in every run, %d in only some (project: %d seen, %d in every run, %d in only some)\n",
			len(r.Files), r.Seen, r.Every, r.Some(), r.ProjectSeen, r.ProjectEvery, r.ProjectSome())
	}
	return printAnalysis(s, &o.analyzeOptions, res.Report)
}
