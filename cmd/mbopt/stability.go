package main

import (
	"context"
	"math"
	"path/filepath"
	"slices"

	"github.com/mbopt/mbopt/analysis"
	"github.com/mbopt/mbopt/benchstats"
	"github.com/mbopt/mbopt/history"
	"github.com/mbopt/mbopt/internal/gomod"
)

// stabilityUnit is the unit whose A/A instability --max-instability
// judges: the time per operation, what the suite is run for.
const stabilityUnit = "sec/op"

// applyStability sets cfg.Select.ExcludeBenchmarks from --max-instability:
// the benchmarks whose median A/A instability in sec/op, over every A/A
// comparison in the history (any machine), exceeds the flag. Benchmarks
// without an A/A result stay in.
func (o *selectOptions) applyStability(cfg *analysis.Config) error {
	w := o.maxInstability
	if w == 0 {
		return nil
	}
	if w < 0 || math.IsNaN(w) || math.IsInf(w, 0) {
		return badInputf("--max-instability must be a positive relative CI width such as 0.05 (0: keep all), not %v", w)
	}
	ctx := context.Background()
	path := historyPath(o.history)
	st, err := openHistory(ctx, path)
	if err != nil {
		return err
	}
	defer st.Close()
	insts, err := st.Instabilities(ctx, history.Filter{})
	if err != nil {
		return err
	}
	measured := 0
	for _, in := range insts {
		if in.Unit != stabilityUnit || len(in.Widths) == 0 {
			continue
		}
		measured++
		if benchstats.Median(in.Widths) > w {
			cfg.Select.ExcludeBenchmarks = append(cfg.Select.ExcludeBenchmarks, in.ID)
		}
	}
	if measured == 0 {
		return badInputf("--max-instability: %s holds no A/A result in %s; run mbopt compare --aa first", path, stabilityUnit)
	}
	slices.Sort(cfg.Select.ExcludeBenchmarks)
	return nil
}

// historyPath returns the history database of the module in the current
// directory: given when set, else .mbopt/history.db in the module root
// (the current directory outside a module).
func historyPath(given string) string {
	if given != "" {
		return given
	}
	if mod, err := gomod.Find("."); err == nil {
		return filepath.Join(mod.Dir, history.DefaultPath)
	}
	return history.DefaultPath
}
