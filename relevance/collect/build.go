package collect

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/testbin"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/manifest"
)

// This file builds and lists a package's test binary (one go test -c and
// one -test.list per package), and records the declared benchmarks of a
// package whose binary cannot be built or listed.

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
