package engine

// This file builds each package's test binary in both versions and
// makes the units the schedule runs.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/testbin"
	"github.com/mbopt/mbopt/internal/textutil"
)

// buildAll builds the test binaries and makes the units.
func (r *runner) buildAll(ctx context.Context, ws *workspace) error {
	var pkgs []string
	if len(r.plan.Benchmarks) > 0 {
		for _, b := range r.plan.Benchmarks {
			if _, ok := r.pkgDir(r.vers[Base], b.Package); !ok {
				return FieldBenchmarks.Errorf("benchmark %s %s: package %s is not in the module %s", b.Package, b.Name, b.Package, r.mod.path)
			}
			if !strings.HasPrefix(b.Name, "Benchmark") {
				return FieldBenchmarks.Errorf("benchmark %s %q: a full name starts with \"Benchmark\"", b.Package, b.Name)
			}
			pkgs = append(pkgs, b.Package)
		}
	} else {
		seen := map[string]bool{}
		for side, v := range r.vers {
			if side == int(Head) && r.same {
				break
			}
			ps, err := r.listPackages(ctx, v)
			if err != nil {
				return err
			}
			for _, p := range ps {
				if !seen[p] {
					seen[p] = true
					pkgs = append(pkgs, p)
				}
			}
		}
	}
	slices.Sort(pkgs)
	pkgs = slices.Compact(pkgs)
	total := len(pkgs) * 2
	if r.same {
		total = len(pkgs)
	}
	done := 0
	for _, p := range pkgs {
		var pb [2]*pkgBuild
		for side := range r.vers {
			if side == int(Head) && r.same {
				pb[Head] = pb[Base]
				continue
			}
			start := time.Now()
			b, cached, err := r.build(ctx, ws, Side(side), p)
			if err != nil {
				return err
			}
			pb[side] = b
			done++
			r.emit(Event{Kind: EventBuild, Done: done, Total: total, Package: p, Side: Side(side), Wall: time.Since(start), Cached: cached, Err: errOf(b.err)})
		}
		r.builds[p] = &pb
	}
	r.makeUnits(pkgs)
	if len(r.units) == 0 {
		// Nothing to compare is bad input whether or not some package
		// failed to build: the failures are named, since a package that
		// built in neither revision may hold the benchmarks asked for.
		what := "no benchmark matches " + strconv.Quote(r.plan.Bench)
		if len(r.plan.Benchmarks) > 0 {
			what = "none of the benchmarks exists"
		}
		return FieldBench.Errorf("%s in %s in either revision%s", what, strings.Join(r.patterns(), " "), r.buildFailures())
	}
	return nil
}

// makeUnits makes the units of pkgs: the named benchmarks (Plan.Benchmarks),
// or the top-level benchmarks Plan.Bench selects in either version.
func (r *runner) makeUnits(pkgs []string) {
	if len(r.plan.Benchmarks) > 0 {
		seen := map[string]bool{}
		for _, b := range r.plan.Benchmarks {
			name := benchname.Rewrite(b.Name)
			u := &unit{pkg: b.Package, name: name, pattern: benchname.Pattern([]string{name}), requested: true}
			if seen[u.id()] {
				continue
			}
			seen[u.id()] = true
			for side, pb := range r.builds[b.Package] {
				u.on[side] = pb.bin != "" && slices.Contains(pb.tops, benchname.Top(name))
			}
			r.units = append(r.units, u)
		}
	} else {
		filter, _ := benchname.CompileFilter(r.plan.Bench)
		for _, p := range pkgs {
			pb := r.builds[p]
			var tops []string
			for _, b := range pb {
				for _, t := range b.tops {
					if ok, _ := filter.Match(t); ok {
						tops = append(tops, t)
					}
				}
			}
			slices.Sort(tops)
			for _, t := range slices.Compact(tops) {
				u := &unit{pkg: p, name: t, pattern: benchname.TopPattern(r.plan.Bench, t)}
				for side, b := range pb {
					u.on[side] = b.bin != "" && slices.Contains(b.tops, t)
				}
				r.units = append(r.units, u)
			}
		}
	}
}

// buildFailures describes the packages that did not build, for the error
// of a comparison with nothing to compare: "" when all built, else "; " and
// each package with the version and the first line of its error, in
// package order.
func (r *runner) buildFailures() string {
	var fs []string
	for _, p := range slices.Sorted(maps.Keys(r.builds)) {
		for side, b := range r.builds[p] {
			if b.err != "" && !(r.same && Side(side) == Head) {
				first, _, _ := strings.Cut(strings.TrimSpace(b.err), "\n")
				fs = append(fs, fmt.Sprintf("%s in the %s (%s)", p, Side(side), first))
			}
		}
	}
	if len(fs) == 0 {
		return ""
	}
	return "; these did not build, so their benchmarks are unknown: " + strings.Join(fs, ", ") + "; fix the build or choose other benchmarks"
}

func errOf(msg string) error {
	if msg == "" {
		return nil
	}
	return errors.New(msg)
}

func (r *runner) patterns() []string {
	if len(r.plan.Packages) == 0 {
		return []string{"./..."}
	}
	return r.plan.Packages
}

// listPackages lists the packages with test files that match the
// patterns in v.
func (r *runner) listPackages(ctx context.Context, v *version) ([]string, error) {
	args := append([]string{"list", "-e", "-f", "{{.ImportPath}} {{len .TestGoFiles}} {{len .XTestGoFiles}}"}, r.patterns()...)
	cmd := exec.CommandContext(ctx, r.plan.goCmd(), args...)
	cmd.Dir, cmd.Env = v.dir, r.plan.env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, FieldPackages.Errorf("go list %s in the %s: %s", strings.Join(r.patterns(), " "), v.rev.Spec, textutil.FirstLine(strings.TrimSpace(stderr.String())))
	}
	var pkgs []string
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) == 3 && (f[1] != "0" || f[2] != "0") {
			pkgs = append(pkgs, f[0])
		}
	}
	return pkgs, nil
}

// cacheKey identifies a test binary built from a commit; seedKey is
// runseed.Overlay's key when the build fixes the runtime's seed.
func (r *runner) cacheKey(v *version, pkg, seedKey string) string {
	h := sha256.New()
	for _, s := range []string{"mbopt-testbin-1", seedKey, v.rev.Commit, r.mod.rel, pkg, v.govers, strings.Join(r.plan.BuildFlags, "\x00"), strings.Join(r.plan.Env, "\x00"), os.Getenv("GOFLAGS"), os.Getenv("GOOS"), os.Getenv("GOARCH"), os.Getenv("CGO_ENABLED")} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// build builds (or finds in the cache) pkg's test binary in a version and
// lists its benchmarks. A build failure is recorded, not returned.
func (r *runner) build(ctx context.Context, ws *workspace, side Side, pkg string) (b *pkgBuild, cached bool, err error) {
	v := r.vers[side]
	dir, _ := r.pkgDir(v, pkg)
	b = &pkgBuild{dir: dir}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return b, false, nil // not in this version: its benchmarks are added or removed
	}
	b.exist = true
	cache := r.plan.cacheDir()
	replace, seedKey, err := r.countedOverlay(ctx, ws, side)
	if err != nil {
		return nil, false, err
	}
	if side == Head && len(r.plan.HeadFiles) > 0 {
		heads, err := r.headOverlay(ws, v)
		if err != nil {
			return nil, false, err
		}
		replace, cache = mergeReplace(replace, heads), ""
	}
	flags, err := r.overlayFlags(ws, side, replace)
	if err != nil {
		return nil, false, err
	}
	var bin string
	if cache != "" && !v.rev.Dirty {
		bin = filepath.Join(cache, r.cacheKey(v, pkg, seedKey)+".test")
	} else {
		bin = filepath.Join(ws.dir, "bin", side.String(), benchname.UniqueFileName(pkg, pkg, 120)+".test")
	}
	nobin := bin + ".none" // marks a cached package without test files
	if _, err := os.Stat(bin); err == nil && cache != "" && !v.rev.Dirty {
		cached = true
	} else if _, err := os.Stat(nobin); err == nil && cache != "" && !v.rev.Dirty {
		return b, true, nil
	} else {
		if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
			return nil, false, err
		}
		tmp := bin + ".tmp-" + strconv.Itoa(os.Getpid())
		build := testbin.Build{GoCmd: r.plan.goCmd(), Dir: v.dir, Env: r.plan.env(), Flags: flags, Package: pkg, Out: tmp}
		if out, err := build.Run(ctx); err != nil {
			os.Remove(tmp)
			if ctx.Err() != nil {
				return nil, false, ctx.Err()
			}
			b.err = shorten(testbin.BuildError(out))
			return b, false, nil
		}
		if _, err := os.Stat(tmp); err != nil {
			if cache != "" && !v.rev.Dirty {
				os.WriteFile(nobin, nil, 0o644)
			}
			return b, false, nil // no test files
		}
		if err := os.Rename(tmp, bin); err != nil {
			return nil, false, err
		}
	}
	tops, res := testbin.List(ctx, dir, r.plan.env(), time.Minute, bin)
	if ctx.Err() != nil {
		return nil, false, ctx.Err()
	}
	if res.Err != nil || res.TimedOut {
		b.err = "listing benchmarks: " + shorten(testbin.Failure(res.Output, 8))
		return b, cached, nil
	}
	b.list, b.tops = res.Wall, tops
	b.bin = bin
	return b, cached, nil
}

// shorten keeps the first 20 lines of s.
func shorten(s string) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	if len(ls) > 20 {
		ls = append(ls[:20], "...")
	}
	return strings.Join(ls, "\n")
}

// headOverlay writes Plan.HeadFiles into the workspace, once, and returns
// the go build -overlay replacements that put them in place of the head
// worktree's files (v is the head).
func (r *runner) headOverlay(ws *workspace, v *version) (map[string]string, error) {
	dir := filepath.Join(ws.dir, "overlay")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	replace := map[string]string{}
	for i, rel := range slices.Sorted(maps.Keys(r.plan.HeadFiles)) {
		if !filepath.IsLocal(filepath.FromSlash(rel)) {
			return nil, fmt.Errorf("Options.HeadFiles: %q is not a path inside the module", rel)
		}
		file := filepath.Join(dir, strconv.Itoa(i)+"_"+path.Base(rel))
		if _, err := os.Stat(file); err != nil {
			if err := os.WriteFile(file, r.plan.HeadFiles[rel], 0o644); err != nil {
				return nil, err
			}
		}
		replace[filepath.Join(v.dir, filepath.FromSlash(rel))] = file
	}
	return replace, nil
}
