package collect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/gomod"
	"github.com/mbopt/mbopt/internal/proc"
	"github.com/mbopt/mbopt/relevance/covdata"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/relevance/measure"
)

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
			return nil, FieldSource.Errorf("%s counts each function's instructions under Valgrind: %w", manifest.SourceInstructions, noValgrind{})
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
		return nil, FieldOut.Errorf("%w", err)
	}
	fi, err := os.Stat(c.out)
	switch {
	case err == nil && !fi.IsDir():
		return nil, FieldOut.Errorf("output directory %s is not a directory", cfg.Out)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, FieldOut.Errorf("output directory %s: %w", cfg.Out, err)
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
		return FieldDir.Errorf("%s is not a directory", dir)
	}
	if _, err := gomod.Find(dir); errors.Is(err, gomod.ErrNoModule) {
		abs, _ := filepath.Abs(dir)
		return FieldDir.Errorf("%s is not inside a Go module (no go.mod there or in a parent directory): run in the module to profile", abs)
	} else if err != nil {
		return FieldDir.Errorf("%w", err)
	}
	return nil
}

// makeOut creates the output directory and reports whether it did.
func (c *collector) makeOut() (created bool, err error) {
	if _, err := os.Stat(c.out); err == nil {
		return false, nil
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return false, FieldOut.Errorf("cannot create output directory %s: %w", c.cfg.Out, err)
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
