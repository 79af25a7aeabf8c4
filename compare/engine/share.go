package engine

// This file takes a shard's share of the benchmarks, or of the trials.

import (
	"maps"
	"slices"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/shard"
)

// A Share is the part of a sharded comparison this machine ran
// (Plan.Shard or Plan.TrialShard).
type Share struct {
	// Trials is set for a trial shard: every benchmark, a share of the
	// trials (Raw.Trials); otherwise a share of the benchmarks.
	Trials bool
	// Record is package shard's record of the share: the Index of Count,
	// the Digest of what was partitioned and the Total number of
	// benchmarks partitioned (of all shards).
	shard.Record
	// Benchmarks are the ids of the top-level benchmarks this machine ran,
	// sorted.
	Benchmarks []string
}

// trialsOf returns the trials (from 1) of t trials that shard s runs:
// those with (trial − 1) mod s.Count == s.Index; all of them when s is
// not enabled.
func trialsOf(t int, s shard.Spec) []int {
	var ts []int
	for i := 1; i <= t; i++ {
		if !s.Enabled() || (i-1)%s.Count == s.Index {
			ts = append(ts, i)
		}
	}
	return ts
}

// checkShards checks Plan.Shard, TrialShard and ShardCosts against the
// schedule.
func (o *Plan) checkShards(s Schedule) error {
	switch {
	case o.Shard.Enabled() && o.TrialShard.Enabled():
		return FieldTrialShard.Errorf("a comparison is sharded by benchmarks (Shard) or by trials (TrialShard), not both")
	case o.Shard.Enabled() && (o.Shard.Index < 0 || o.Shard.Index >= o.Shard.Count):
		return FieldShard.Errorf("shard %s: the index must be from 0 to %d", o.Shard, o.Shard.Count-1)
	case o.TrialShard.Enabled() && (o.TrialShard.Index < 0 || o.TrialShard.Index >= o.TrialShard.Count):
		return FieldTrialShard.Errorf("trial shard %s: the index must be from 0 to %d", o.TrialShard, o.TrialShard.Count-1)
	case o.TrialShard.Enabled() && o.TrialShard.Count > s.Trials:
		return FieldTrialShard.Errorf("trial shard %s: %d machines need at least %d trials (Settings.Trials is %d)", o.TrialShard, o.TrialShard.Count, o.TrialShard.Count, s.Trials)
	case o.TrialShard.Enabled() && s.UntilStable > 0:
		return FieldTrialShard.Errorf("UntilStable needs every trial of a benchmark on one machine; it cannot be used with TrialShard")
	}
	return nil
}

// shardBenchmarks partitions the named benchmarks (Plan.Benchmarks,
// such as a suite) before anything is built, so that a shard builds only
// the packages of its share, and returns the record of the share; nil
// when the comparison is not sharded or chooses benchmarks by pattern.
func (r *runner) shardBenchmarks() (*Share, error) {
	o := &r.plan
	if len(o.Benchmarks) == 0 || !o.Shard.Enabled() {
		return nil, nil
	}
	var ids []string
	seen := map[string]bool{}
	for _, b := range o.Benchmarks {
		id := benchname.ID(b.Package, benchname.Rewrite(b.Name))
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	rec, keep, err := r.share(ids)
	if err != nil {
		return nil, err
	}
	o.Benchmarks = slices.DeleteFunc(slices.Clone(o.Benchmarks), func(b Benchmark) bool {
		return !keep[benchname.ID(b.Package, benchname.Rewrite(b.Name))]
	})
	if len(o.Benchmarks) == 0 {
		return nil, FieldShard.Errorf("shard %s has no benchmarks: the suite has only %s; use at most %d shards", o.Shard, textutil.Plural(len(ids), "benchmark"), len(ids))
	}
	return rec, nil
}

// shardUnits keeps the units of the shard's share when the benchmarks
// were chosen by pattern (known only once built and listed), and returns
// the record of the share; rec is the record shardBenchmarks made, if any.
func (r *runner) shardUnits(rec *Share) (*Share, error) {
	o := &r.plan
	if rec != nil || (!o.Shard.Enabled() && !o.TrialShard.Enabled()) {
		return rec, nil
	}
	ids := make([]string, len(r.units))
	for i, u := range r.units {
		ids[i] = u.id()
	}
	if o.TrialShard.Enabled() {
		items, _ := shard.Items(ids, o.ShardCosts)
		rec := &Share{Trials: true, Record: shard.NewRecord(o.TrialShard, items), Benchmarks: slices.Sorted(slices.Values(ids))}
		return rec, nil
	}
	rec, keep, err := r.share(ids)
	if err != nil {
		return nil, err
	}
	r.units = slices.DeleteFunc(r.units, func(u *unit) bool { return !keep[u.id()] })
	return rec, nil
}

// share partitions ids (Plan.Shard, balanced by Plan.ShardCosts)
// and returns the record and the ids of this shard's share.
func (r *runner) share(ids []string) (*Share, map[string]bool, error) {
	o := &r.plan
	items, _ := shard.Items(ids, o.ShardCosts)
	mine, err := shard.Share(items, o.Shard)
	if err != nil {
		return nil, nil, FieldShard.Errorf("%w", err)
	}
	keep := map[string]bool{}
	for _, id := range mine {
		keep[id] = true
	}
	rec := &Share{Record: shard.NewRecord(o.Shard, items), Benchmarks: slices.Sorted(maps.Keys(keep))}
	return rec, keep, nil
}
