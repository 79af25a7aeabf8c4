package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/gitrev"
	"github.com/mbopt/mbopt/internal/gomod"
	"github.com/mbopt/mbopt/internal/proc"
	"github.com/mbopt/mbopt/internal/statedir"
	"github.com/mbopt/mbopt/relevance/measure"
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
	ended [2]string
	// skipped are the benchmarks (u itself or its sub-benchmarks) that
	// skipped themselves in a version, by full name, with what they
	// logged (the first time).
	skipped [2]map[string]string
	// starts are the distinct orders in which its processes in a version
	// started its benchmarks, and endedRuns those that ended in a
	// sub-benchmark ([unit.noteStarts]).
	starts    [2][][]string
	endedRuns [2][]endedRun
	stopped   bool
	wall      time.Duration // of all its processes
	trials    int           // trials done
}

// out reports whether u is done in a version before its schedule ends:
// it failed as a whole, or skipped itself (b.Skip in the top-level
// benchmark; a skipped sub-benchmark leaves its siblings to measure). It
// is not run there again.
func (u *unit) out(side Side) bool {
	return u.failed[side] != "" || u.skipped[side][u.name] != ""
}

// id returns the benchmark id of u (see [benchname.ID]).
func (u *unit) id() string { return benchname.ID(u.pkg, u.name) }

// A module is where the module to measure is.
type module struct {
	path string // the module path
	rel  string // module root relative to the repository top
	repo string // the repository's top level
}

// runner holds the state of one Run.
type runner struct {
	plan    Plan
	s       Schedule
	mod     module
	vers    [2]*version
	same    bool // base and head are the same tree: one build serves both
	builds  map[string]*[2]*pkgBuild
	units   []*unit
	rws     [2]*rawWriter
	data    *Data
	notes   *[]string // Raw.Notes
	done    int
	total   int
	rng     *rand.Rand
	saved   time.Duration
	timeout time.Duration
	start   time.Time           // of Run, for Schedule.Budget
	ran     int                 // the last trial run (more than Schedule.Trials when TargetMDE added some)
	mu      sync.Mutex          // guards cnt, caveats, noisy and notes while both versions run
	cnt     counted             // the counting metrics' state
	caveats map[string][]string // benchmark id → its caveats, in the order found
	pinned  []int               // the two CPUs of a parallel duet; nil otherwise
	noisy   map[string]bool     // side + "\x00" + unit id: its ignored lines noted
	seeds   [2]*seedOverlay     // each version's runtime seed overlay (instructions)
}

// Run measures the benchmarks of two revisions of the module in p.Dir
// on the RMIT schedule and returns the raw results; see package compare's
// documentation for the method.
//
// It checks out each revision with git worktree into a temporary
// directory (see [TempPrefix]), builds each package's test binary once
// per revision, runs the schedule (fitted into p.Schedule.Budget) and
// writes the raw results to [BaseFile] and [HeadFile] in p.Out
// (atomically). A package that does not build, or a benchmark that fails,
// in a version is recorded in the [Raw] (Packages, Units), not an error.
//
// The worktrees and test binaries stay until [Raw.Close], for the steps
// that run on them (culprit profiles, a confirming workload); the caller
// must call Close. Run fails with an [*mbopt.Error] naming the field for
// a bad plan, and with ctx's error when ctx is canceled; it leaves no
// worktree and no temporary directory behind then.
func Run(ctx context.Context, p Plan) (*Raw, error) {
	start := time.Now()
	if err := p.check(); err != nil {
		return nil, err
	}
	raw := &Raw{}
	r := &runner{plan: p, s: p.Schedule, start: start, builds: map[string]*[2]*pkgBuild{}, data: NewData(), notes: &raw.Notes,
		cnt:     counted{inspected: map[string]bool{}, perOp: map[string]float64{}, measuredPerOp: map[string]bool{}},
		caveats: map[string][]string{}, noisy: map[string]bool{},
		rng: rand.New(rand.NewPCG(p.Schedule.Seed, 0x636f6d70617265))} // "compare"
	if err := r.locate(ctx); err != nil {
		return nil, err
	}
	if err := r.resolve(ctx); err != nil {
		return nil, err
	}
	out, claimed, err := r.outDir(start)
	if err != nil {
		return nil, err
	}
	kept := false
	defer func() {
		if !kept && claimed { // failed: its own directory goes too
			os.RemoveAll(out)
		}
	}()
	ws, err := newWorkspace(ctx, r.mod.repo)
	if err != nil {
		return nil, err
	}
	defer func() {
		if !kept { // failed: nothing is kept
			ws.remove(ctx)
		}
	}()
	if err := r.checkout(ctx, ws); err != nil {
		return nil, err
	}
	share, err := r.prepare(ctx, ws, out)
	if err != nil {
		return nil, err
	}
	if err := r.schedule(ctx); err != nil {
		return nil, err
	}
	raw.r, raw.ws = r, ws
	if err := r.write(out, raw); err != nil {
		return nil, err
	}
	r.result(raw, out, share)
	kept = true
	return raw, nil
}

// check checks the plan's sharding, Bench pattern and metric.
func (p *Plan) check() error {
	if err := p.checkShards(p.Schedule); err != nil {
		return err
	}
	if _, err := benchname.CompileFilter(p.Bench); err != nil {
		return FieldBench.Errorf("%w", err)
	}
	return checkMetric(p.Schedule)
}

// outDir returns the absolute output directory: Plan.Out, or a new
// directory of the comparison's own (see [Plan.Out]), which it creates
// (claimed) so that no other comparison takes it.
func (r *runner) outDir(start time.Time) (out string, claimed bool, err error) {
	out = r.plan.Out
	if out == "" {
		// Each comparison keeps its raw files: a directory of its own,
		// named by the time and the two commits.
		out, err = claim(filepath.Join(r.mod.repo, r.mod.rel, statedir.Name, "compare", comparisonDir(start, r.vers[Base].rev, r.vers[Head].rev)))
		if err != nil {
			return "", false, FieldOut.Errorf("cannot create output directory %s: %v", out, err)
		}
		claimed = true
	}
	if abs, err := filepath.Abs(out); err == nil {
		out = abs
	}
	if fi, err := os.Stat(out); err == nil && !fi.IsDir() {
		return "", false, FieldOut.Errorf("output directory %s is a file; choose a directory", out)
	}
	return out, claimed, nil
}

// claim creates the directory dir, or dir-2, dir-3, … where a comparison
// started in the same second (even at the same moment, in another
// process) holds it, and returns the one it created: os.Mkdir fails on a
// directory that exists, so two comparisons never share one.
func claim(dir string) (string, error) {
	if err := statedir.MkdirAll(filepath.Dir(dir)); err != nil {
		return dir, err
	}
	for i := 1; ; i++ {
		d := dir
		if i > 1 {
			d += "-" + strconv.Itoa(i)
		}
		err := os.Mkdir(d, 0o777)
		if err == nil {
			return d, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return d, err
		}
	}
}

// prepare builds the test binaries, chooses the units (a shard's share of
// them), fits the schedule into the budget and readies the duet and the
// directory of kept Valgrind files.
func (r *runner) prepare(ctx context.Context, ws *workspace, out string) (*Share, error) {
	share, err := r.shardBenchmarks()
	if err != nil {
		return nil, err
	}
	if err := r.buildAll(ctx, ws); err != nil {
		return nil, err
	}
	if r.plan.Planned != nil {
		tops := make([]Benchmark, len(r.units))
		for i, u := range r.units {
			tops[i] = Benchmark{Package: u.pkg, Name: benchname.Top(u.name)}
		}
		if err := r.plan.Planned(tops); err != nil {
			return nil, err
		}
	}
	if share, err = r.shardUnits(share); err != nil {
		return nil, err
	}
	r.fitBudget()
	if r.s.Duet == DuetParallel && !r.s.Counting() {
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
		r.cnt.keep = filepath.Join(out, "valgrind")
		if err := statedir.MkdirAll(r.cnt.keep); err != nil {
			return nil, FieldOut.Errorf("cannot create output directory %s: %v", r.cnt.keep, err)
		}
	}
	return share, nil
}

// write writes the raw files into out, and their names into raw.
func (r *runner) write(out string, raw *Raw) error {
	if err := statedir.MkdirAll(out); err != nil {
		return FieldOut.Errorf("cannot create output directory %s: %v", out, err)
	}
	raw.Files = [2]string{filepath.Join(out, BaseFile), filepath.Join(out, HeadFile)}
	for side, f := range raw.Files {
		r.rws[side].flush()
		if err := atomicfile.WriteFile(f, r.rws[side].buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
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
	dir := r.plan.Dir
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return FieldDir.Errorf("%w", err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return FieldDir.Errorf("%s is not a directory", dir)
	}
	if r.mod.repo, err = gitrev.TopLevel(ctx, abs); err != nil || r.mod.repo == "" {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return FieldDir.Errorf("%s is not inside a git repository: compare checks out revisions with git; run it in a clone", abs)
	}
	mod, err := gomod.Find(abs)
	switch {
	case errors.Is(err, gomod.ErrNoModule), errors.Is(err, gomod.ErrNoModulePath):
		return FieldDir.Errorf("%w", err)
	case err != nil:
		return err
	}
	r.mod.path = mod.Path
	// Compare real paths: the repository top is reported resolved.
	repo, _ := filepath.EvalSymlinks(r.mod.repo)
	modDir, _ := filepath.EvalSymlinks(mod.Dir)
	if r.mod.rel, err = filepath.Rel(repo, modDir); err != nil || strings.HasPrefix(r.mod.rel, "..") {
		return FieldDir.Errorf("the module %s is not inside the repository %s", modDir, repo)
	}
	return nil
}

// resolve turns the revision specs into commits.
func (r *runner) resolve(ctx context.Context) error {
	head := &version{rev: Revision{Spec: r.plan.Head}}
	if head.rev.Spec == "" {
		head.rev.Spec = "HEAD"
	}
	headRev := head.rev.Spec
	if headRev == Worktree {
		headRev = "HEAD"
	}
	var err error
	if head.rev.Commit, err = gitrev.Commit(ctx, r.mod.repo, headRev); err != nil {
		return FieldHead.Errorf("%w", err)
	}
	if head.rev.Spec == Worktree {
		st, err := gitrev.Git(ctx, r.mod.repo, "status", "--porcelain")
		if err != nil {
			return err
		}
		head.rev.Dirty = len(bytes.TrimSpace(st)) > 0
		if !head.rev.Dirty {
			r.note("head: the worktree has no uncommitted changes, so it is HEAD")
		}
	}
	base := &version{rev: Revision{Spec: r.plan.Base}}
	b, err := gitrev.ResolveBase(ctx, r.mod.repo, r.plan.Base, head.rev.Commit)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return FieldBase.Errorf("%w", err)
	}
	base.rev.Commit = b.Commit
	if b.Rev == "" {
		base.rev.Spec = "merge-base(" + headRev + ", " + b.Branch + ")"
		b.Head = headRev
		r.note("base: " + b.String())
	}
	for _, v := range []*version{base, head} {
		out, err := gitrev.Git(ctx, r.mod.repo, "show", "-s", "--format=%cI%n%s", v.rev.Commit)
		if err != nil {
			return err
		}
		when, subject, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		v.rev.Time, _ = time.Parse(time.RFC3339, when)
		v.rev.Subject = subject
		if v.rev.Depth, err = gitrev.Depth(ctx, r.mod.repo, v.rev.Commit); err != nil {
			return err
		}
	}
	r.vers = [2]*version{base, head}
	r.same = base.rev.Commit == head.rev.Commit && !head.rev.Dirty && len(r.plan.HeadFiles) == 0
	if r.same {
		r.note("base and head are the same commit: an A/A comparison, which measures the noise")
	}
	return nil
}

func (r *runner) note(s string) { *r.notes = append(*r.notes, s) }

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
		v.dir = filepath.Join(wt, r.mod.rel)
		cmd := exec.CommandContext(ctx, r.plan.goCmd(), "env", "GOVERSION")
		cmd.Dir, cmd.Env = v.dir, r.plan.env()
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
	if pkg == r.mod.path {
		return v.dir, true
	}
	rel, ok := strings.CutPrefix(pkg, r.mod.path+"/")
	if !ok {
		return "", false
	}
	return filepath.Join(v.dir, filepath.FromSlash(rel)), true
}

func (r *runner) emit(ev Event) {
	if r.plan.Progress != nil {
		r.plan.Progress(ev)
	}
}
