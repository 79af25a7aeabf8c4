package collect

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/pprof/profile"

	"github.com/mbopt/mbopt/benchname"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/par"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/manifest"
)

// Collect discovers the benchmarks selected by cfg, profiles each one in a
// process of its own and writes the profiles and the manifest into cfg.Out;
// see the package documentation for the steps, the files and the fault
// handling. It returns the manifest, whose entries are sorted by package,
// then name.
//
// Collect fails when cfg.Out or cfg.Bench is invalid, when discovery fails,
// when no benchmark matches (the error wraps ErrNoBenchmarks), or when ctx
// is canceled; in the last case the manifest written so far, holding the
// benchmarks that finished, is returned too. Failing benchmarks are not
// errors: they are entries with a status other than ok.
//
// Its cost is one go test -c per package, one short discovery run per
// top-level benchmark (unless TopLevelOnly), and one run of about
// BenchTime plus setup per benchmark, cfg.Jobs at a time.
func Collect(ctx context.Context, cfg Config) (*manifest.Manifest, error) {
	if cfg.Out == "" {
		return nil, errors.New("collect: no output directory (Config.Out)")
	}
	filter, err := benchname.CompileFilter(cfg.Bench)
	if err != nil {
		return nil, fmt.Errorf("benchmark filter: %w", err)
	}
	out, err := filepath.Abs(cfg.Out)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("creating output directory: %w", err)
	}
	c := &collector{cfg: cfg, out: out, filter: filter, prev: map[string]manifest.Entry{}}
	if !cfg.Force {
		// A previous manifest that cannot be read is not reused; it is
		// overwritten below.
		if prev, err := loadPrevious(out); err == nil && prev != nil {
			for _, e := range prev.Benchmarks {
				c.prev[e.ID] = e
			}
		}
	}
	pkgs, err := Discover(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("%w in %s", ErrNoBenchmarks, strings.Join(cfg.patterns(), " "))
	}
	if c.m, err = c.describe(ctx, pkgs); err != nil {
		return nil, err
	}
	defer os.RemoveAll(filepath.Join(out, ".bin"))

	builds := c.build(ctx, pkgs)
	units := c.discover(ctx, builds)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(units) == 0 && len(c.direct) == 0 {
		return nil, fmt.Errorf("%w matching %q in %s", ErrNoBenchmarks, cfg.Bench, strings.Join(cfg.patterns(), " "))
	}
	err = c.profileAll(ctx, units)
	if werr := c.writeManifest(); werr != nil && err == nil {
		err = fmt.Errorf("writing manifest: %w", werr)
	}
	return c.m, err
}

// A collector holds the state of one Collect call.
type collector struct {
	cfg    Config
	out    string // absolute output directory
	filter *benchname.Filter
	prev   map[string]manifest.Entry // previous manifest's entries by ID

	m      *manifest.Manifest
	mu     sync.Mutex       // guards m.Benchmarks, direct, and manifest writes
	direct []manifest.Entry // entries decided before the profile phase

	evMu sync.Mutex // serializes Progress calls
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
	m := &manifest.Manifest{Version: manifest.SchemaVersion, BenchTime: c.cfg.benchTime()}
	env, err := c.output(ctx, c.cfg.Dir, c.cfg.goCmd(), "env", "GOVERSION", "GOOS", "GOARCH")
	if err != nil {
		return nil, fmt.Errorf("go env: %w", err)
	}
	if f := strings.Fields(env); len(f) == 3 {
		m.GoVersion, m.GOOS, m.GOARCH = f[0], f[1], f[2]
	}
	// The main module is the one whose root is the longest prefix of Dir.
	dir, _ := filepath.Abs(c.cfg.Dir)
	var modDir string
	for _, p := range pkgs {
		if p.ModuleDir != "" && (dir == p.ModuleDir || strings.HasPrefix(dir, p.ModuleDir+string(filepath.Separator))) && len(p.ModuleDir) > len(modDir) {
			m.Module, modDir = p.Module, p.ModuleDir
		}
	}
	if m.Module == "" {
		m.Module, modDir = pkgs[0].Module, pkgs[0].ModuleDir
	}
	if modDir != "" {
		if rev, err := c.output(ctx, modDir, "git", "rev-parse", "HEAD"); err == nil {
			m.VCSRevision = strings.TrimSpace(rev)
			st, err := c.output(ctx, modDir, "git", "status", "--porcelain", "--untracked-files=no")
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
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
		err = fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
	}
	return string(out), err
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

// build compiles and lists every package, cfg.Jobs at a time. Packages that
// fail become direct entries.
func (c *collector) build(ctx context.Context, pkgs []Package) []built {
	res := make([]*built, len(pkgs))
	var done int
	var doneMu sync.Mutex
	par.For(ctx, len(pkgs), c.cfg.jobs(), func(i int) {
		b, err := c.buildOne(ctx, pkgs[i])
		if ctx.Err() != nil {
			return
		}
		res[i] = b
		doneMu.Lock()
		done++
		d := done
		doneMu.Unlock()
		c.emit(Event{Kind: EventBuild, Package: pkgs[i].Path, Err: err, Done: d, Total: len(pkgs)})
	})
	var out []built
	for _, b := range res {
		if b != nil && b.bin != "" {
			out = append(out, *b)
		}
	}
	return out
}

// buildOne builds and lists one package. When that fails, it records direct
// entries for the package's declared benchmarks and returns the error.
func (c *collector) buildOne(ctx context.Context, p Package) (*built, error) {
	b := &built{pkg: p, dir: relDir(p)}
	if err := os.MkdirAll(filepath.Join(c.out, ".bin"), 0o755); err != nil {
		return b, err
	}
	bin := filepath.Join(c.out, ".bin", manifest.SafeName(p.Path, 120)+".test")
	args := append([]string{"test", "-c", "-o", bin}, c.cfg.buildFlags()...)
	args = append(args, p.Path)
	cmd := exec.CommandContext(ctx, c.cfg.goCmd(), args...)
	cmd.Dir = c.cfg.Dir
	cmd.Env = c.cfg.env()
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		msg := buildError(out)
		log := c.writeLog(manifest.SafeName(p.Path, 120)+".build", "go "+strings.Join(args, " "), out)
		c.addDeclared(b, manifest.StatusBuildFailed, shorten(msg), log, time.Since(start))
		return b, fmt.Errorf("building test binary: %s", textutil.FirstLine(msg))
	}
	hash, err := hashFile(bin)
	if err != nil {
		return b, err
	}
	b.hash = hash
	r := runProcess(ctx, p.Dir, c.cfg.env(), c.cfg.timeout(), bin, "-test.list", "^Benchmark")
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if r.err != nil || r.timedOut {
		msg := "listing benchmarks: " + crashMessage(r, "-test.list", c.cfg.timeout())
		log := c.writeLog(manifest.SafeName(p.Path, 120)+".list", bin+" -test.list ^Benchmark", r.output)
		c.addDeclared(b, statusOf(r), msg, log, r.wall)
		return b, errors.New(textutil.FirstLine(msg))
	}
	tops := p.Benchmarks // a TestMain that does not call m.Run lists nothing
	if listed := benchmarkLines(r.output); len(listed) > 0 {
		tops = listed
	}
	for _, t := range tops {
		if ok, _ := c.filter.Match(t); ok {
			b.tops = append(b.tops, t)
		}
	}
	slices.Sort(b.tops)
	b.bin = bin
	return b, nil
}

// statusOf returns the status of a process that crashed.
func statusOf(r procResult) manifest.Status {
	if r.timedOut {
		return manifest.StatusTimeout
	}
	return manifest.StatusFailed
}

// benchmarkLines returns the lines of -test.list output that name benchmarks.
func benchmarkLines(out []byte) []string {
	var names []string
	for _, l := range lines(out) {
		if strings.HasPrefix(l, "Benchmark") && !strings.ContainsAny(l, " \t") {
			names = append(names, l)
		}
	}
	return names
}

// addDeclared records a direct entry for every selected benchmark b's
// source declares.
func (c *collector) addDeclared(b *built, st manifest.Status, msg, log string, wall time.Duration) {
	for _, name := range b.pkg.Benchmarks {
		if ok, _ := c.filter.Match(name); !ok {
			continue
		}
		e := c.entry(b, name)
		e.Status, e.Error, e.Log, e.WallSeconds = st, msg, log, wall.Seconds()
		c.addDirect(e)
	}
}

func (c *collector) addDirect(e manifest.Entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.direct = append(c.direct, e)
}

// entry returns a new entry for benchmark name of b.
func (c *collector) entry(b *built, name string) manifest.Entry {
	return manifest.Entry{
		ID:         benchname.ID(b.pkg.Path, name),
		Package:    b.pkg.Path,
		Dir:        b.dir,
		Name:       name,
		BenchTime:  c.cfg.benchTime(),
		TestBinary: b.hash,
	}
}

// A unit is one benchmark to profile.
type unit struct {
	b    *built
	name string
}

// discover expands top-level benchmarks into units: their leaves, found by
// a discovery run each, or the top-level benchmarks themselves with
// TopLevelOnly. Benchmarks whose discovery run already failed become direct
// entries. Units are sorted by package, then name.
func (c *collector) discover(ctx context.Context, builds []built) []unit {
	var tops []unit
	for i := range builds {
		for _, t := range builds[i].tops {
			tops = append(tops, unit{&builds[i], t})
		}
	}
	if c.cfg.TopLevelOnly {
		return tops
	}
	found := make([][]unit, len(tops))
	var done int
	var doneMu sync.Mutex
	par.For(ctx, len(tops), c.cfg.jobs(), func(i int) {
		found[i] = c.discoverOne(ctx, tops[i])
		if ctx.Err() != nil {
			return
		}
		doneMu.Lock()
		done++
		d := done
		doneMu.Unlock()
		c.emit(Event{Kind: EventDiscover, Package: tops[i].b.pkg.Path, Name: tops[i].name, Done: d, Total: len(tops)})
	})
	var units []unit
	for _, us := range found {
		for _, u := range us {
			if ok, _ := c.filter.Match(u.name); ok {
				units = append(units, u)
			}
		}
	}
	slices.SortFunc(units, func(a, b unit) int {
		if a.b.pkg.Path != b.b.pkg.Path {
			return strings.Compare(a.b.pkg.Path, b.b.pkg.Path)
		}
		return strings.Compare(a.name, b.name)
	})
	return units
}

// discoverOne runs top once with -test.benchtime 1x and returns the leaves
// to profile. Leaves that failed, skipped or crashed are recorded as direct
// entries instead.
func (c *collector) discoverOne(ctx context.Context, top unit) []unit {
	args := []string{"-test.run", "^$", "-test.bench", benchname.Pattern([]string{top.name}),
		"-test.benchtime", "1x", "-test.cpu", "1", "-test.count", "1", "-test.v"}
	r := runProcess(ctx, top.b.pkg.Dir, c.cfg.env(), c.cfg.timeout(), top.b.bin, args...)
	if ctx.Err() != nil {
		return nil
	}
	t := parseTrace(r.output, top.name)
	record := func(name string, st manifest.Status, msg string) {
		e := c.entry(top.b, name)
		e.Status, e.WallSeconds = st, r.wall.Seconds()
		e.Error = msg + "\n(in the discovery run, -test.benchtime 1x)"
		e.Log = c.writeLog(logBase(c.m.Module, e), top.b.bin+" "+strings.Join(args, " "), r.output)
		c.addDirect(e)
	}
	fail := func(name string, st manifest.Status, msg string) {
		if ok, _ := c.filter.Match(name); ok {
			record(name, st, msg)
		}
	}
	var units []unit
	crash := crashed(r)
	culprit := ""
	if crash {
		// Recorded even when Bench does not select it: the crash hid the
		// sub-benchmarks after it, selected or not.
		culprit = t.running(top.name)
		record(culprit, statusOf(r), crashMessage(r, culprit, c.cfg.timeout()))
	}
	for _, leaf := range t.leaves() {
		switch {
		case leaf == culprit:
		case t.failed[leaf]:
			fail(leaf, manifest.StatusFailed, failBlock(r.output, "FAIL", leaf))
		case t.skipped[leaf]:
			fail(leaf, manifest.StatusSkipped, failBlock(r.output, "SKIP", leaf))
		case crash && !t.done(leaf):
			// Interrupted by the crash of a parent; not run alone.
		default:
			units = append(units, unit{top.b, leaf})
		}
	}
	if len(t.seen) == 0 && !crash {
		units = append(units, top) // e.g. a TestMain that prints nothing
	}
	return units
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

// profileAll records the direct entries, reuses what it can from the
// previous manifest and runs the remaining units, cfg.Jobs at a time,
// rewriting the manifest after each.
func (c *collector) profileAll(ctx context.Context, units []unit) error {
	total := len(units) + len(c.direct)
	done := 0
	finish := func(e manifest.Entry, reused bool) {
		if e.Status != manifest.StatusOK {
			// A profile left by an earlier run must not pass for this one's.
			os.Remove(filepath.Join(c.out, manifest.ProfileName(c.m.Module, e.Package, e.Name)))
		}
		c.mu.Lock()
		c.m.Benchmarks = append(c.m.Benchmarks, e)
		done++
		d := done
		c.writeManifestLocked()
		c.mu.Unlock()
		c.emit(Event{Kind: EventFinish, Package: e.Package, Name: e.Name, Entry: &e, Reused: reused, Done: d, Total: total})
	}
	slices.SortFunc(c.direct, func(a, b manifest.Entry) int { return strings.Compare(a.ID, b.ID) })
	for _, e := range c.direct {
		finish(e, false)
	}
	var todo []unit
	for _, u := range units {
		if e, ok := c.reusable(u); ok {
			finish(e, true)
		} else {
			todo = append(todo, u)
		}
	}
	par.For(ctx, len(todo), c.cfg.jobs(), func(i int) {
		u := todo[i]
		c.mu.Lock()
		d := done
		c.mu.Unlock()
		c.emit(Event{Kind: EventStart, Package: u.b.pkg.Path, Name: u.name, Done: d, Total: total})
		if e, ok := c.profile(ctx, u); ok {
			finish(e, false)
		}
	})
	return ctx.Err()
}

// reusable returns the previous entry for u when its profile is complete
// and was taken with the same test binary and benchtime.
func (c *collector) reusable(u unit) (manifest.Entry, bool) {
	e, ok := c.prev[benchname.ID(u.b.pkg.Path, u.name)]
	if !ok || e.Status != manifest.StatusOK || e.TestBinary != u.b.hash || e.BenchTime != c.cfg.benchTime() || e.Profile == "" {
		return manifest.Entry{}, false
	}
	if _, err := readProfile(filepath.Join(c.out, e.Profile)); err != nil {
		return manifest.Entry{}, false
	}
	e.Dir = u.b.dir
	return e, true
}

// profile runs unit u alone with a CPU profile. It returns false when ctx
// was canceled before the run ended.
func (c *collector) profile(ctx context.Context, u unit) (manifest.Entry, bool) {
	e := c.entry(u.b, u.name)
	file := manifest.ProfileName(c.m.Module, e.Package, e.Name)
	final := filepath.Join(c.out, file)
	tmp := final + ".tmp"
	os.Remove(tmp)
	defer os.Remove(tmp)
	args := []string{"-test.run", "^$", "-test.bench", benchname.Pattern([]string{u.name}),
		"-test.benchtime", c.cfg.benchTime(), "-test.count", "1", "-test.v", "-test.cpuprofile", tmp}
	r := runProcess(ctx, u.b.pkg.Dir, c.cfg.env(), c.cfg.timeout(), u.b.bin, args...)
	if ctx.Err() != nil {
		return manifest.Entry{}, false
	}
	e.WallSeconds = r.wall.Seconds()
	if res, ok := findResult(parseResults(r.output), u.name); ok {
		e.NsPerOp, e.Iterations = res.nsPerOp, res.iterations
	}
	t := parseTrace(r.output, u.name)
	switch {
	case crashed(r):
		e.Status, e.Error = statusOf(r), crashMessage(r, t.running(u.name), c.cfg.timeout())
	case r.err != nil:
		e.Status = manifest.StatusFailed
		if e.Error = failBlock(r.output, "FAIL", u.name); e.Error == "" {
			e.Error = crashMessage(r, t.running(u.name), c.cfg.timeout())
		}
	case t.skipped[u.name] && e.Iterations == 0:
		e.Status, e.Error = manifest.StatusSkipped, failBlock(r.output, "SKIP", u.name)
	default:
		p, err := readProfile(tmp)
		switch {
		case errors.Is(err, os.ErrNotExist):
			e.Status, e.Error = manifest.StatusFailed, "no profile written (does TestMain call m.Run, or does the benchmark call os.Exit?)"
		case err != nil:
			e.Status, e.Error = manifest.StatusFailed, "profile unreadable: "+err.Error()
		default:
			if err := os.Rename(tmp, final); err != nil {
				e.Status, e.Error = manifest.StatusFailed, err.Error()
				break
			}
			e.Status, e.Profile, e.Samples = manifest.StatusOK, file, len(p.Sample)
		}
	}
	if e.Status != manifest.StatusOK {
		e.Log = c.writeLog(logBase(c.m.Module, e), u.b.bin+" "+strings.Join(args, " "), r.output)
	}
	return e, true
}

// readProfile parses the profile in file.
func readProfile(file string) (*profile.Profile, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return profile.Parse(f)
}

func (c *collector) writeManifest() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writeManifestLocked()
}

func (c *collector) writeManifestLocked() error {
	return c.m.Write(c.out)
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

// buildError returns go test -c output without its "# package" headers.
func buildError(out []byte) string {
	var keep []string
	for _, l := range lines(out) {
		if !strings.HasPrefix(l, "# ") && strings.TrimSpace(l) != "" {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
