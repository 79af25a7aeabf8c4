package flow

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/history"
)

// A MergeConfig is a merge of sharded comparisons as mbopt compare merge
// runs it ([Merge]).
type MergeConfig struct {
	// Dirs are the shards' output directories.
	Dirs []string
	// Out is the directory of the merged raw results.
	Out string
	// History is as for a CompareConfig.
	History string
	// NoHistory is as for a CompareConfig.
	NoHistory bool
	// AppBenchmark is as for a CompareConfig.
	AppBenchmark string
	// Output is as for a CompareConfig.
	Output string
	// FailOn is the gate the caller applies to the merged report. With
	// compare.FailOnAppImpact it judges the estimated application impact
	// each shard found and the merge carries (a regression no shard
	// estimated fails), against AppImpactThreshold.
	FailOn compare.FailOn
	// AppImpactThreshold, with FailOn compare.FailOnAppImpact, is the
	// merged report's Settings.AppImpactThreshold; nil means
	// compare.DefaultAppImpactThreshold. With any other gate it must be
	// nil.
	AppImpactThreshold *float64
	// Logf is as for a CompareConfig.
	Logf func(format string, args ...any)
	// Warn is as for a CompareConfig.
	Warn func(error)
}

// Merge combines the outputs of sharded comparisons with
// compare.Merge and stores the merged report in the history as [Compare]
// stores a comparison; a report that could not be stored is returned with
// an error saying so.
func Merge(ctx context.Context, cfg MergeConfig) (*compare.Report, error) {
	if err := checkNoHistory(cfg.NoHistory, cfg.History); err != nil {
		return nil, err
	}
	threshold := 0.0
	switch {
	case cfg.FailOn == compare.FailOnAppImpact:
		// The shards' own settings hold a threshold only where they
		// were gated or confirmed themselves; the merge's gate says.
		threshold = compare.DefaultAppImpactThreshold
		if cfg.AppImpactThreshold != nil {
			threshold = *cfg.AppImpactThreshold
		}
		if err := (compare.Settings{AppImpactThreshold: threshold}).Check(); err != nil {
			return nil, err
		}
	case cfg.AppImpactThreshold != nil:
		return nil, mbopt.Errorf("%s applies to %s %s only", FieldAppImpactThreshold, compare.FieldFailOn, compare.FailOnAppImpact)
	}
	histPath, st, err := openOutputHistory(ctx, !cfg.NoHistory, cfg.History, cfg.Output, shardFiles(cfg.Dirs))
	if err != nil {
		return nil, err
	}
	if st != nil {
		defer st.Close()
	}
	rep, err := compare.Merge(cfg.Dirs, cfg.Out, nil)
	if err != nil {
		if errors.Is(err, compare.ErrMerge) {
			return nil, mbopt.Wrap(err)
		}
		return nil, err
	}
	if cfg.FailOn == compare.FailOnAppImpact {
		rep.Settings.AppImpactThreshold = threshold
	}
	if st == nil {
		return rep, nil
	}
	raw, err := os.ReadFile(filepath.Join(cfg.Out, compare.HeadFile))
	if err != nil {
		return nil, err
	}
	hr := historyRecord{appBench: cfg.AppBenchmark, logf: logf(cfg.Logf), warn: cfg.Warn}
	return rep, applyHistory(ctx, hr, st, histPath, rep, history.MachineOfRaw(raw, rep.GoVersion))
}

// shardFiles lists the shard directories and the files in them: the
// inputs of a merge.
func shardFiles(dirs []string) []string {
	var files []string
	for _, d := range dirs {
		files = append(files, d)
		entries, err := os.ReadDir(d)
		if err != nil {
			continue // compare.Merge reports it
		}
		for _, e := range entries {
			files = append(files, filepath.Join(d, e.Name()))
		}
	}
	return files
}
