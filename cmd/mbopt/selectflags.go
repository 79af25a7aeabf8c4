package main

import (
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/spf13/pflag"
)

// addSelectFlags registers the selection flags on f.
func addSelectFlags(f *pflag.FlagSet, o *analyzeOptions) {
	cli.Bind(f, &o.Objective, "objective", "nodes", "what a pick gains: {nodes|impact|cost} (nodes: covered functions, the paper; impact: covered application CPU time; cost: the cheapest suite with the same coverage as nodes)", analysis.FieldSelectObjective)
	cli.Bind(f, &o.Budget, "budget", 0, "bound the suite's summed benchmark running time, e.g. 90s (budgeted greedy with the single-best-set safeguard)", analysis.FieldSelectBudget)
	cli.Bind(f, &o.CostsFile, "costs", "", "benchmark costs: JSON {\"id\": seconds}, CSV id,seconds, or a collection manifest.json (default: manifest.json in a --micro directory, else each profile's recorded duration)", analysis.FieldSelectCostsFile)
	cli.Bind(f, &o.DefaultCost, "default-cost", 0, "cost of a benchmark without a measured cost (default: such a benchmark is an error under --budget and --objective cost)", analysis.FieldSelectDefaultCost)
	cli.Bind(f, &o.Top, "top", 0, "stop after N picks (0: no limit)", analysis.FieldSelectTop)
	cli.Bind(f, &o.MinGain, "min-gain", 0, "stop when a pick would add fewer than K nodes (the TCC study: 4)", analysis.FieldSelectMinGain)
	cli.Bind(f, &o.maxInstability, "max-instability", 0, "leave out of the suite the benchmarks whose A/A instability (the median CI width of their mbopt compare --aa results in --history) exceeds this, e.g. 0.05 (0: keep all)", analysis.FieldSelectExcludeBenchmarks)
	f.StringVar(&o.history, "history", "", "the history database --max-instability reads (default: .mbopt/history.db in the module root), and --sensitivity when given")
	f.BoolVar(&o.Sensitivity, "sensitivity", false, "say what the suite would catch: each project function's smallest slowdown some benchmark would report (MDE / its share of the benchmark; MDEs from --history, else --mde)")
	f.Float64Var(&o.MDE, "mde", 0, "with --sensitivity: the minimum detectable effect of a benchmark the history does not measure, e.g. 0.005 (default: 0.5% for instruction profiles, 5% for CPU profiles)")
	f.BoolVar(&o.Certify, "certify", false, "bound the minimal suite's distance from the smallest possible with the LP relaxation (with --objective cost, also the cheapest suite's cost)")
}
