package collect

import (
	"context"
	"slices"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// This file schedules a collection's tasks: each package's build, then
// the discovery run of each of its top-level benchmarks, then one profile
// run per benchmark (a unit), Config.Jobs processes at a time.

// Task priorities of the scheduler: profile runs first, so results stream
// out as soon as a benchmark is known, then discovery runs, then builds.
const (
	prioProfile = iota
	prioDiscover
	prioBuild
	numPrio
)

// run builds every package, discovers its benchmarks and profiles them,
// cfg.Jobs processes at a time, each step as soon as the step before it
// has produced something.
func (c *collector) run(ctx context.Context, pkgs []Package) {
	s := newScheduler(ctx, c.cfg.jobs())
	for _, p := range pkgs {
		s.add(prioBuild, func() { c.buildTask(ctx, s, p, len(pkgs)) })
	}
	s.wait()
}

// buildTask builds package p and schedules its benchmarks.
func (c *collector) buildTask(ctx context.Context, s *scheduler, p Package, npkgs int) {
	b, err := c.buildOne(ctx, p)
	if ctx.Err() != nil {
		return
	}
	c.mu.Lock()
	c.built = append(c.built, p.Path)
	c.counts[EventBuild]++
	d := c.counts[EventBuild]
	if b.bin != "" && !c.cfg.TopLevelOnly {
		c.tops += len(b.tops)
	}
	c.mu.Unlock()
	c.emit(Event{Kind: EventBuild, Package: p.Path, Err: err, Done: d, Total: npkgs})
	if b.bin == "" {
		return
	}
	for _, top := range b.tops {
		u := unit{b: b, name: top}
		if c.cfg.TopLevelOnly {
			c.addUnit(ctx, s, u)
			continue
		}
		if cd, ok := c.cache.discovery(b.hash, top, c.cfg.Skip); ok && !(c.cfg.RetryFailed && hasFailure(cd.Entries)) {
			c.discovered(ctx, s, u, cd, true)
			continue
		}
		if c.leafBySource(b.pkg, top) {
			u.unchecked = true
			c.mu.Lock()
			c.tops-- // no discovery run to count
			c.mu.Unlock()
			c.addUnit(ctx, s, u)
			continue
		}
		s.add(prioDiscover, func() {
			cd := c.discoverOne(ctx, u)
			if ctx.Err() == nil {
				c.discovered(ctx, s, u, cd, false)
			}
		})
	}
}

// leafBySource reports whether top-level benchmark top of p can be run
// as a unit without a discovery run: its source declares it and creates
// no sub-benchmarks (see parentBenchmarks), Bench selects it whole (not
// only some of its sub-benchmarks), and the run is not sharded (every
// shard must know every benchmark before the partition, so a guess that
// turns out wrong cannot be mended there).
func (c *collector) leafBySource(p Package, top string) bool {
	if c.shard != nil || !slices.Contains(p.Benchmarks, top) || slices.Contains(p.Parents, top) {
		return false
	}
	ok, partial := c.filter.Match(top)
	return ok && !partial
}

// hasFailure reports whether an entry failed or timed out.
func hasFailure(es []manifest.Entry) bool {
	for _, e := range es {
		if e.Status == manifest.StatusFailed || e.Status == manifest.StatusTimeout {
			return true
		}
	}
	return false
}

// discovered records the outcome of discovering top-level benchmark top
// (from a run, or from the cache when cached) and schedules its leaves.
func (c *collector) discovered(ctx context.Context, s *scheduler, top unit, cd cachedDiscovery, cached bool) {
	c.mu.Lock()
	c.newCache.Discoveries = append(c.newCache.Discoveries, cd)
	if cd.Incomplete {
		c.incomplete[benchname.ID(top.b.pkg.Path, top.name)] = true
	}
	c.counts[EventDiscover]++
	d, total := c.counts[EventDiscover], c.tops
	c.mu.Unlock()
	c.emit(Event{Kind: EventDiscover, Package: top.b.pkg.Path, Name: top.name, Reused: cached, Done: d, Total: total})
	for _, e := range cd.Entries {
		e.Dir = top.b.dir
		if c.selects(e.Name, true) {
			c.mu.Lock()
			c.total++
			c.mu.Unlock()
			c.finish(e, cached)
		}
	}
	for _, leaf := range cd.Leaves {
		c.addUnit(ctx, s, unit{b: top.b, name: leaf})
	}
}

// selects reports whether this run collects the benchmark name: Bench
// matches it and Skip does not. Recorded crashes count as matched when
// Bench could select something below them (partial).
func (c *collector) selects(name string, partialOK bool) bool {
	ok, partial := c.filter.Match(name)
	if !ok || partial && !partialOK {
		return false
	}
	return c.skip == nil || !c.skip.Selects(name)
}

// addUnit schedules the profile run of u, or reuses its previous entry;
// in the first phase of a sharded run it queues u for the partition.
func (c *collector) addUnit(ctx context.Context, s *scheduler, u unit) {
	if !c.selects(u.name, c.cfg.TopLevelOnly) {
		return
	}
	c.mu.Lock()
	c.total++
	c.mu.Unlock()
	if c.deferUnit(u) {
		return
	}
	c.schedule(ctx, s, u)
}

// schedule queues the profile run of u, or reuses its previous entry.
func (c *collector) schedule(ctx context.Context, s *scheduler, u unit) {
	if e, ok := c.reusable(u); ok {
		c.finish(e, true)
		return
	}
	s.add(prioProfile, func() {
		c.mu.Lock()
		d, total := c.done, c.total
		c.mu.Unlock()
		c.emit(Event{Kind: EventStart, Package: u.b.pkg.Path, Name: u.name, Done: d, Total: total})
		run := c.profile
		switch {
		case c.cfg.cover():
			run = c.coverOne
		case c.cfg.instructions():
			run = c.instrOne
		}
		e, ok := run(ctx, u)
		switch {
		case !ok:
		case u.unchecked && e.subs:
			// The source hid its b.Run (in a function of another
			// package): discover its leaves as for any parent.
			c.mu.Lock()
			c.total--
			c.tops++
			c.mu.Unlock()
			cd := c.discoverOne(ctx, u)
			if ctx.Err() == nil {
				c.discovered(ctx, s, u, cd, false)
			}
		default:
			c.finish(e.Entry, false)
		}
	})
}

// A unitResult is the outcome of one unit's run: its entry, and whether
// the run showed sub-benchmarks of a unit that was run without discovery.
type unitResult struct {
	manifest.Entry
	subs bool
}

// unitArgs returns the test binary flags that select unit u: its
// pattern, and for a unit run without discovery the Skip pattern, so
// that a sub-benchmark Skip names does not run should it have some.
func (c *collector) unitArgs(u unit) []string {
	args := []string{"-test.run", "^$", "-test.bench", benchname.Pattern([]string{u.name})}
	if u.unchecked && c.cfg.Skip != "" {
		args = append(args, "-test.skip", c.cfg.Skip)
	}
	return args
}

// hasSubs reports whether the output of unit u's run shows that it
// created sub-benchmarks, which only a unit run without discovery can.
func hasSubs(u unit, output []byte) bool {
	if !u.unchecked {
		return false
	}
	t := parseTrace(output, u.name)
	for _, l := range t.leaves() {
		if l != u.name {
			return true
		}
	}
	return false
}

// A unit is one benchmark to profile.
type unit struct {
	b    *built
	name string
	// unchecked is set for a top-level benchmark run as a unit without a
	// discovery run, because its source creates no sub-benchmarks; its
	// run's output is checked for sub-benchmarks all the same.
	unchecked bool
}
