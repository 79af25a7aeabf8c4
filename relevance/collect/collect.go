package collect

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/pprof/profile"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare/measure"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/gomod"
	"github.com/mbopt/mbopt/internal/proc"
	"github.com/mbopt/mbopt/internal/testbin"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/covdata"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// maxRediscoveries bounds the discovery runs of one top-level benchmark
// after the first: each skips every sub-benchmark that crashed so far.
const maxRediscoveries = 16

// Collect discovers the benchmarks selected by cfg, profiles each one in a
// process of its own and merges the results into the manifest in cfg.Out;
// see the package documentation for the steps, the files, resuming and
// fault handling. It returns the manifest, whose entries are sorted by
// package, then name.
//
// Collect fails with an [*mbopt.Error] (see package mbopt) when
// cfg names no module, no package, or an unusable output directory, when
// Bench or Skip is invalid, or when another process holds Out's lock (the
// error then also matches [ErrLocked]); in these cases it has written
// nothing. It fails with an input error wrapping [ErrNoBenchmarks] when nothing
// is selected, and when ctx is canceled; in the last case the manifest
// written so far, holding every benchmark that finished, is returned too.
// Failing benchmarks are not errors: they are entries with a status other
// than ok.
//
// Its cost is one go test -c per package, one short discovery run per
// top-level benchmark (unless TopLevelOnly, or the discovery cache knows
// the test binary), and one run of about BenchTime plus setup per
// benchmark not reused, cfg.Jobs at a time.
func Collect(ctx context.Context, cfg Config) (*manifest.Manifest, error) {
	c, err := newCollector(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.instructions() {
		if _, err := measure.FindValgrind(""); err != nil {
			return nil, mbopt.Field("Source").Errorf("%s counts each function's instructions under Valgrind: %w", manifest.SourceInstructions, noValgrind{})
		}
	}
	if err := checkModule(ctx, cfg); err != nil {
		return nil, err
	}
	pkgs, err := Discover(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, mbopt.Errorf("%w in %s", ErrNoBenchmarks, strings.Join(cfg.patterns(), " "))
	}
	if c.m, err = c.describe(ctx, pkgs); err != nil {
		return nil, err
	}
	created, err := c.makeOut()
	if err != nil {
		return nil, err
	}
	unlock, err := lockDir(c.out)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := c.checkSource(); err != nil {
		return nil, err
	}
	removeStale(c.out)
	defer os.RemoveAll(filepath.Join(c.out, binDir))
	c.loadPrevious()

	beatCtx, stopBeats := context.WithCancel(ctx)
	beating := make(chan struct{})
	go func() {
		c.beat(beatCtx)
		close(beating)
	}()
	c.run(ctx, pkgs)
	var shareErr error
	if c.shard != nil && ctx.Err() == nil {
		shareErr = c.runShare(ctx)
	}
	stopBeats()
	<-beating // no Progress call after Collect returns
	if shareErr != nil {
		return c.m, shareErr
	}
	if err := ctx.Err(); err != nil {
		return c.m, err
	}
	if len(c.seen) == 0 && !c.shardPartitioned() {
		if created {
			unlock()
			os.RemoveAll(c.out)
		}
		return nil, mbopt.Errorf("%w matching %q in %s", ErrNoBenchmarks, cfg.Bench, strings.Join(cfg.patterns(), " "))
	}
	c.dropVanished()
	c.dropOtherShards()
	if err := c.writeManifest(); err != nil {
		return c.m, fmt.Errorf("writing manifest: %w", err)
	}
	built := map[string]string{}
	for _, l := range c.newCache.Lists {
		built[l.Package] = l.Binary
	}
	for _, b := range c.built {
		built[b] = ""
	}
	merge(c.cache, c.newCache, built).write(c.out) // a cache that cannot be written costs only time
	return c.m, nil
}

// A collector holds the state of one Collect call.
type collector struct {
	cfg    Config
	out    string // absolute output directory
	filter *benchname.Filter
	skip   *benchname.Filter // nil: skip nothing
	prev   map[string]manifest.Entry
	cache  *discoveryCache // from the previous run; empty with Force
	modDir string          // main module root
	shard  *sharding       // nil unless cfg.Shard is enabled
	cov    *covdata.Index  // parsed source of the instrumented packages (Source cover)

	mu         sync.Mutex // guards everything below, and manifest writes
	m          *manifest.Manifest
	index      map[string]int    // m.Benchmarks index by ID
	seen       map[string]bool   // IDs this run decided
	incomplete map[string]bool   // IDs of top-level benchmarks whose sub-benchmarks are not all known
	newCache   *discoveryCache   // this run's discoveries
	built      []string          // packages built, successfully or not
	total      int               // benchmarks known so far
	done       int               // benchmarks finished so far
	counts     map[EventKind]int // events emitted, for Done counts
	tops       int               // top-level benchmarks to discover, known so far

	evMu  sync.Mutex // serializes Progress calls
	beats heartbeat  // processes running, for EventRunning
}

// newCollector checks the parts of cfg that need no go command.
func newCollector(cfg Config) (*collector, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	filter, _ := benchname.CompileFilter(cfg.Bench)
	c := &collector{cfg: cfg, filter: filter, prev: map[string]manifest.Entry{},
		cache: &discoveryCache{Version: cacheVersion}, newCache: &discoveryCache{Version: cacheVersion},
		index: map[string]int{}, seen: map[string]bool{}, incomplete: map[string]bool{}, counts: map[EventKind]int{},
		cov: covdata.NewIndex()}
	if cfg.Skip != "" {
		c.skip, _ = benchname.CompileFilter(cfg.Skip)
	}
	var err error
	if c.shard, err = checkShard(cfg); err != nil {
		return nil, err
	}
	if c.out, err = filepath.Abs(cfg.Out); err != nil {
		return nil, mbopt.Field("Out").Errorf("%w", err)
	}
	fi, err := os.Stat(c.out)
	switch {
	case err == nil && !fi.IsDir():
		return nil, mbopt.Field("Out").Errorf("output directory %s is not a directory", cfg.Out)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, mbopt.Field("Out").Errorf("output directory %s: %w", cfg.Out, err)
	}
	return c, nil
}

// checkModule checks that cfg.Dir is a directory inside a Go module.
func checkModule(ctx context.Context, cfg Config) error {
	dir := cfg.Dir
	if dir == "" {
		dir = "."
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return mbopt.Field("Dir").Errorf("%s is not a directory", dir)
	}
	if _, err := gomod.Find(dir); errors.Is(err, gomod.ErrNoModule) {
		abs, _ := filepath.Abs(dir)
		return mbopt.Field("Dir").Errorf("%s is not inside a Go module (no go.mod there or in a parent directory): run in the module to profile", abs)
	} else if err != nil {
		return mbopt.Field("Dir").Errorf("%w", err)
	}
	return nil
}

// makeOut creates the output directory and reports whether it did.
func (c *collector) makeOut() (created bool, err error) {
	if _, err := os.Stat(c.out); err == nil {
		return false, nil
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return false, mbopt.Field("Out").Errorf("cannot create output directory %s: %w", c.cfg.Out, err)
	}
	return true, nil
}

// loadPrevious merges the previous manifest's entries into c.m and reads
// the discovery cache, unless cfg.Force. A previous manifest that cannot
// be read, or that describes another module, is replaced.
func (c *collector) loadPrevious() {
	if c.cfg.Force {
		return
	}
	prev, err := manifest.Load(c.out)
	if err != nil || prev.Module != c.m.Module {
		return
	}
	for _, e := range prev.Benchmarks {
		c.prev[e.ID] = e
		c.index[e.ID] = len(c.m.Benchmarks)
		c.m.Benchmarks = append(c.m.Benchmarks, e)
	}
	c.cache = loadCache(c.out)
}

func (c *collector) emit(ev Event) {
	if c.cfg.Progress == nil {
		return
	}
	c.evMu.Lock()
	defer c.evMu.Unlock()
	c.cfg.Progress(ev)
}

// describe returns an empty manifest describing the module and toolchain.
func (c *collector) describe(ctx context.Context, pkgs []Package) (*manifest.Manifest, error) {
	m := &manifest.Manifest{Version: manifest.SchemaVersion, BenchTime: c.cfg.EffectiveBenchTime(), BuildFlags: c.cfg.buildFlags()}
	if c.cfg.cover() {
		m.Version, m.Source = manifest.SchemaVersionCover, manifest.SourceCover
	}
	if c.cfg.instructions() {
		m.Version, m.Source = manifest.SchemaVersionCover, manifest.SourceInstructions
	}
	if (c.cfg.cover() || c.cfg.instructions()) && c.cfg.timed() {
		m.Version, m.Scope = manifest.SchemaVersionTimed, manifest.ScopeTimed
	}
	env, err := c.output(ctx, c.cfg.Dir, c.cfg.goCmd(), "env", "GOVERSION", "GOOS", "GOARCH")
	if err != nil {
		return nil, fmt.Errorf("go env: %w", err)
	}
	if f := strings.Fields(env); len(f) == 3 {
		m.GoVersion, m.GOOS, m.GOARCH = f[0], f[1], f[2]
	}
	// The main module is the one whose root is the longest prefix of Dir.
	dir, _ := filepath.Abs(c.cfg.Dir)
	for _, p := range pkgs {
		if p.ModuleDir != "" && (dir == p.ModuleDir || strings.HasPrefix(dir, p.ModuleDir+string(filepath.Separator))) && len(p.ModuleDir) > len(c.modDir) {
			m.Module, c.modDir = p.Module, p.ModuleDir
		}
	}
	if m.Module == "" {
		m.Module, c.modDir = pkgs[0].Module, pkgs[0].ModuleDir
	}
	if c.modDir != "" {
		if rev, err := c.output(ctx, c.modDir, "git", "rev-parse", "HEAD"); err == nil {
			m.VCSRevision = strings.TrimSpace(rev)
			st, err := c.output(ctx, c.modDir, "git", "status", "--porcelain", "--untracked-files=no")
			m.VCSModified = err == nil && strings.TrimSpace(st) != ""
		}
	}
	return m, nil
}

// output runs a short command and returns its standard output.
func (c *collector) output(ctx context.Context, dir, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = c.cfg.env()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := proc.Run(cmd)
	if err != nil && stderr.Len() > 0 {
		err = fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), err
}

// A built package is a package whose test binary was built and listed.
type built struct {
	pkg  Package
	dir  string   // package dir relative to the module root, "/"-separated
	bin  string   // test binary path
	hash string   // "sha256:..."
	tops []string // selected top-level benchmarks, sorted
}

// relDir returns p's directory relative to its module root.
func relDir(p Package) string {
	if p.ModuleDir == "" {
		return filepath.ToSlash(p.Dir)
	}
	rel, err := filepath.Rel(p.ModuleDir, p.Dir)
	if err != nil {
		return filepath.ToSlash(p.Dir)
	}
	return filepath.ToSlash(rel)
}

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

// finish records entry e, replacing any earlier entry with its ID, and
// rewrites the manifest when e changed it; in the first phase of a sharded
// run it queues e for the partition instead.
func (c *collector) finish(e manifest.Entry, reused bool) {
	if c.deferEntry(e, reused) {
		return
	}
	if e.Status != manifest.StatusOK {
		// A profile left by an earlier run must not pass for this one's.
		os.Remove(filepath.Join(c.out, manifest.ProfileName(c.m.Module, e.Package, e.Name)))
		os.Remove(filepath.Join(c.out, manifest.FunctionsName(c.m.Module, e.Package, e.Name)))
	}
	c.mu.Lock()
	if i, ok := c.index[e.ID]; ok {
		if c.m.Benchmarks[i] != e {
			c.m.Benchmarks[i] = e
			c.writeManifestLocked()
		}
	} else {
		c.index[e.ID] = len(c.m.Benchmarks)
		c.m.Benchmarks = append(c.m.Benchmarks, e)
		c.writeManifestLocked()
	}
	c.seen[e.ID] = true
	c.done++
	d := c.done
	total := max(c.total, d)
	c.mu.Unlock()
	c.emit(Event{Kind: EventFinish, Package: e.Package, Name: e.Name, Entry: &e, Reused: reused, Done: d, Total: total})
}

// dropVanished removes the entries of benchmarks this run was asked about
// but did not find: their package matches Patterns, Bench selects them and
// Skip does not, and they are not below a top-level benchmark whose
// sub-benchmarks could not all be discovered. Every other entry stays as
// it was.
func (c *collector) dropVanished() {
	dir, _ := filepath.Abs(c.cfg.Dir)
	inPatterns := packageMatcher(c.cfg.patterns(), dir, c.m.Module, c.modDir)
	keep := c.m.Benchmarks[:0]
	for _, e := range c.m.Benchmarks {
		drop := !c.seen[e.ID] && inPatterns(e.Package) && c.selects(e.Name, false) &&
			!c.incomplete[benchname.ID(e.Package, benchname.Top(e.Name))]
		if !drop {
			keep = append(keep, e)
		}
	}
	c.m.Benchmarks = keep
}

// buildOne builds and lists one package. When that fails, it records
// entries for the package's declared benchmarks and returns the error; the
// returned built has no bin then.
func (c *collector) buildOne(ctx context.Context, p Package) (*built, error) {
	b := &built{pkg: p, dir: relDir(p)}
	if err := os.MkdirAll(filepath.Join(c.out, binDir), 0o755); err != nil {
		return b, err
	}
	bin := filepath.Join(c.out, binDir, benchname.UniqueFileName(p.Path, p.Path, 120)+".test")
	build := testbin.Build{GoCmd: c.cfg.goCmd(), Dir: c.cfg.Dir, Env: c.cfg.env(),
		Flags: append(c.cfg.buildFlags(), c.coverFlags()...), Package: p.Path, Out: bin}
	start := time.Now()
	if out, err := build.Run(ctx); err != nil {
		if ctx.Err() != nil {
			return b, ctx.Err()
		}
		msg := testbin.BuildError(out)
		log := c.writeLog(benchname.UniqueFileName(p.Path, p.Path, 120)+".build", "go "+strings.Join(build.Args(), " "), out)
		c.addDeclared(b, manifest.StatusBuildFailed, shorten(msg), log, time.Since(start))
		return b, fmt.Errorf("building test binary: %s", textutil.FirstLine(msg))
	}
	hash, err := hashFile(bin)
	if err != nil {
		return b, err
	}
	b.hash = hash
	tops, ok := c.cache.list(hash)
	if !ok {
		var r procResult
		tops, r = listBenchmarks(ctx, p.Dir, c.cfg.env(), c.cfg.timeout(), bin)
		if ctx.Err() != nil {
			return b, ctx.Err()
		}
		if r.Err != nil || r.TimedOut {
			msg := "listing benchmarks: " + crashMessage(r, "-test.list", c.cfg.timeout())
			log := c.writeLog(benchname.UniqueFileName(p.Path, p.Path, 120)+".list", strings.Join(append([]string{bin}, testbin.ListArgs()...), " "), r.Output)
			c.addDeclared(b, statusOf(r), msg, log, r.Wall)
			return b, errors.New(textutil.FirstLine(msg))
		}
	}
	c.mu.Lock()
	c.newCache.Lists = append(c.newCache.Lists, cachedList{Package: p.Path, Binary: hash, Names: tops})
	c.mu.Unlock()
	if len(tops) == 0 {
		tops = p.Benchmarks // a TestMain that does not call m.Run lists nothing
	}
	for _, t := range tops {
		if ok, _ := c.filter.Match(t); ok && (c.skip == nil || !c.skip.Selects(t)) {
			b.tops = append(b.tops, t)
		}
	}
	slices.Sort(b.tops)
	b.bin = bin
	return b, nil
}

// statusOf returns the status of a process that crashed.
func statusOf(r procResult) manifest.Status {
	if r.TimedOut {
		return manifest.StatusTimeout
	}
	return manifest.StatusFailed
}

// addDeclared records an entry for every selected benchmark b's source
// declares.
func (c *collector) addDeclared(b *built, st manifest.Status, msg, log string, wall time.Duration) {
	for _, name := range b.pkg.Benchmarks {
		if !c.selects(name, true) {
			continue
		}
		e := c.entry(b, name)
		e.Status, e.Error, e.Log, e.WallSeconds = st, msg, log, wall.Seconds()
		c.mu.Lock()
		c.total++
		c.mu.Unlock()
		c.finish(e, false)
	}
}

// entry returns a new entry for benchmark name of b.
func (c *collector) entry(b *built, name string) manifest.Entry {
	return manifest.Entry{
		ID:         benchname.ID(b.pkg.Path, name),
		Package:    b.pkg.Path,
		Dir:        b.dir,
		Name:       name,
		BenchTime:  c.cfg.EffectiveBenchTime(),
		TestBinary: b.hash,
	}
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

// logBase returns the log file base name for entry e.
func logBase(mod string, e manifest.Entry) string {
	return strings.TrimSuffix(manifest.ProfileName(mod, e.Package, e.Name), ".pprof")
}

// writeLog writes command and output to logs/base.log and returns its path
// relative to the output directory, or "" when writing fails.
func (c *collector) writeLog(base, command string, output []byte) string {
	rel := filepath.Join("logs", base+".log")
	if err := os.MkdirAll(filepath.Join(c.out, "logs"), 0o755); err != nil {
		return ""
	}
	data := append([]byte("$ "+command+"\n"), output...)
	if err := atomicfile.WriteFile(filepath.Join(c.out, rel), data); err != nil {
		return ""
	}
	return filepath.ToSlash(rel)
}

// reusable returns the previous entry for u when it was taken with the
// same test binary and benchtime and either its profile is complete and
// unchanged (the file's hash is the recorded one) or it failed, timed out
// or skipped and cfg.RetryFailed is off.
func (c *collector) reusable(u unit) (manifest.Entry, bool) {
	e, ok := c.prev[benchname.ID(u.b.pkg.Path, u.name)]
	if !ok || e.TestBinary != u.b.hash || e.BenchTime != c.cfg.EffectiveBenchTime() {
		return manifest.Entry{}, false
	}
	switch e.Status {
	case manifest.StatusOK:
		file, sum := e.Profile, e.ProfileSHA256
		if c.cfg.cover() {
			file, sum = e.Functions, e.FunctionsSHA256
		}
		if file == "" || sum == "" {
			return manifest.Entry{}, false
		}
		if h, err := hashFile(filepath.Join(c.out, file)); err != nil || h != "sha256:"+sum {
			return manifest.Entry{}, false
		}
	case manifest.StatusFailed, manifest.StatusTimeout:
		if c.cfg.RetryFailed {
			return manifest.Entry{}, false
		}
	case manifest.StatusSkipped:
	default:
		return manifest.Entry{}, false
	}
	e.Dir = u.b.dir
	return e, true
}

// profile runs unit u alone with a CPU profile. It returns false when ctx
// was canceled before the run ended.
func (c *collector) profile(ctx context.Context, u unit) (unitResult, bool) {
	e := c.entry(u.b, u.name)
	file := manifest.ProfileName(c.m.Module, e.Package, e.Name)
	f, err := atomicfile.Create(filepath.Join(c.out, file))
	if err != nil {
		e.Status, e.Error = manifest.StatusFailed, "creating the profile file: "+err.Error()
		return unitResult{Entry: e}, true
	}
	defer f.Cleanup()
	f.Close() // the test binary writes it by name
	args := append(c.unitArgs(u), "-test.benchtime", c.cfg.EffectiveBenchTime(), "-test.count", "1", "-test.v", "-test.cpuprofile", f.Name())
	r := c.track(PhaseMeasurement, u.b.pkg.Path, u.name, func() procResult {
		return runProcess(ctx, u.b.pkg.Dir, c.cfg.env(), c.cfg.timeout(), u.b.bin, args...)
	})
	if ctx.Err() != nil {
		return unitResult{}, false
	}
	if hasSubs(u, r.Output) {
		return unitResult{subs: true}, true
	}
	if c.judge(&e, r, u.name) {
		p, err := readProfile(f.Name())
		switch {
		case errors.Is(err, io.EOF) || errors.Is(err, os.ErrNotExist):
			e.Status, e.Error = manifest.StatusFailed, "no profile written (does TestMain call m.Run, or does the benchmark call os.Exit?)"
		case err != nil:
			e.Status, e.Error = manifest.StatusFailed, "profile unreadable: "+err.Error()
		default:
			hash, herr := hashFile(f.Name())
			if herr == nil {
				herr = f.Commit()
			}
			if herr != nil {
				e.Status, e.Error = manifest.StatusFailed, herr.Error()
				break
			}
			e.Status, e.Profile, e.Samples = manifest.StatusOK, file, len(p.Sample)
			e.ProfileSHA256 = strings.TrimPrefix(hash, "sha256:")
		}
	}
	if e.Status != manifest.StatusOK {
		e.Log = c.writeLog(logBase(c.m.Module, e), u.b.bin+" "+strings.Join(args, " "), r.Output)
	}
	return unitResult{Entry: e}, true
}

// judge sets e's status, error and results from the run r of benchmark
// name, and reports whether the run succeeded, leaving the status to the
// caller, who must still check what the run wrote.
func (c *collector) judge(e *manifest.Entry, r procResult, name string) bool {
	e.WallSeconds = r.Wall.Seconds()
	if res, ok := findResult(parseResults(r.Output), name); ok {
		e.NsPerOp, e.Iterations = res.nsPerOp, res.iterations
	}
	t := parseTrace(r.Output, name)
	switch {
	case crashed(r):
		e.Status, e.Error = statusOf(r), crashMessage(r, t.running(name), c.cfg.timeout())
	case r.Err != nil:
		e.Status = manifest.StatusFailed
		if e.Error = failBlock(r.Output, "FAIL", name); e.Error == "" {
			e.Error = crashMessage(r, t.running(name), c.cfg.timeout())
		}
	case t.skipped[name] && e.Iterations == 0:
		e.Status, e.Error = manifest.StatusSkipped, failBlock(r.Output, "SKIP", name)
	default:
		return true
	}
	return false
}

// readProfile parses the profile in file.
func readProfile(file string) (*profile.Profile, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, io.EOF
	}
	return profile.ParseData(data)
}

func (c *collector) writeManifest() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writeManifestLocked()
}

func (c *collector) writeManifestLocked() error {
	err := c.m.Write(c.out)
	for i, e := range c.m.Benchmarks { // Write sorts
		c.index[e.ID] = i
	}
	return err
}

// writeRecorded writes file in Out atomically with write, and returns the
// hex SHA-256 of what it wrote, as the manifest records it; what names the
// file in the error.
func (c *collector) writeRecorded(file, what string, write func(io.Writer) error) (string, error) {
	path := filepath.Join(c.out, file)
	if err := atomicfile.Write(path, write); err != nil {
		return "", fmt.Errorf("writing %s: %w", what, err)
	}
	hash, err := hashFile(path)
	return strings.TrimPrefix(hash, "sha256:"), err
}

// hashFile returns "sha256:" and the hex SHA-256 of file's contents.
func hashFile(file string) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// shorten keeps the first maxErrorLines lines of s.
func shorten(s string) string {
	ls := strings.Split(s, "\n")
	if len(ls) > maxErrorLines {
		ls = append(ls[:maxErrorLines], "...")
	}
	return strings.Join(ls, "\n")
}

// noValgrind is measure.ErrNoValgrind (errors.Is matches it) worded for a
// collection, whose other sources are the way out.
type noValgrind struct{}

func (noValgrind) Error() string {
	return fmt.Sprintf("valgrind is not in PATH; install it (Debian/Ubuntu: apt-get install valgrind, the package valgrind), or collect with source %s, whose timed scope needs no Valgrind", manifest.SourceCover)
}

func (noValgrind) Is(target error) bool { return target == measure.ErrNoValgrind }
