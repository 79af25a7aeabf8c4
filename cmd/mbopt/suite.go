package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt/analysis"
	"github.com/mbopt/mbopt/changes"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/input"
	"github.com/mbopt/mbopt/optimize"
	"github.com/mbopt/mbopt/suite"

	"github.com/mbopt/mbopt/internal/textutil"
)

// suiteOptions holds the suite command's flag values.
type suiteOptions struct {
	analyzeOptions
	suiteFormat  string
	allowEmpty   bool
	changedSince string
	onlyAffected bool
}

func suiteFormats() []string {
	var names []string
	for _, f := range suite.Formats {
		names = append(names, string(f))
	}
	return names
}

func newCmdSuite(s *streams) *cobra.Command {
	o := &suiteOptions{}
	cmd := &cobra.Command{
		Use:   "suite --app FILE --micro DIR [flags]",
		Short: "Print the optimized suite as go test invocations for CI",
		Example: `  $ mbopt suite --app app.pprof --micro profiles/
  $ mbopt suite --app app.pprof --micro profiles/ --top 8 --format list
  $ mbopt suite --app app.pprof --micro profiles/ --format json -o suite.json
  $ mbopt suite --app app.pprof --micro profiles/ | sh   # run the optimized suite
  $ mbopt suite --app app.pprof --micro profiles/ --changed-since merge-base --only-affected | sh`,
		Args: cli.Args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cli.Enum("--format", o.suiteFormat, suiteFormats()...); err != nil {
				return err
			}
			if err := changes.CheckSince(o.changedSince, o.onlyAffected); err != nil {
				return cli.Word(err, nil)
			}
			cfg, err := o.config()
			if err != nil {
				return err
			}
			cfg.Recommend, cfg.Certify = 0, false
			if err := cli.CheckNotInput("-o", o.output, cfg.Inputs()...); err != nil {
				return err
			}
			rep, err := analyze(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			if len(rep.Suite.Steps) == 0 && !o.allowEmpty {
				return emptySuiteError(o, rep)
			}
			cli.Skipped(s.Err, rep)
			sel, err := analysis.SuiteBenchmarks(rep)
			if err != nil {
				return cli.Word(err, nil)
			}
			var ch *changes.Result
			var hits []changes.Hit
			if o.changedSince != "" {
				if ch, err = changes.Since(cmd.Context(), o.changedSince, ""); err != nil {
					return cli.Word(err, nil)
				}
				if sel, hits, err = analysis.AffectedSuite(rep, ch); err != nil {
					return cli.Word(err, nil)
				}
			}
			invs, err := suite.Plan(sel, suite.Options{OnlyAffected: o.onlyAffected})
			if err != nil {
				return err
			}
			var buf bytes.Buffer
			if err := suite.Write(&buf, invs, suite.Format(o.suiteFormat)); err != nil {
				return err
			}
			if err := cli.Output(s.Out, o.output, buf.Bytes()); err != nil {
				return err
			}
			// After the suite, so an error writing it is stderr's first line.
			cli.Warnings(s.Err, rep)
			if ch != nil {
				for _, line := range ch.Summary(len(hits), len(sel)) {
					fmt.Fprintf(s.Err, "mbopt: %s\n", line)
				}
			}
			planned := len(sel)
			if o.onlyAffected {
				planned = 0
				for _, inv := range invs {
					planned += len(inv.Benchmarks)
				}
			}
			fmt.Fprintf(s.Err, "mbopt: %d of %s in %s\n", planned, textutil.Plural(len(rep.Coverage.Sets), "benchmark"), textutil.Plural(len(invs), "package"))
			return nil
		},
	}
	addAnalysisFlags(cmd, &o.analyzeOptions)
	// The analysis flags that do not change the suite stay accepted, so
	// one set of flags serves analyze, report and suite, but --help does
	// not list them.
	for _, name := range suiteIgnores {
		must(cmd.Flags().MarkHidden(name))
	}
	cmd.Flags().StringVar(&o.suiteFormat, "format", "shell", "output format: {"+strings.Join(suiteFormats(), "|")+"}")
	cmd.Flags().StringVarP(&o.output, "output", "o", "", "write the suite to this file (atomically) instead of stdout")
	cmd.Flags().BoolVar(&o.allowEmpty, "allow-empty", false, "accept an empty suite (print nothing, exit 0) instead of failing")
	cmd.Flags().StringVar(&o.changedSince, "changed-since", "", "tag the benchmarks whose covered functions changed since `REV` (a revision, or "+changes.MergeBase+": the merge-base of HEAD with the default branch); run inside the git repository")
	cmd.Flags().BoolVar(&o.onlyAffected, "only-affected", false, "print only the benchmarks --changed-since tags (nothing, successfully, when none is)")
	return cmd
}

// suiteIgnores are the analysis flags that do not change the suite:
// recommendations (and their targets) and the optimality certificate are
// not part of it.
var suiteIgnores = []string{"recommend", "keep-negligible", "targets", "edges", "static-dir", "certify"}

// emptySuiteError says why the suite of rep is empty: no benchmark covers a
// node the suite must keep covered, or the selection flags stopped before
// the first pick.
func emptySuiteError(o *suiteOptions, rep *analysis.Report) error {
	files := strings.Join(o.micro, ", ")
	cov := rep.Coverage.Project
	kind := "project functions (--module " + strings.Join(rep.Modules, ", ") + ")"
	if rep.Suite.Nodes == optimize.AllNodes {
		cov, kind = rep.Coverage.Overall, "functions"
	}
	if cov.Covered == 0 {
		return input.Errorf("%s: the suite is empty: none of the %s covers any of the %d %s of the application profile %s, so nothing would run; check --module and that the benchmarks exercise the application's code, or pass --allow-empty",
			files, textutil.Plural(len(rep.Coverage.Sets), "benchmark"), cov.Total, kind, strings.Join(rep.AppProfiles, ", "))
	}
	return input.Errorf("%s: the suite is empty: the selection flags (--budget %s, --min-gain %d, --top %d) left no benchmark although %d of %d %s are covered; loosen them, or pass --allow-empty",
		files, o.sel.budget, o.sel.minGain, o.sel.top, cov.Covered, cov.Total, kind)
}
