package collect

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// This file runs a top-level benchmark's discovery run (-test.benchtime
// 1x), which names its sub-benchmarks, and runs it again past the ones
// that crashed; see "Discovery" in the package documentation.

// maxRediscoveries bounds the discovery runs of one top-level benchmark
// after the first: each skips every sub-benchmark that crashed so far.
const maxRediscoveries = 16

// discoverOne runs top with -test.benchtime 1x and returns the leaves to
// profile and the entries of the benchmarks that failed, skipped or
// crashed in that run. When a sub-benchmark crashes (panics, exits, hangs)
// the benchmarks after it did not run, so discovery runs again with the
// crashed ones skipped (-test.skip), until a run ends normally, the
// top-level benchmark itself is what crashed, or maxRediscoveries runs
// followed the first; then Incomplete is set.
func (c *collector) discoverOne(ctx context.Context, top unit) cachedDiscovery {
	cd := cachedDiscovery{Package: top.b.pkg.Path, Binary: top.b.hash, Top: top.name, Skip: c.cfg.Skip}
	decided := map[string]bool{}
	var crashedNames []string
	c.emit(Event{Kind: EventDiscoverStart, Package: top.b.pkg.Path, Name: top.name})
	for attempt := 0; ; attempt++ {
		args := []string{"-test.run", "^$", "-test.bench", benchname.Pattern([]string{top.name}),
			"-test.benchtime", "1x", "-test.cpu", "1", "-test.count", "1", "-test.v"}
		skip := c.cfg.Skip
		if len(crashedNames) > 0 {
			if skip != "" {
				skip += "|"
			}
			skip += benchname.Pattern(crashedNames)
		}
		if skip != "" {
			args = append(args, "-test.skip", skip)
		}
		r := c.track(PhaseDiscovery, top.b.pkg.Path, top.name, func() procResult {
			return runProcess(ctx, top.b.pkg.Dir, c.cfg.env(), c.cfg.discoveryTimeout(), top.b.bin, args...)
		})
		if ctx.Err() != nil {
			return cd
		}
		t := parseTrace(r.Output, top.name)
		record := func(name string, st manifest.Status, msg string) {
			if decided[name] {
				return
			}
			decided[name] = true
			e := c.entry(top.b, name)
			e.Status, e.WallSeconds = st, r.Wall.Seconds()
			e.Error = msg + "\n(in the discovery run, -test.benchtime 1x)"
			e.Log = c.writeLog(logBase(c.m.Module, e), top.b.bin+" "+strings.Join(args, " "), r.Output)
			cd.Entries = append(cd.Entries, e)
		}
		crash := crashed(r)
		culprit := ""
		if crash {
			culprit = t.running(top.name)
			msg := crashMessage(r, culprit, c.cfg.discoveryTimeout())
			if r.TimedOut {
				msg = discoveryTimeoutMessage(top.name, c.cfg.discoveryTimeout()) + "\n" + msg
			}
			record(culprit, statusOf(r), msg)
		}
		for _, leaf := range t.leaves() {
			switch {
			case leaf == culprit || decided[leaf]:
			case t.failed[leaf]:
				record(leaf, manifest.StatusFailed, failBlock(r.Output, "FAIL", leaf))
			case t.skipped[leaf]:
				record(leaf, manifest.StatusSkipped, failBlock(r.Output, "SKIP", leaf))
			case crash && !t.done(leaf):
				// Interrupted by the crash of a parent; not run alone.
			default:
				decided[leaf] = true
				cd.Leaves = append(cd.Leaves, leaf)
			}
		}
		if !crash {
			if len(t.seen) == 0 && attempt == 0 {
				cd.Leaves = append(cd.Leaves, top.name) // e.g. a TestMain that prints nothing
			}
			break
		}
		if culprit == top.name || slices.Contains(crashedNames, culprit) {
			// Nothing below top can be skipped to get further.
			cd.Incomplete = true
			break
		}
		if attempt == maxRediscoveries {
			cd.Incomplete = true
			e := c.entry(top.b, top.name)
			e.Status, e.Error = manifest.StatusFailed, fmt.Sprintf("%d sub-benchmarks crashed; sub-benchmarks after %s were not discovered", len(crashedNames)+1, culprit)
			cd.Entries = append(cd.Entries, e)
			break
		}
		crashedNames = append(crashedNames, culprit)
	}
	slices.Sort(cd.Leaves)
	slices.SortFunc(cd.Entries, func(a, b manifest.Entry) int { return strings.Compare(a.ID, b.ID) })
	return cd
}

// discoveryTimeoutMessage says that the discovery run of top-level
// benchmark top ran out of time, and what to do instead.
func discoveryTimeoutMessage(top string, timeout time.Duration) string {
	return fmt.Sprintf("finding the sub-benchmarks of %s took longer than the discovery timeout, %v (a -benchtime 1x run, its setup included): collect it as one unit (mbopt profile --sub=false; Config.TopLevelOnly), leave it out (--skip; Config.Skip), or give discovery longer (--discovery-timeout; Config.DiscoveryTimeout)", top, timeout)
}
