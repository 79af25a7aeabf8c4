package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/engine"
	"github.com/mbopt/mbopt/internal/flagbind"
	"github.com/mbopt/mbopt/internal/progress"
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// profileOptions holds the profile command's flag values and its
// injectable dependencies.
type profileOptions struct {
	collect.Config                  // the collection, as the flags set it
	sub            bool             // --sub: Config.TopLevelOnly is its negation
	strict         bool             // --strict
	shard          string           // --shard as given
	shardCosts     string           // --shard-costs as given
	terminal       bool             // draw a progress bar instead of logging lines
	width          int              // terminal width for the bar
	now            func() time.Time // clock for elapsed time and ETA
	collectRun     func(context.Context, collect.Config) (*manifest.Manifest, error)
}

func newCmdProfile(s *streams) *cobra.Command {
	return profileCmd(s, runProfile)
}

// profileCmd builds the profile command; runF does the work, so tests can
// check flag parsing alone.
func profileCmd(s *streams, runF func(context.Context, *streams, *profileOptions) error) *cobra.Command {
	o := &profileOptions{}
	cmd := &cobra.Command{
		Use:   "profile [PATTERN...] [flags]",
		Short: "Record one CPU profile per benchmark of a Go module",
		Example: `  $ mbopt profile --out profiles
  $ mbopt profile ./storage/... --bench 'Encode|Decode' --benchtime 10s -j 1 --out profiles
  $ mbopt profile -C ~/src/prometheus ./tsdb/... --out /tmp/prom --timeout 2m
  $ mbopt profile --out profiles --strict    # in CI: fail if any benchmark fails
  $ mbopt profile --shard 1/3 --out shard-1  # one of 3 CI jobs; then: mbopt merge shard-* -o profiles`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				o.Patterns = args
			}
			if err := o.validate(); err != nil {
				return err
			}
			var err error
			if o.Shard, o.ShardCosts, err = manifest.ResolveShard(o.shard, o.shardCosts, os.Getenv); err != nil {
				return err
			}
			return runF(cmd.Context(), s, o)
		},
	}
	f := cmd.Flags()
	flagbind.Name("PATTERN", collect.FieldPatterns)
	flagbind.Bind(f, &o.Out, "out", "profiles", "output `directory` for the manifest, profiles and logs", collect.FieldOut)
	flagbind.Bind(f, (*string)(&o.Source), "source", string(manifest.SourceProfile), "what to record per benchmark: {profile|cover|instructions} (cover: the functions it executed, exactly, from a -cover run; instructions: a profile of each function's instructions, counted under Valgrind)", collect.FieldSource)
	flagbind.Bind(f, (*string)(&o.Scope), "scope", "", "what a function set or instruction profile counts: {timed|all} (timed, the default of --source cover and instructions: what grows with b.N, its timed loop, from runs at 2x and --benchtime, default 10x; all: all that a run at --benchtime, default 1x (instructions: 10x), executed, setup included, as the papers count)", collect.FieldScope)
	addCollectFlags(f, o)
	flagbind.Bind(f, &o.strict, "strict", false, "exit 1 when any benchmark fails, times out or does not build", collect.FieldStrict)
	f.StringVarP(&o.Dir, "dir", "C", "", "run in this `directory` (a directory of the module to profile)")
	flagbind.Bind(f, &o.shard, "shard", "", "collect only shard `K/N` of the benchmarks (K from 0 to N-1; /N takes K from $JOB_COMPLETION_INDEX; default $MBOPT_SHARD); combine the shards with 'mbopt merge'", collect.FieldShard, manifest.FieldShard, engine.FieldShard)
	flagbind.Bind(f, &o.shardCosts, "shard-costs", "", "with --shard: balance the shards by the costs recorded in this `manifest` (a manifest.json or an output directory; default: the whole collection in --out, else by count)", collect.FieldShardCosts, manifest.FieldShardCosts)
	return cmd
}

// addCollectFlags registers the flags that choose and run benchmarks,
// shared by profile and run.
func addCollectFlags(f *pflag.FlagSet, o *profileOptions) {
	flagbind.Bind(f, &o.Bench, "bench", "", "only benchmarks matching this `regexp` (go test -bench syntax; default all)", collect.FieldBench, compare.FieldBench)
	flagbind.Bind(f, &o.Skip, "skip", "", "leave out benchmarks matching this `regexp` (go test -skip syntax), with their sub-benchmarks", collect.FieldSkip)
	flagbind.Bind(f, &o.BenchTime, "benchtime", "", "run time per benchmark: a `duration` such as 10s, or Nx iterations", collect.FieldBenchTime).DefValue = collect.DefaultBenchTime
	flagbind.Positive(f, &o.Timeout, "timeout", collect.DefaultTimeout, "kill a benchmark's process after this `duration`", flagbind.MustBePositive, collect.FieldTimeout)
	flagbind.Positive(f, &o.DiscoveryTimeout, "discovery-timeout", collect.DefaultDiscoveryTimeout, "kill a discovery run (the -benchtime 1x run that finds a benchmark's sub-benchmarks) after this `duration` (at most --timeout)", flagbind.MustBePositive, collect.FieldDiscoveryTimeout)
	flagbind.BindP(f, &o.Jobs, "jobs", "j", 0, "benchmarks run in parallel (0: one per CPU)", collect.FieldJobs)
	f.BoolVar(&o.sub, "sub", true, "profile each sub-benchmark alone; false: one profile per top-level benchmark")
	f.StringVar(&o.Tags, "tags", "", "comma-separated build `tags`, as for go test")
	flagbind.Bind(f, &o.Mod, "mod", "", "module download mode: {mod|readonly|vendor} (default: the go command's, vendor when ./vendor exists)", collect.FieldMod)
	f.BoolVar(&o.Force, "force", false, "collect every benchmark again instead of reusing complete profiles in --out")
	f.BoolVar(&o.RetryFailed, "retry-failed", false, "run again the benchmarks --out records as failed or timed out with the same test binary")
}

// validate checks the flag values (collect.Config.Check, which refuses a
// --timeout or --discovery-timeout of 0), returning input errors (exit 2).
func (o *profileOptions) validate() error {
	if err := o.collectConfig().Check(); err != nil {
		return err
	}
	if fi, err := os.Stat(o.Dir); o.Dir != "" && (err != nil || !fi.IsDir()) {
		return mbopt.Errorf("-C %s: not a directory", o.Dir)
	}
	return nil
}

// runProfile collects the profiles and prints progress and a summary.
func runProfile(ctx context.Context, s *streams, o *profileOptions) error {
	m, err := o.collect(ctx, s, o.collectConfig())
	if err != nil {
		return err
	}
	fmt.Fprintln(s.Out, o.Out)
	return collect.Succeeded(m, o.Out, o.strict)
}

// collectConfig maps the flags to the collection's configuration.
func (o *profileOptions) collectConfig() collect.Config {
	c := o.Config
	c.TopLevelOnly = !o.sub
	return c
}

// collect runs the collection cfg with progress on s.Err and prints its
// summary; it fails only when the collection itself failed.
func (o *profileOptions) collect(ctx context.Context, s *streams, cfg collect.Config) (*manifest.Manifest, error) {
	if o.now == nil {
		o.now = time.Now
	}
	if o.collectRun == nil {
		o.collectRun = collect.Collect
		o.terminal, o.width = progress.IsTerminal(s.Err)
	}
	p := &collect.ProgressPrinter{W: s.Err, Terminal: o.terminal, Width: o.width, Now: o.now, Start: o.now()}
	cfg.Progress = p.Event
	m, err := o.collectRun(ctx, cfg)
	p.Clear()
	if m != nil {
		p.Summary(m, cfg.Out)
	}
	if err != nil && o.Dir != "" {
		return nil, flagbind.Word(err, map[mbopt.Field]string{"Dir": "-C"})
	}
	return m, err
}
