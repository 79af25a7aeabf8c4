package collect

import (
	"context"
	"maps"
	"slices"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/relevance/shard"
)

// sharding is the state of a Collect with [Config.Shard]: the first phase
// (builds and discovery runs) queues what it finds here instead of
// profiling or recording it; then [collector.runShare] partitions every
// benchmark found and profiles this shard's share.
type sharding struct {
	spec    shard.Spec
	started bool                     // the share is known; finish records again
	units   map[string]unit          // benchmarks to profile, by ID
	entries map[string]deferredEntry // benchmarks decided without a profile run, by ID
	mine    map[string]bool          // IDs in this shard's share, once started
	total   int                      // benchmarks partitioned
}

// A deferredEntry is an entry that the first phase decided (a build
// failure, a failure in a discovery run, a cached decision).
type deferredEntry struct {
	e      manifest.Entry
	reused bool
}

// checkShard checks Config.Shard and Config.ShardCosts.
func checkShard(cfg Config) (*sharding, error) {
	s := cfg.Shard
	if !s.Enabled() {
		if cfg.ShardCosts != nil {
			return nil, FieldShardCosts.Errorf("ShardCosts given without Shard")
		}
		return nil, nil
	}
	if s.Count > shard.MaxCount || s.Index < 0 || s.Index >= s.Count {
		return nil, FieldShard.Errorf("shard %d of %d: the index must be from 0 to %d", s.Index, s.Count, s.Count-1)
	}
	for id, c := range cfg.ShardCosts {
		if !(c >= 0) || c > 1e12 {
			return nil, FieldShardCosts.Errorf("benchmark %s: cost %v; want a finite number of seconds of at least 0", id, c)
		}
	}
	return &sharding{spec: s, units: map[string]unit{}, entries: map[string]deferredEntry{}}, nil
}

// deferUnit queues u during the first phase of a sharded run and reports
// whether it did.
func (c *collector) deferUnit(u unit) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.shard == nil || c.shard.started {
		return false
	}
	c.shard.units[u.id()] = u
	return true
}

// deferEntry queues e during the first phase of a sharded run and reports
// whether it did.
func (c *collector) deferEntry(e manifest.Entry, reused bool) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.shard == nil || c.shard.started {
		return false
	}
	c.shard.entries[e.ID] = deferredEntry{e, reused}
	return true
}

// shardCosts returns the costs the partition balances: Config.ShardCosts,
// or those of the manifest in Out when it is a whole collection (not a
// shard: its costs would cover only its own share, and shards that saw
// different shares would partition differently) of the same module.
func (c *collector) shardCosts() map[string]float64 {
	if c.cfg.ShardCosts != nil {
		return c.cfg.ShardCosts
	}
	prev, err := manifest.Load(c.out)
	if err != nil || prev.Module != c.m.Module || prev.Shard != nil {
		return nil
	}
	return prev.Costs()
}

// runShare partitions every benchmark the first phase found and runs this
// shard's share: the manifest is cut down to the share, records which
// shard it is, and fills as the share's benchmarks finish.
func (c *collector) runShare(ctx context.Context) error {
	sh := c.shard
	ids := slices.Sorted(maps.Keys(sh.units))
	for id := range sh.entries {
		if _, ok := sh.units[id]; !ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	items, byCount := shard.Items(ids, c.shardCosts())
	share, err := shard.Share(items, sh.spec)
	if err != nil {
		return err
	}
	c.mu.Lock()
	sh.started, sh.total = true, len(ids)
	sh.mine = make(map[string]bool, len(share))
	for _, id := range share {
		sh.mine[id] = true
	}
	keep := c.m.Benchmarks[:0]
	for _, e := range c.m.Benchmarks {
		if sh.mine[e.ID] {
			keep = append(keep, e)
		}
	}
	c.m.Benchmarks = keep
	c.m.Shard = &manifest.Shard{Record: shard.NewRecord(sh.spec, items), Benchmarks: len(share), ByCount: byCount}
	c.total, c.done = len(share), 0
	clear(c.index) // rebuilt by the write
	err = c.writeManifestLocked()
	c.mu.Unlock()
	if err != nil {
		return err
	}

	s := newScheduler(ctx, c.cfg.jobs())
	for _, id := range share {
		if d, ok := sh.entries[id]; ok {
			c.finish(d.e, d.reused)
			continue
		}
		c.schedule(ctx, s, sh.units[id])
	}
	s.wait()
	return nil
}

// shardPartitioned reports whether this sharded run partitioned at least
// one benchmark, even when its own share is empty.
func (c *collector) shardPartitioned() bool {
	return c.shard != nil && c.shard.total > 0
}

// dropOtherShards keeps only this shard's share in the manifest and marks
// the shard complete; it does nothing for an unsharded run.
func (c *collector) dropOtherShards() {
	if c.shard == nil {
		return
	}
	keep := c.m.Benchmarks[:0]
	for _, e := range c.m.Benchmarks {
		if c.shard.mine[e.ID] {
			keep = append(keep, e)
		}
	}
	c.m.Benchmarks = keep
	c.m.Shard.Complete = true
}

// id returns u's benchmark ID.
func (u unit) id() string { return benchname.ID(u.b.pkg.Path, u.name) }
