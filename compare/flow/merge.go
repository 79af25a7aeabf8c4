package flow

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/internal/textutil"
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
	// estimated fails), against AppImpactThreshold; it needs every shard
	// to have run with the analysis (compare.ShardRecord.Application).
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
//
// Before it opens the history or writes anything it refuses the gate
// compare.FailOnAppImpact unless every shard ran with the analysis (its
// record's Application): over shards that all ran without it the gate
// would judge no estimate, silently the gate FailOnDefiniteRegression
// (as a single comparison, [CompareConfig.Resolve] refuses it); over
// shards of which only some did, it would judge the regressions of those
// by their application impact and the others' by their verdict alone,
// which is not one gate. The refusal names the shards without it, in the
// order given.
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
		if err := checkShardsEstimated(cfg.Dirs); err != nil {
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

// checkShardsEstimated refuses the gate app-impact over the shards in
// dirs unless every one ran with the analysis (see [Merge]); a shard that
// cannot be read is refused as compare.Merge refuses it.
func checkShardsEstimated(dirs []string) error {
	var without []string
	for _, d := range dirs {
		rec, err := compare.ReadShard(d)
		if err != nil {
			return mbopt.Wrap(err)
		}
		if !rec.Application {
			without = append(without, d)
		}
	}
	switch {
	case len(without) == 0:
		return nil
	case len(without) == len(dirs):
		return appImpactNeedsAnalysis("the %s given ran without them (their %s says so), so no shard estimated the application impact; run the shards with the analysis flags, or gate with %s %s",
			textutil.Plural(len(dirs), "shard"), compare.ShardFile, compare.FieldFailOn, compare.FailOnDefiniteRegression)
	}
	their := map[bool]string{true: "its", false: "their"}[len(without) == 1]
	return appImpactNeedsAnalysis("%d of the %d shards given ran without them (%s), so %s definite regressions would fail whatever their application impact while the other shards' are judged by it, which is not one gate; run every shard with the analysis flags, or gate with %s %s",
		len(without), len(dirs), strings.Join(without, ", "), their, compare.FieldFailOn, compare.FailOnDefiniteRegression)
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
