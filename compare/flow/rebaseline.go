package flow

import (
	"context"
	"errors"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/engine"
	"github.com/mbopt/mbopt/compare/history"
	"github.com/mbopt/mbopt/internal/gitrev"
	"github.com/mbopt/mbopt/relevance/changes"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// A RebaselineConfig moves a history's baseline to a new revision
// ([Rebaseline]).
type RebaselineConfig struct {
	// CompareConfig configures the bridging comparison; Rebaseline sets
	// its Base, Head, Preset and Bridge, and refuses the settings that
	// would make it something else than the bridge stored in History
	// (Base, Head, AA, AppBenchmark, a shard, NoHistory, ChangedSince,
	// OnlyAffected).
	CompareConfig
	// To is the new baseline, a revision.
	To string
	// From is the old baseline: a stored base's hash or prefix, or a
	// revision; empty means the baseline History shows.
	From string
}

// The fields of a [RebaselineConfig] that input errors name, besides those
// of its CompareConfig.
const (
	FieldFrom mbopt.Field = "From"
	FieldTo   mbopt.Field = "To"
)

// Rebaseline compares the old baseline with the new one, the benchmarks
// chosen as for [Compare] or, by default, those stored against the old
// baseline, and stores the comparison as a bridge, which carries every
// series of the history across (history.Store.AddBridge).
func Rebaseline(ctx context.Context, cfg RebaselineConfig) (*compare.Report, error) {
	c := cfg.CompareConfig
	for _, s := range []struct {
		set   bool
		field mbopt.Field
	}{{c.Base != "", compare.FieldBase}, {c.Head != "", compare.FieldHead}, {c.AA, compare.FieldAA}, {c.AppBenchmark != "", FieldAppBenchmark},
		{c.Shard.Enabled(), engine.FieldShard}, {c.TrialShard.Enabled(), engine.FieldTrialShard}, {c.ShardCosts != nil, manifest.FieldShardCosts},
		{c.NoHistory, FieldNoHistory}, {c.ChangedSince != "", changes.FieldChangedSince}, {c.OnlyAffected, changes.FieldOnlyAffected}} {
		if s.set {
			return nil, mbopt.Errorf("%s: rebaseline compares %s with %s and stores the bridge in %s", s.field, FieldFrom, FieldTo, FieldHistory)
		}
	}
	if cfg.To == "" {
		return nil, mbopt.Errorf("%s REV names the new baseline", FieldTo)
	}
	path := historyPath(cfg.History)
	st, err := OpenHistory(ctx, path)
	if err != nil {
		return nil, err
	}
	old, err := st.Baseline(ctx, cfg.From)
	if errors.Is(err, history.ErrBaseline) {
		// Not a stored base's prefix: perhaps a revision name.
		if commit, gerr := gitrev.Commit(ctx, ".", cfg.From); gerr == nil {
			old, err = compare.Revision{Commit: commit}, nil
		}
	}
	if err != nil {
		st.Close()
		return nil, mbopt.Errorf("%s: %v", FieldFrom, historyReason(path, err))
	}
	if len(c.Packages) == 0 && c.SuiteFile == "" && c.Bench == "" && c.Analysis == nil {
		if c.Preset, err = st.Benchmarks(ctx, old.Commit); err != nil {
			st.Close()
			return nil, err
		}
		if len(c.Preset) == 0 {
			st.Close()
			return nil, mbopt.Errorf("%s %s holds no compared benchmark against %s; choose the benchmarks with %s or %s", FieldHistory, path, short(old.Commit), compare.FieldBench, FieldSuiteFile)
		}
	}
	st.Close()
	newBase, err := gitrev.Commit(ctx, ".", cfg.To)
	if err != nil {
		return nil, mbopt.Errorf("%s: %v", FieldTo, err)
	}
	if newBase == old.Commit {
		return nil, mbopt.Errorf("%s %s is the baseline %s already", FieldTo, cfg.To, short(old.Commit))
	}
	c.Base, c.Head, c.Bridge = old.Commit, newBase, true
	return Compare(ctx, c)
}
