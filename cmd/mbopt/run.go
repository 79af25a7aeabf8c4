package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/internal/flagbind"
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/flow"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// runOptions holds the run command's flag values.
type runOptions struct {
	analyzeOptions
	collect profileOptions
	app     flow.Config // the application flags
	appCmd  []string    // --app-cmd, parsed by flow.ParseWorkloads
}

func newCmdRun(s *streams) *cobra.Command {
	o := &runOptions{}
	cmd := &cobra.Command{
		Use:   "run [DIR] (--app FILE | --app-url URL | --app-pgo | --app-cmd [NAME=]CMD) [flags]",
		Short: "Profile a module's benchmarks and its application, then analyse: one command",
		Example: `  $ mbopt run --app-cmd 'go run ./cmd/loadtest -duration 30s -cpuprofile {profile}'
  $ mbopt run --app-cmd 'read=go run ./cmd/loadtest -mix read -cpuprofile {profile}' \
      --app-cmd 'write=go run ./cmd/loadtest -mix write -cpuprofile {profile}'
  $ mbopt run ~/src/myservice --app-url http://127.0.0.1:6060 --app-seconds 60
  $ mbopt run --app-cmd 'go run ./cmd/loadtest -cpuprofile {profile}' --app-runs 3
  $ mbopt run --app-pgo --benchtime 10s --recommend 5
  $ mbopt run --app prod.pprof --format json -o analysis.json`,
		Args: cli.Args(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			return runRun(cmd.Context(), s, o, dir, cmd.Flags())
		},
	}
	f := cmd.Flags()
	flagbind.Name("DIR", flow.FieldCollectDir)
	flagbind.Name("--app-cmd NAME=CMD", flow.FieldAppWorkloads)
	addAnalysisFlags(cmd, &o.analyzeOptions)
	f.Lookup("app").Usage = "application CPU profile file; repeatable (NAME=FILE for scenarios)"
	must(f.MarkHidden("micro")) // the benchmarks are the ones run collects
	addCollectFlags(f, &o.collect)
	flagbind.Bind(f, &o.collect.Out, "out", "", "directory for the benchmark profiles and manifest (default DIR/.mbopt/profiles)", collect.FieldOut, flow.FieldCollectOut)
	flagbind.Bind(f, &o.app.AppURL, "app-url", "", "capture the application profile from this running program's net/http/pprof `URL`", flow.FieldAppURL)
	flagbind.Positive(f, &o.app.AppSeconds, "app-seconds", flow.DefaultAppSeconds, "length of the --app-url capture, in seconds", flagbind.MustBePositive, flow.FieldAppSeconds)
	flagbind.Bind(f, &o.app.AppPGO, "app-pgo", false, "use the module's default.pgo files as the application profile", flow.FieldAppPGO)
	flagbind.Bind(f, &o.appCmd, "app-cmd", nil, "workload `command` that writes a CPU profile to {profile}; NAME=CMD for scenarios (repeatable)", flow.FieldAppCommand)
	flagbind.Bind(f, &o.app.AppOut, "app-out", "", "`directory` for the profiles run takes (--app-url, --app-cmd) and the workloads' logs (default DIR/.mbopt/app)", flow.FieldAppOut)
	flagbind.Positive(f, &o.app.AppTimeout, "app-timeout", flow.DefaultAppTimeout, "kill the --app-cmd workload after this `duration`", flagbind.MustBePositive, flow.FieldAppTimeout)
	flagbind.Positive(f, &o.app.AppRuns, "app-runs", 1, "run the --app-cmd workload `N` times and merge the profiles; reports the functions seen in every run vs only some", flagbind.MustBePositive, flow.FieldAppRuns)
	flagbind.Choice(f, &o.format, "format", "text", "output format: {text|json|github} (as for analyze)", "text", "json", "github")
	f.BoolVar(&o.explain, "explain", false, "list the functions each pick and recommendation adds, with their application time")
	flagbind.BindP(f, &o.output, "output", "o", "", "write the result to this file (atomically) instead of stdout", cli.FieldOutput)
	return cmd
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func runRun(ctx context.Context, s *streams, o *runOptions, dir string, flags *pflag.FlagSet) error {
	c := &o.collect
	appCmd, workloads, err := flow.ParseWorkloads(o.appCmd)
	if err != nil {
		return err
	}
	ao := o.analyzeOptions
	if ao.Weights, err = flow.WorkloadWeights(o.App, o.Weights, workloads); err != nil {
		return err
	}
	ao.historyDir = dir
	acfg, err := ao.analysisConfig(false)
	if err != nil {
		return err
	}
	if err := mbopt.CheckOutput(cli.FieldOutput, o.output, acfg.Inputs()...); err != nil {
		return err
	}
	cc := c.collectConfig()
	cc.Dir = dir
	cfg := o.app
	cfg.Config, cfg.Collect, cfg.AppCommand, cfg.AppWorkloads = acfg, cc, appCmd, workloads
	cfg.Collector = func(ctx context.Context, cc collect.Config) (*manifest.Manifest, error) { return c.collect(ctx, s, cc) }
	cfg.Logf = s.logf
	res, err := flow.Run(ctx, cfg)
	if err != nil {
		return err
	}
	cli.WordWarnings(res.Report)
	if r := res.AppRuns; r != nil {
		fmt.Fprintf(s.Err, "mbopt: %s\n", r)
	}
	if err := printAnalysis(s, &o.analyzeOptions, res.Report); err != nil {
		return err
	}
	lines, commands := res.NextSteps(followUpFlags(flags), dir)
	for _, line := range lines {
		fmt.Fprintf(s.Err, "mbopt: %s\n", line)
	}
	for _, c := range commands {
		fmt.Fprintf(s.Err, "  %s\n", c)
	}
	return nil
}

// followUpFlags returns the flags given to run that change what suite or
// report compute, as "--name=value" words, sorted by name; --app,
// --weight, --micro and --module are printed from the run's result,
// and the output and collection flags do not apply.
func followUpFlags(flags *pflag.FlagSet) map[string][]string {
	skip := map[string]bool{"app": true, "weight": true, "micro": true, "module": true, "format": true, "output": true, "out": true, "app-out": true}
	targets := map[string]*pflag.FlagSet{"suite": newCmdSuite(&streams{}).Flags(), "report": newCmdReport(&streams{}).Flags()}
	words := map[string][]string{}
	flags.Visit(func(f *pflag.Flag) {
		if skip[f.Name] {
			return
		}
		values := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			values = sv.GetSlice()
		}
		for cmd, fs := range targets {
			if tf := fs.Lookup(f.Name); tf == nil || tf.Hidden {
				continue
			}
			for _, v := range values {
				if f.Value.Type() == "bool" && v == "true" {
					words[cmd] = append(words[cmd], "--"+f.Name)
				} else {
					words[cmd] = append(words[cmd], "--"+f.Name+"="+v)
				}
			}
		}
	})
	return words
}
