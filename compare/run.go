package compare

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mbopt/mbopt/benchname"
	"github.com/mbopt/mbopt/benchstats"
	"github.com/mbopt/mbopt/input"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/gitrev"
	"github.com/mbopt/mbopt/internal/gomod"
	"github.com/mbopt/mbopt/internal/proc"
	"github.com/mbopt/mbopt/internal/statedir"
	"github.com/mbopt/mbopt/internal/testbin"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/measure"
	"github.com/mbopt/mbopt/shard"
)

// The raw result files in the output directory.
const (
	BaseFile = "base.txt"
	HeadFile = "head.txt"
)

// overheadFactor scales count × benchtime to the expected time of one
// process's measurements: go test runs each benchmark once with b.N = 1
// and then grows b.N towards the benchtime, which costs about a fifth more.
const overheadFactor = 1.2

// A version is one side's revision, checked out.
type version struct {
	rev    Revision
	dir    string // module root in the worktree
	govers string // go env GOVERSION there
}

// A pkgBuild is one package's test binary in one version.
type pkgBuild struct {
	bin   string   // "" when the package has no test binary
	dir   string   // package directory in the worktree
	tops  []string // top-level benchmarks (-test.list)
	err   string   // build or list failure
	list  time.Duration
	exist bool // the package exists in the version
}

// A unit is what one process runs: one benchmark (with its
// sub-benchmarks) of one package.
type unit struct {
	pkg, name, pattern string
	requested          bool // named by Options.Benchmarks
	on                 [2]bool
	failed             [2]string // why the unit as a whole failed in a version
	// subFailed are the sub-benchmarks that failed in a version, by full
	// name, with why (the first time); the unit's other benchmarks went on.
	subFailed [2]map[string]string
	// ended is the sub-benchmark whose failure ended the unit's process in
	// a version before the benchmarks after it ran (the first time).
	ended   [2]string
	stopped bool
	wall    time.Duration // of all its processes
	trials  int           // trials done
}

// id returns the benchmark id of u (see [benchname.ID]).
func (u *unit) id() string { return benchname.ID(u.pkg, u.name) }

// runner holds the state of one Run.
type runner struct {
	opt     Options
	s       Settings
	modPath string
	modRel  string // module root relative to the repository top
	repo    string
	vers    [2]*version
	same    bool // base and head are the same tree: one build serves both
	builds  map[string]*[2]*pkgBuild
	units   []*unit
	raws    [2]*bytes.Buffer
	rws     [2]*rawWriter
	data    *rawData
	rep     *Report
	done    int
	total   int
	rng     *rand.Rand
	saved   time.Duration
	timeout time.Duration
	// With a counting metric: the directory of the Valgrind files kept,
	// the benchmarks inspected (side + "\x00" + id) and each benchmark
	// id's caveats.
	keep          string
	mu            sync.Mutex // guards the fields below and Notes while both versions run
	inspected     map[string]bool
	caveats       map[string][]string
	perOp         map[string]float64 // side + "\x00" + id → instructions or CPU seconds per op measured
	funcs         funcProfiles       // with the instructions metric, every measurement's profile per function
	counts        map[string][2]int  // id, trial, run and measurement → the iteration counts both versions use (instructions)
	measuredPerOp map[string]bool    // perOp's keys whose value a measurement gave (not an estimate)
	pinned        []int              // the two CPUs of a parallel duet; nil otherwise
	noisy         map[string]bool    // side + "\x00" + unit id: its ignored lines noted
}

// Run compares the benchmarks of two revisions of the module in opt.Dir
// and returns the report; see the package documentation for the method.
//
// It checks out each revision with git worktree into a temporary
// directory (see [TempPrefix]), builds each package's test binary once
// per revision, runs the RMIT schedule, writes the raw results to
// [BaseFile] and [HeadFile] in opt.Out (atomically), and computes the
// statistics from those files with [Analyze]. A benchmark that exists
// in only one revision is a result with status Added or Removed; a
// package that does not build, or a benchmark that fails, in a version is
// a result with status BuildFailed or Failed: none of them is an error.
//
// Run fails with an [*input.Error] naming the field for bad options
// (see package input), and with ctx's error when ctx is canceled; it leaves no
// worktree and no temporary directory behind either way.
func Run(ctx context.Context, opt Options) (*Report, error) {
	start := time.Now()
	if opt.AA {
		aaErr := func(format string, args ...any) error {
			return &input.Error{Struct: "Options", Format: format, Args: args}
		}
		switch {
		case opt.Base != "":
			return nil, aaErr("%s compares the head with itself: leave %s unset", input.Field("AA"), input.Field("Base"))
		case opt.Head == Worktree:
			return nil, aaErr("%s calibrates on a commit: %s worktree has uncommitted changes that the history cannot name", input.Field("AA"), input.Field("Head"))
		}
		opt.Base = cmp.Or(opt.Head, "HEAD")
	}
	s := opt.Settings.withDefaults()
	if err := s.check(); err != nil {
		return nil, err
	}
	if err := opt.checkShards(s); err != nil {
		return nil, err
	}
	if err := opt.Confirm.check(); err != nil {
		return nil, err
	}
	if opt.Confirm.Enabled() && opt.Application == nil {
		return nil, input.Field("Confirm").Errorf("confirms the estimated application impact, which needs the application's reference profile (%s)", input.Field("Application"))
	}
	if _, err := benchname.CompileFilter(opt.Bench); err != nil {
		return nil, input.Field("Bench").Errorf("%w", err)
	}
	if err := checkMetric(s); err != nil {
		return nil, err
	}
	r := &runner{opt: opt, s: s, builds: map[string]*[2]*pkgBuild{}, data: newRawData(),
		inspected: map[string]bool{}, caveats: map[string][]string{}, perOp: map[string]float64{}, measuredPerOp: map[string]bool{}, noisy: map[string]bool{},
		rng: rand.New(rand.NewPCG(s.Seed, 0x636f6d70617265))} // "compare"
	r.rep = &Report{Schema: SchemaVersion, Raw: map[string]string{"base": BaseFile, "head": HeadFile}}
	if err := r.locate(ctx); err != nil {
		return nil, err
	}
	if err := r.resolve(ctx); err != nil {
		return nil, err
	}
	out := opt.Out
	if out == "" {
		// Each comparison keeps its raw files: a directory of its own,
		// named by the time and the two commits.
		out = filepath.Join(r.repo, r.modRel, statedir.Name, "compare", comparisonDir(start, r.vers[Base].rev, r.vers[Head].rev))
		for i := 2; ; i++ {
			if _, err := os.Stat(out); os.IsNotExist(err) {
				break
			}
			out = strings.TrimSuffix(out, "-"+strconv.Itoa(i-1)) + "-" + strconv.Itoa(i)
		}
	}
	if abs, err := filepath.Abs(out); err == nil {
		out = abs
	}
	if fi, err := os.Stat(out); err == nil && !fi.IsDir() {
		return nil, input.Field("Out").Errorf("output directory %s is a file; choose a directory", out)
	}
	ws, err := newWorkspace(ctx, r.repo)
	if err != nil {
		return nil, err
	}
	defer ws.remove(ctx)
	if err := r.checkout(ctx, ws); err != nil {
		return nil, err
	}
	if opt.OnlyAffected {
		if opt.Affected == nil || len(opt.Benchmarks) == 0 {
			return nil, input.Field("OnlyAffected").Errorf("OnlyAffected needs the Benchmarks and which of them the change affected (Affected)")
		}
		r.opt.Benchmarks = slices.DeleteFunc(slices.Clone(opt.Benchmarks), func(b Benchmark) bool {
			return !opt.Affected[benchname.ID(b.Package, benchname.Top(b.Name))]
		})
		if len(r.opt.Benchmarks) == 0 {
			return nil, input.Field("OnlyAffected").Errorf("the change touches none of the functions the %s cover, so nothing needs comparing", textutil.Plural(len(opt.Benchmarks), "benchmark"))
		}
	}
	requested := r.opt.Benchmarks // before a shard takes its share
	rec, err := r.shardBenchmarks()
	if err != nil {
		return nil, err
	}
	if err := r.plan(ctx, ws); err != nil {
		return nil, err
	}
	if err := r.checkExplain(requested); err != nil {
		return nil, err
	}
	if rec, err = r.shardUnits(rec); err != nil {
		return nil, err
	}
	r.fitBudget()
	if r.s.Duet == DuetParallel && !r.s.counting() {
		if cpus := proc.CPUs(); len(cpus) >= 2 {
			r.pinned = cpus[:2]
			r.note(fmt.Sprintf("duet: base and head ran at the same time, on CPUs %d and %d in turn, GOMAXPROCS=1", cpus[0], cpus[1]))
		} else {
			r.note("duet: fewer than 2 CPUs available, so base and head ran one after the other")
		}
	}
	if r.s.Metric == measure.Instructions {
		// The Valgrind files of the last measurement of each benchmark and
		// version, for a look line by line (cg_annotate, callgrind_annotate).
		r.keep = filepath.Join(out, "valgrind")
		if err := statedir.MkdirAll(r.keep); err != nil {
			return nil, input.Field("Out").Errorf("cannot create output directory %s: %v", r.keep, err)
		}
	}
	if err := r.schedule(ctx); err != nil {
		return nil, err
	}
	if err := statedir.MkdirAll(out); err != nil {
		return nil, input.Field("Out").Errorf("cannot create output directory %s: %v", out, err)
	}
	files := []string{filepath.Join(out, BaseFile), filepath.Join(out, HeadFile)}
	for side, f := range files {
		r.rws[side].flush()
		if err := atomicfile.WriteFile(f, r.raws[side].Bytes()); err != nil {
			return nil, err
		}
	}
	rep, err := Analyze(files, r.s, opt.Impacts)
	if err != nil {
		return nil, fmt.Errorf("analyzing the raw results: %w", err)
	}
	rep.Module, rep.Base, rep.Head, rep.Raw, rep.Out = r.modPath, r.vers[Base].rev, r.vers[Head].rev, r.rep.Raw, out
	rep.Results = r.failures(rep.Results)
	for i := range rep.Results {
		if cs := r.caveats[rep.Results[i].ID]; len(cs) > 0 {
			rep.Results[i].Caveats = slices.Sorted(slices.Values(cs))
		}
	}
	if rec != nil {
		rec.Base, rec.Head, rec.Settings, rec.Requested = r.vers[Base].rev, r.vers[Head].rev, r.s, s
		rec.Trials = trialsOf(r.s.Trials, opt.TrialShard)
		rec.Files = map[string]shard.File{BaseFile: shard.FileOf(r.raws[Base].Bytes()), HeadFile: shard.FileOf(r.raws[Head].Bytes())}
		for _, res := range rep.Results {
			if res.Status == BuildFailed || res.Status == Failed {
				rec.Failures = append(rec.Failures, res)
			}
		}
		r.note(rec.note())
	}
	// The culprits of each change, while the worktrees and test binaries
	// are still there, and the application measured where an estimate
	// calls for it. The shard record keeps them for the merge.
	if err := r.culprits(ctx, rep, out); err != nil {
		return nil, err
	}
	if rec != nil {
		rec.addExplained(rep.Results, out)
	}
	if err := writeShardRecord(out, rec); err != nil {
		return nil, err
	}
	if opt.Confirm.Enabled() {
		if err := r.confirm(ctx, ws, rep); err != nil {
			return nil, err
		}
	}
	rep.Notes = r.rep.Notes
	if n := markUntouched(rep.Results, opt.Affected); n > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%s in benchmarks that cover none of the changed functions: likely noise (marked untouched); the gate still counts them", textutil.Plural(n, "detection")))
	}
	SortResults(rep.Results)
	rep.Saved = r.saved
	rep.GoVersion = r.vers[Head].govers
	if r.s.UntilStable > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("until-stable %.3g: stopped %s early, saving about %s",
			r.s.UntilStable, textutil.Plural(r.stoppedCount(), "benchmark"), r.saved.Round(100*time.Millisecond)))
	}
	rep.Wall = time.Since(start)
	return rep, nil
}

// comparisonDir names the output directory of a comparison started at
// start: "20260102-030405-0123456789ab-fedcba987654" (UTC time, short
// commits; "+dirty" after a commit with uncommitted changes).
func comparisonDir(start time.Time, base, head Revision) string {
	short := func(r Revision) string {
		c := r.Commit[:min(12, len(r.Commit))]
		if r.Dirty {
			c += "+dirty"
		}
		return c
	}
	return start.UTC().Format("20060102-150405") + "-" + short(base) + "-" + short(head)
}

// locate finds the repository and the module.
func (r *runner) locate(ctx context.Context) error {
	dir := r.opt.Dir
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return input.Field("Dir").Errorf("%w", err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return input.Field("Dir").Errorf("%s is not a directory", dir)
	}
	if r.repo, err = gitrev.TopLevel(ctx, abs); err != nil || r.repo == "" {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return input.Field("Dir").Errorf("%s is not inside a git repository: compare checks out revisions with git; run it in a clone", abs)
	}
	mod, err := gomod.Find(abs)
	switch {
	case errors.Is(err, gomod.ErrNoModule), errors.Is(err, gomod.ErrNoModulePath):
		return input.Field("Dir").Errorf("%w", err)
	case err != nil:
		return err
	}
	r.modPath = mod.Path
	// Compare real paths: the repository top is reported resolved.
	repo, _ := filepath.EvalSymlinks(r.repo)
	modDir, _ := filepath.EvalSymlinks(mod.Dir)
	if r.modRel, err = filepath.Rel(repo, modDir); err != nil || strings.HasPrefix(r.modRel, "..") {
		return input.Field("Dir").Errorf("the module %s is not inside the repository %s", modDir, repo)
	}
	return nil
}

// resolve turns the revision specs into commits.
func (r *runner) resolve(ctx context.Context) error {
	head := &version{rev: Revision{Spec: r.opt.Head}}
	if head.rev.Spec == "" {
		head.rev.Spec = "HEAD"
	}
	headRev := head.rev.Spec
	if headRev == Worktree {
		headRev = "HEAD"
	}
	var err error
	if head.rev.Commit, err = gitrev.Commit(ctx, r.repo, headRev); err != nil {
		return input.Field("Head").Errorf("%w", err)
	}
	if head.rev.Spec == Worktree {
		st, err := gitrev.Git(ctx, r.repo, "status", "--porcelain")
		if err != nil {
			return err
		}
		head.rev.Dirty = len(bytes.TrimSpace(st)) > 0
		if !head.rev.Dirty {
			r.note("head: the worktree has no uncommitted changes, so it is HEAD")
		}
	}
	base := &version{rev: Revision{Spec: r.opt.Base}}
	b, err := gitrev.ResolveBase(ctx, r.repo, r.opt.Base, head.rev.Commit)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return input.Field("Base").Errorf("%w", err)
	}
	base.rev.Commit = b.Commit
	if b.Rev == "" {
		base.rev.Spec = "merge-base(" + headRev + ", " + b.Branch + ")"
		b.Head = headRev
		r.note("base: " + b.String())
	}
	for _, v := range []*version{base, head} {
		out, err := gitrev.Git(ctx, r.repo, "show", "-s", "--format=%cI%n%s", v.rev.Commit)
		if err != nil {
			return err
		}
		when, subject, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		v.rev.Time, _ = time.Parse(time.RFC3339, when)
		v.rev.Subject = subject
		if v.rev.Depth, err = gitrev.Depth(ctx, r.repo, v.rev.Commit); err != nil {
			return err
		}
	}
	r.vers = [2]*version{base, head}
	r.same = base.rev.Commit == head.rev.Commit && !head.rev.Dirty
	if r.same {
		r.note("base and head are the same commit: an A/A comparison, which measures the noise")
	}
	return nil
}

func (r *runner) note(s string) { r.rep.Notes = append(r.rep.Notes, s) }

// checkout makes the worktrees.
func (r *runner) checkout(ctx context.Context, ws *workspace) error {
	for side, v := range r.vers {
		if side == int(Head) && r.same {
			*v = version{rev: v.rev, dir: r.vers[Base].dir, govers: r.vers[Base].govers}
			continue
		}
		wt, err := ws.checkout(ctx, Side(side).String(), v.rev.Commit, v.rev.Dirty)
		if err != nil {
			return fmt.Errorf("checking out the %s %s: %w", Side(side), v.rev.Spec, err)
		}
		v.dir = filepath.Join(wt, r.modRel)
		cmd := exec.CommandContext(ctx, r.opt.goCmd(), "env", "GOVERSION")
		cmd.Dir, cmd.Env = v.dir, r.opt.env()
		out, err := cmd.Output()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("go env GOVERSION in the %s: %w", Side(side), err)
		}
		v.govers = strings.TrimSpace(string(out))
	}
	return nil
}

// pkgDir returns the directory of package pkg in v, and whether pkg is in
// the module.
func (r *runner) pkgDir(v *version, pkg string) (string, bool) {
	if pkg == r.modPath {
		return v.dir, true
	}
	rel, ok := strings.CutPrefix(pkg, r.modPath+"/")
	if !ok {
		return "", false
	}
	return filepath.Join(v.dir, filepath.FromSlash(rel)), true
}

// plan builds the test binaries and makes the units.
func (r *runner) plan(ctx context.Context, ws *workspace) error {
	var pkgs []string
	if len(r.opt.Benchmarks) > 0 {
		for _, b := range r.opt.Benchmarks {
			if _, ok := r.pkgDir(r.vers[Base], b.Package); !ok {
				return input.Field("Benchmarks").Errorf("benchmark %s %s: package %s is not in the module %s", b.Package, b.Name, b.Package, r.modPath)
			}
			if !strings.HasPrefix(b.Name, "Benchmark") {
				return input.Field("Benchmarks").Errorf("benchmark %s %q: a full name starts with \"Benchmark\"", b.Package, b.Name)
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
	if len(r.opt.Benchmarks) > 0 {
		seen := map[string]bool{}
		for _, b := range r.opt.Benchmarks {
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
		filter, _ := benchname.CompileFilter(r.opt.Bench)
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
				u := &unit{pkg: p, name: t, pattern: benchname.TopPattern(r.opt.Bench, t)}
				for side, b := range pb {
					u.on[side] = b.bin != "" && slices.Contains(b.tops, t)
				}
				r.units = append(r.units, u)
			}
		}
	}
	if len(r.units) == 0 {
		// Nothing to compare is bad input whether or not some package
		// failed to build: the failures are named, since a package that
		// built in neither revision may hold the benchmarks asked for.
		what := "no benchmark matches " + strconv.Quote(r.opt.Bench)
		if len(r.opt.Benchmarks) > 0 {
			what = "none of the benchmarks exists"
		}
		return input.Field("Bench").Errorf("%s in %s in either revision%s", what, strings.Join(r.patterns(), " "), r.buildFailures())
	}
	return nil
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
	if len(r.opt.Packages) == 0 {
		return []string{"./..."}
	}
	return r.opt.Packages
}

// listPackages lists the packages with test files that match the
// patterns in v.
func (r *runner) listPackages(ctx context.Context, v *version) ([]string, error) {
	args := append([]string{"list", "-e", "-f", "{{.ImportPath}} {{len .TestGoFiles}} {{len .XTestGoFiles}}"}, r.patterns()...)
	cmd := exec.CommandContext(ctx, r.opt.goCmd(), args...)
	cmd.Dir, cmd.Env = v.dir, r.opt.env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, input.Field("Packages").Errorf("go list %s in the %s: %s", strings.Join(r.patterns(), " "), v.rev.Spec, textutil.FirstLine(strings.TrimSpace(stderr.String())))
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

// cacheKey identifies a test binary built from a commit.
func (r *runner) cacheKey(v *version, pkg string) string {
	h := sha256.New()
	for _, s := range []string{"mbopt-testbin-1", v.rev.Commit, r.modRel, pkg, v.govers, strings.Join(r.opt.BuildFlags, "\x00"), strings.Join(r.opt.Env, "\x00"), os.Getenv("GOFLAGS"), os.Getenv("GOOS"), os.Getenv("GOARCH"), os.Getenv("CGO_ENABLED")} {
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
	cache := r.opt.cacheDir()
	var bin string
	if cache != "" && !v.rev.Dirty {
		bin = filepath.Join(cache, r.cacheKey(v, pkg)+".test")
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
		build := testbin.Build{GoCmd: r.opt.goCmd(), Dir: v.dir, Env: r.opt.env(), Flags: r.opt.BuildFlags, Package: pkg, Out: tmp}
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
	tops, res := testbin.List(ctx, dir, r.opt.env(), time.Minute, bin)
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

func (r *runner) emit(ev Event) {
	if r.opt.Progress != nil {
		r.opt.Progress(ev)
	}
}

// processTime estimates one process of u on one side: count × benchtime
// (scaled by overheadFactor) plus the process overhead measured when
// listing the binary's benchmarks. An iteration-count benchtime ("100x")
// has no time to go by: only the overhead counts then.
func (r *runner) processTime(u *unit, side Side, count int) time.Duration {
	d, _, _ := parseBenchTime(r.s.BenchTime)
	est := time.Duration(float64(d) * float64(count) * overheadFactor)
	if b := r.builds[u.pkg][side]; b != nil {
		est += b.list
	}
	return est
}

// estimate returns the expected wall time of a schedule.
func (r *runner) estimate(trials, runs, count int) time.Duration {
	var per time.Duration
	for _, u := range r.units {
		for side := range 2 {
			if u.on[side] {
				per += r.processTime(u, Side(side), count)
			}
		}
	}
	return per * time.Duration(trials*runs)
}

// fitBudget shrinks the schedule to fit Settings.Budget: it keeps as many
// trials as it can (never fewer than 2, or Trials when that is less),
// then the most measurements per trial, preferring more runs on a tie.
func (r *runner) fitBudget() {
	if r.s.Budget <= 0 {
		return
	}
	T, R, C := r.s.Trials, r.s.Runs, r.s.Count
	full := r.estimate(T, R, C)
	if full <= r.s.Budget {
		r.note(fmt.Sprintf("budget %s: the full schedule (%d trials × %d runs × count %d, about %s) fits", r.s.Budget, T, R, C, full.Round(time.Second)))
		return
	}
	minT := min(T, 2)
	best := [3]int{minT, 1, 1}
	found := false
	for t := T; t >= minT && !found; t-- {
		bestN := 0
		for rr := R; rr >= 1; rr-- {
			for c := C; c >= 1; c-- {
				if r.estimate(t, rr, c) <= r.s.Budget && rr*c > bestN {
					best, bestN, found = [3]int{t, rr, c}, rr*c, true
				}
			}
		}
	}
	r.s.Trials, r.s.Runs, r.s.Count = best[0], best[1], best[2]
	est := r.estimate(best[0], best[1], best[2])
	if found {
		r.note(fmt.Sprintf("budget %s: chose %s × %s × count %d (about %s) instead of %d × %d × %d (about %s)",
			r.s.Budget, textutil.Plural(best[0], "trial"), textutil.Plural(best[1], "run"), best[2], est.Round(time.Second), T, R, C, full.Round(time.Second)))
	} else {
		r.note(fmt.Sprintf("budget %s: too short for even %d trials × 1 run × count 1 (about %s); ran that",
			r.s.Budget, best[0], est.Round(time.Second)))
	}
}

// schedule runs the RMIT schedule: for each trial and run, the units in a
// random order, and for each unit the two versions back to back in a
// random order.
func (r *runner) schedule(ctx context.Context) error {
	for side := range 2 {
		r.raws[side] = &bytes.Buffer{}
		v := r.vers[side]
		r.rws[side] = newRawWriter(r.raws[side], fmt.Sprintf("mbopt compare: %s %s (commit %s%s); %d trials × %d runs × count %d, benchtime %s",
			Side(side), v.rev.Spec, v.rev.Commit, map[bool]string{true: ", with uncommitted changes"}[v.rev.Dirty], r.s.Trials, r.s.Runs, r.s.Count, r.s.BenchTime))
	}
	for _, u := range r.units {
		for side := range 2 {
			if u.on[side] {
				r.total += len(trialsOf(r.s.Trials, r.opt.TrialShard)) * r.s.Runs
			}
		}
	}
	r.timeout = r.opt.Timeout
	if r.timeout <= 0 {
		d, _, _ := parseBenchTime(r.s.BenchTime)
		r.timeout = max(10*time.Minute, 10*time.Duration(r.s.Count)*d)
	}
	order := slices.Clone(r.units)
	trials := trialsOf(r.s.Trials, r.opt.TrialShard)
	for _, t := range trials {
		for run := 1; run <= r.s.Runs; run++ {
			r.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			for _, u := range order {
				if u.stopped {
					continue
				}
				sides := []Side{Base, Head}
				if r.rng.IntN(2) == 1 {
					sides[0], sides[1] = Head, Base
				}
				if r.pinned != nil || (r.s.counting() && runtime.NumCPU() >= 2) {
					if err := r.runPair(ctx, u, sides, t, run); err != nil {
						return err
					}
					continue
				}
				for _, side := range sides {
					if !u.on[side] || u.failed[side] != "" {
						continue
					}
					if err := r.runOne(ctx, u, side, t, run); err != nil {
						return err
					}
				}
			}
		}
		for _, u := range r.units {
			if !u.stopped {
				u.trials = t
			}
		}
		if r.s.UntilStable > 0 && t >= 2 && t < r.s.Trials {
			r.stopStable(t)
		}
	}
	return nil
}

// runOne runs unit u's benchmark in one version and records its results.
func (r *runner) runOne(ctx context.Context, u *unit, side Side, trial, run int) error {
	o, err := r.measureOne(ctx, u, side, -1, trial, run)
	if err != nil {
		return err
	}
	return r.record(ctx, u, side, trial, run, o)
}

// runPair runs unit u in both versions at once, each in its own
// processes, and records the results in sides' order. The counting
// metrics do this: a count does not depend on what else the machine runs,
// so the two versions can share the machine's cores.
func (r *runner) runPair(ctx context.Context, u *unit, sides []Side, trial, run int) error {
	var res [2]outcome
	var errs [2]error
	var wg sync.WaitGroup
	for _, side := range sides {
		if u.on[side] && u.failed[side] == "" {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res[side], errs[side] = r.measureOne(ctx, u, side, r.cpuOf(side, trial, run), trial, run)
			}()
		}
	}
	wg.Wait()
	for _, side := range sides {
		if !u.on[side] || u.failed[side] != "" {
			continue
		}
		if err := errs[side]; err != nil {
			return err
		}
		if err := r.record(ctx, u, side, trial, run, res[side]); err != nil {
			return err
		}
	}
	return nil
}

// cpuOf returns the CPU of a version's process in a parallel duet (-1:
// not bound): the two CPUs alternate between the versions from run to
// run, so neither version keeps a faster one.
func (r *runner) cpuOf(side Side, trial, run int) int {
	if r.pinned == nil {
		return -1
	}
	return r.pinned[(int(side)+trial+run)%2]
}

// measureOne runs unit u in one version, for run run of trial trial: one
// test binary process with the time metric (bound to CPU cpu when cpu >=
// 0, with GOMAXPROCS=1; read by outcomeOf), or the measurements of
// runCounted.
func (r *runner) measureOne(ctx context.Context, u *unit, side Side, cpu, trial, run int) (outcome, error) {
	b := r.builds[u.pkg][side]
	if r.s.counting() {
		start := time.Now()
		o, err := r.runCounted(ctx, u, side, trial, run)
		if err != nil {
			return o, err
		}
		o.wall = time.Since(start)
		return o, ctx.Err()
	}
	args := []string{"-test.run", "^$", "-test.bench", u.pattern, "-test.count", strconv.Itoa(r.s.Count), "-test.benchtime", r.s.BenchTime}
	if r.s.Benchmem {
		args = append(args, "-test.benchmem")
	}
	args = append(args, testbin.BenchArgs...)
	env := r.opt.env()
	if cpu >= 0 {
		env = append(env, "GOMAXPROCS=1")
	}
	res := testbin.RunOn(ctx, cpu, b.dir, env, r.timeout, b.bin, args...)
	return outcomeOf(u, res, r.timeout), ctx.Err()
}

// record adds the results of one process (or measurement) of unit u in a
// version to the raw files and the data, and marks the unit, or the
// sub-benchmarks that failed, failed there (see [outcome]).
func (r *runner) record(ctx context.Context, u *unit, side Side, trial, run int, o outcome) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	u.wall += o.wall
	r.done++
	m := marker{side: side, commit: r.vers[side].rev.Commit, trial: trial, run: run}
	var runErr error
	if len(o.ignored) > 0 {
		r.ignored(u, side, o.ignored)
	}
	if o.unitFailed != "" {
		u.failed[side] = o.unitFailed
	} else {
		if err := r.rws[side].write(m, o.results); err != nil {
			return fmt.Errorf("%s: reading the benchmark output: %w", u.name, err)
		}
		block := []byte(m.String() + "\n")
		if err := r.data.read(u.pkg, bytes.NewReader(append(block, o.results...))); err != nil {
			return fmt.Errorf("%s: reading the benchmark output: %w", u.name, err)
		}
	}
	for _, f := range o.failed {
		if u.subFailed[side] == nil {
			u.subFailed[side] = map[string]string{}
		}
		if u.subFailed[side][f.Name] == "" {
			u.subFailed[side][f.Name] = f.Message
		}
		runErr = fmt.Errorf("%s: %s", f.Name, textutil.FirstLine(f.Message))
	}
	if o.ended != "" && u.ended[side] == "" {
		u.ended[side] = o.ended
	}
	if u.failed[side] != "" {
		runErr = errors.New(textutil.FirstLine(u.failed[side]))
		// The rest of its schedule in this version is skipped.
		r.total -= (r.s.Trials-trial)*r.s.Runs + (r.s.Runs - run)
	}
	r.emit(Event{Kind: EventRun, Done: r.done, Total: r.total, Package: u.pkg, Name: u.name, Side: side, Trial: trial, Run: run, Wall: o.wall, Err: runErr})
	return nil
}

// ids returns the benchmark ids u measured, in either version.
func (r *runner) ids(u *unit) []string {
	var ids []string
	seen := map[string]bool{}
	prefix := u.id()
	for _, k := range r.data.order {
		if (k.id == prefix || strings.HasPrefix(k.id, prefix+"/")) && !seen[k.id] && r.data.benches[k.id].pkg == u.pkg {
			seen[k.id] = true
			ids = append(ids, k.id)
		}
	}
	return ids
}

// stopStable stops the units whose every benchmark has an interval of the
// metric's unit (sec/op, cpu-sec/op, instructions/op) narrower than
// Settings.UntilStable after trial t, never before both versions have the
// measurements a verdict needs (benchstats.MinSamples), and adds the time
// of their remaining trials to the time saved.
func (r *runner) stopStable(t int) {
	for _, u := range r.units {
		if u.stopped || !u.on[Base] || !u.on[Head] || u.failed[Base] != "" || u.failed[Head] != "" {
			continue
		}
		ids := r.ids(u)
		stable := len(ids) > 0
		minN := benchstats.MinSamples(r.s.Confidence)
		for _, id := range ids {
			k := key{id, r.s.unit()}
			b, h := r.data.samples[Base][k], r.data.samples[Head][k]
			// Never below the measurements a verdict needs.
			if b == nil || h == nil || b.h.Trials() < 2 || h.h.Trials() < 2 || b.h.Len() < minN || h.h.Len() < minN {
				stable = false
				break
			}
			est, err := benchstats.Compare(b.h, h.h, benchstats.Options{Resamples: r.s.Resamples, Confidence: r.s.Confidence, Seed: r.s.Seed ^ hashString(id)})
			if err != nil || est.CI.Width() >= r.s.UntilStable {
				stable = false
				break
			}
		}
		if !stable {
			continue
		}
		u.stopped = true
		left := r.s.Trials - t
		r.saved += u.wall / time.Duration(t) * time.Duration(left)
		r.total -= 2 * left * r.s.Runs
		r.emit(Event{Kind: EventStable, Done: r.done, Total: r.total, Package: u.pkg, Name: u.name, Trial: t})
	}
}

func (r *runner) stoppedCount() int {
	n := 0
	for _, u := range r.units {
		if u.stopped {
			n++
		}
	}
	return n
}

// failures marks the results of the benchmarks that failed or did not
// build in a version, and adds results for those that measured nothing.
func (r *runner) failures(rs []Result) []Result {
	byPkg := map[string][]int{}
	for i, res := range rs {
		byPkg[res.Package] = append(byPkg[res.Package], i)
	}
	mark := func(i int, st Status, side Side, msg string) {
		rs[i].Status, rs[i].Side, rs[i].Error = st, side.String(), msg
		rs[i].Estimate, rs[i].Instability, rs[i].Verdict, rs[i].PValue = nil, 0, benchstats.Unchanged, 0
	}
	// Build failures: every result of the package measured only in the
	// other version.
	pkgs := make([]string, 0, len(r.builds))
	for p := range r.builds {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	for _, p := range pkgs {
		pb := r.builds[p]
		for side := range 2 {
			msg := pb[side].err
			if msg == "" {
				continue
			}
			only := Added
			if side == int(Head) {
				only = Removed
			}
			marked := false
			for _, i := range byPkg[p] {
				if rs[i].Status == only || (rs[i].Status == Compared && r.same) {
					mark(i, BuildFailed, Side(side), msg)
					marked = true
				}
			}
			if marked {
				continue
			}
			// Nothing measured: name the requested benchmarks, or the
			// package.
			added := false
			for _, u := range r.units {
				if u.pkg == p && u.requested {
					rs = append(rs, Result{ID: benchname.ID(p, u.name), Package: p, Name: u.name, Status: BuildFailed, Side: Side(side).String(), Error: msg})
					added = true
				}
			}
			if !added {
				rs = append(rs, Result{ID: p, Package: p, Status: BuildFailed, Side: Side(side).String(), Error: msg})
			}
		}
	}
	for _, u := range r.units {
		for side := range 2 {
			msg := u.failed[side]
			if msg == "" {
				continue
			}
			ids := r.ids(u)
			if len(ids) == 0 {
				rs = append(rs, Result{ID: benchname.ID(u.pkg, u.name), Package: u.pkg, Name: u.name, Status: Failed, Side: Side(side).String(), Error: msg})
				continue
			}
			for i := range rs {
				if slices.Contains(ids, rs[i].ID) && rs[i].Status != BuildFailed {
					mark(i, Failed, Side(side), msg)
				}
			}
		}
	}
	// Sub-benchmarks that failed while the others went on, and those that
	// did not run because one ended the process.
	for _, u := range r.units {
		for side := range 2 {
			if u.failed[side] != "" {
				continue
			}
			for _, name := range slices.Sorted(maps.Keys(u.subFailed[side])) {
				msg := u.subFailed[side][name]
				id := benchname.ID(u.pkg, name)
				found := false
				for i := range rs {
					if rs[i].Package == u.pkg && (rs[i].ID == id || strings.HasPrefix(rs[i].ID, id+"/")) && rs[i].Status != BuildFailed {
						mark(i, Failed, Side(side), msg)
						found = true
					}
				}
				if !found {
					rs = append(rs, Result{ID: id, Package: u.pkg, Name: name, Status: Failed, Side: Side(side).String(), Error: msg})
				}
			}
			ended := u.ended[side]
			if ended == "" {
				continue
			}
			// Measured only in the other version: not added or removed,
			// but never reached here.
			only := Added
			if Side(side) == Head {
				only = Removed
			}
			ids := r.ids(u)
			for i := range rs {
				if rs[i].Status == only && slices.Contains(ids, rs[i].ID) {
					mark(i, Failed, Side(side), fmt.Sprintf("did not run: the process ended in %s before it (%s)", ended, textutil.FirstLine(u.subFailed[side][ended])))
				}
			}
		}
	}
	// A requested benchmark measured in neither version and not failed:
	// it exists in neither.
	for _, u := range r.units {
		if u.requested && !u.on[Base] && !u.on[Head] && len(r.ids(u)) == 0 && r.builds[u.pkg][Base].err == "" && r.builds[u.pkg][Head].err == "" {
			r.note(fmt.Sprintf("%s exists in neither revision", benchname.ID(u.pkg, u.name)))
		}
	}
	return rs
}

// markUntouched marks the results of the benchmarks that affected (nil:
// unknown) does not list, and returns how many of them are detections.
func markUntouched(rs []Result, affected map[string]bool) int {
	if affected == nil {
		return 0
	}
	n := 0
	for i := range rs {
		if affected[benchname.ID(rs[i].Package, benchname.Top(rs[i].Name))] {
			continue
		}
		rs[i].Untouched = true
		if rs[i].Verdict != benchstats.Unchanged {
			n++
		}
	}
	return n
}

// ignored notes, once per unit and version, the lines of its output that
// looked like results of benchmarks it was not asked to run.
func (r *runner) ignored(u *unit, side Side, names []string) {
	key := side.String() + "\x00" + u.id()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.noisy[key] {
		return
	}
	r.noisy[key] = true
	r.note(fmt.Sprintf("%s (%s): its output has lines that look like benchmark results but are not results of the benchmarks it ran (named %s; printed by a benchmark itself?): ignored",
		u.id(), side, strings.Join(names, ", ")))
}
