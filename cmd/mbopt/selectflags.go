package main

import (
	"context"
	"math"

	"github.com/spf13/pflag"

	"github.com/mbopt/mbopt/analysis"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/history"
	"github.com/mbopt/mbopt/input"
	"github.com/mbopt/mbopt/pipeline"
)

// addSelectFlags registers the selection flags on f.
func addSelectFlags(f *pflag.FlagSet, o *analyzeOptions) {
	f.StringVar(&o.Objective, "objective", "nodes", "what a pick gains: {nodes|impact|cost} (nodes: covered functions, the paper; impact: covered application CPU time; cost: the cheapest suite with the same coverage as nodes)")
	f.DurationVar(&o.Budget, "budget", 0, "bound the suite's summed benchmark running time, e.g. 90s (budgeted greedy with the single-best-set safeguard)")
	f.StringVar(&o.CostsFile, "costs", "", "benchmark costs: JSON {\"id\": seconds}, CSV id,seconds, or a collection manifest.json (default: manifest.json in a --micro directory, else each profile's recorded duration)")
	f.DurationVar(&o.DefaultCost, "default-cost", 0, "cost of a benchmark without a measured cost (default: such a benchmark is an error under --budget and --objective cost)")
	f.IntVar(&o.Top, "top", 0, "stop after N picks (0: no limit)")
	f.IntVar(&o.MinGain, "min-gain", 0, "stop when a pick would add fewer than K nodes (the TCC study: 4)")
	f.Float64Var(&o.maxInstability, "max-instability", 0, "leave out of the suite the benchmarks whose A/A instability (the median CI width of their mbopt compare --aa results in --history) exceeds this, e.g. 0.05 (0: keep all)")
	f.StringVar(&o.history, "history", "", "the history database --max-instability reads (default: .mbopt/history.db in the module root)")
	f.BoolVar(&o.Certify, "certify", false, "bound the minimal suite's distance from the smallest possible with the LP relaxation (with --objective cost, also the cheapest suite's cost)")
}

// excludeUnstable leaves out of the suite of cfg the benchmarks whose A/A
// instability in the history exceeds --max-instability.
func (o *analyzeOptions) excludeUnstable(cfg *analysis.Config) error {
	w := o.maxInstability
	if w == 0 {
		return nil
	}
	if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
		return input.Errorf("--max-instability must be a positive relative CI width such as 0.05 (0: keep all), not %v", w)
	}
	// Stability-aware selection: leave out the benchmarks whose A/A
	// comparisons in the history say they are too unstable.
	ctx := context.Background()
	path := historyPath(o.history)
	st, err := pipeline.OpenHistory(ctx, path)
	if err != nil {
		return cli.Word(err, nil)
	}
	defer st.Close()
	unstable, measured, err := st.Unstable(ctx, w)
	if measured == 0 && err == nil {
		return input.Errorf("--max-instability: %s holds no A/A result in %s; run mbopt compare --aa first", path, history.StabilityUnit)
	}
	cfg.Select.ExcludeBenchmarks = unstable
	return err
}
