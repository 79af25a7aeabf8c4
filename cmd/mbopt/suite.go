package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mbopt/mbopt/analysis"
	"github.com/mbopt/mbopt/suite"
)

// suiteOptions holds the suite command's flag values.
type suiteOptions struct {
	analyzeOptions
	suiteFormat string
}

func suiteFormats() string {
	var names []string
	for _, f := range suite.Formats {
		names = append(names, string(f))
	}
	return strings.Join(names, "|")
}

func newCmdSuite(s *streams) *cobra.Command {
	o := &suiteOptions{}
	cmd := &cobra.Command{
		Use:   "suite --app FILE --micro DIR [flags]",
		Short: "Print the optimized suite as go test invocations for CI",
		Long: `Suite runs the same analysis as analyze and prints the minimal suite as
ready-to-run go test invocations, one per package, each with an anchored -bench
pattern that matches exactly the selected benchmarks and nothing else, and
-run '^$' so no test runs:

  go test -run '^$' -bench '^BenchmarkQuery$/^(sum\(cpu\)|avg_by_host)$' example.com/tinytsdb/query

Run them from the module root. --top N keeps the N most relevant picks (the
first N of the minimal suite); the selection flags (--objective, --budget,
--min-gain) choose the suite as in analyze.

Benchmarks are named by their collection manifest (mbopt profile) or by ids of
the form <import path>.<BenchmarkName>; other profile names cannot be mapped to
a package and are an error.

Formats: shell (one command per line), json ({"invocations": [...]}), list
(one "package Benchmark" line per benchmark).`,
		Example: `  $ mbopt suite --app app.pprof --micro profiles/
  $ mbopt suite --app app.pprof --micro profiles/ --top 8 --format list
  $ mbopt suite --app app.pprof --micro profiles/ --format json -o suite.json
  $ mbopt suite --app app.pprof --micro profiles/ | sh   # run the optimized suite`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !validSuiteFormat(o.suiteFormat) {
				return badInputf("--format: invalid value %q: valid values are {%s}", o.suiteFormat, suiteFormats())
			}
			cfg, err := o.config()
			if err != nil {
				return err
			}
			cfg.Recommend = 0
			if err := checkOutput(o.output, cfg); err != nil {
				return err
			}
			rep, err := analyze(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			printWarnings(s.Err, rep)
			sel, err := analysis.SuiteBenchmarks(rep)
			if err != nil {
				return classify(err)
			}
			invs, err := suite.Plan(sel, suite.Options{})
			if err != nil {
				return err
			}
			var buf bytes.Buffer
			if err := suite.Write(&buf, invs, suite.Format(o.suiteFormat)); err != nil {
				return err
			}
			fmt.Fprintf(s.Err, "mbopt: %d of %d benchmarks in %d package(s)\n", len(sel), len(rep.Coverage.Sets), len(invs))
			return writeOutput(s.Out, o.output, buf.Bytes())
		},
	}
	addAnalysisFlags(cmd, &o.analyzeOptions)
	cmd.Flags().StringVar(&o.suiteFormat, "format", "shell", "output format: {"+suiteFormats()+"}")
	cmd.Flags().StringVarP(&o.output, "output", "o", "", "write the suite to this file (atomically) instead of stdout")
	return cmd
}

func validSuiteFormat(f string) bool {
	for _, v := range suite.Formats {
		if string(v) == f {
			return true
		}
	}
	return false
}
