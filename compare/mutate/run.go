package mutate

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/compare"
	"github.com/mbopt/mbopt/compare/benchstats"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/testbin"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/internal/tmpdir"
)

// Fields of [Options] named in its errors (mbopt mutate's flags).
const (
	FieldSlowdown      mbopt.Field = "Slowdown"
	FieldSizeBenchmark mbopt.Field = "SizeBenchmark"
	FieldCompare       mbopt.Field = "Compare"
	FieldCompareBench  mbopt.Field = "Compare.Bench"
)

// Options say which function to slow down, by how much, and how to
// compare the mutant with the unchanged code.
type Options struct {
	// Func is the function's full name, as a profile names it
	// ("example.com/m/p.F").
	Func string
	// Slowdown is the share of the function's own instructions per call
	// the mutant adds (0.1 is +10%); it must be positive.
	Slowdown float64
	// SizeBenchmark is the benchmark that measures the function's cost:
	// an id (package import path + "." + name) or a name in the
	// function's package. "" means the first benchmark of the function's
	// package, in name order, that calls it (and matches Compare.Bench).
	SizeBenchmark string
	// Compare is the comparison of the unchanged code (the base) with the
	// mutant (the head): both are Compare.Head (HEAD when ""), the head
	// built with the mutant's file in place (compare.Options.HeadFiles).
	// Compare.Base and Compare.HeadFiles must be empty. Compare.Dir is
	// the module. Its Settings must plan at least the measurements per
	// version a verdict needs (compare.Settings.Planned: 8 at the default
	// 99% confidence, which the default 3 trials of 3 runs give): with
	// fewer no mutant could be caught, so it is an input error.
	Compare compare.Options
}

// A Result is one mutant and what the comparison said of it.
type Result struct {
	// Function is the function slowed down.
	Function string `json:"function"`
	// Slowdown is the share of its own cost per call added.
	Slowdown float64 `json:"slowdown"`
	// File is the module-relative file of the function the mutant
	// replaces.
	File string `json:"file"`
	// SizedBy is the id of the benchmark that measured its cost.
	SizedBy string `json:"sized_by"`
	// Sizing is the measurement of its cost and of the busy loop's.
	Sizing Sizing `json:"sizing"`
	// Iterations is the busy loop's length per call.
	Iterations int `json:"iterations"`
	// Added is the slowdown the mutant adds per call as sized
	// (Sizing.Slowdown): Slowdown, or more for a function so small that
	// the loop's one call costs more.
	Added float64 `json:"added"`
	// Caught is true when some benchmark reports a definite regression.
	Caught bool `json:"caught"`
	// CaughtBy are the ids of the benchmarks with a definite regression,
	// in the report's order.
	CaughtBy []string `json:"caught_by,omitempty"`
	// Report is the comparison of the unchanged code with the mutant.
	Report *compare.Report `json:"comparison"`
}

// Run slows Options.Func down by Options.Slowdown and compares the mutant
// with the unchanged code (package compare): the function's file is
// replaced only in the head's build, so the source tree is never
// touched. Errors about the options are input errors naming the field.
func Run(ctx context.Context, opt Options) (*Result, error) {
	if err := checkSlowdown(opt.Slowdown); err != nil {
		return nil, err
	}
	m, err := prepare(ctx, opt)
	if err != nil {
		return nil, err
	}
	return m.run(ctx, opt.Slowdown)
}

// RunEach runs a mutant of each of funcs on its own, in order, as [Run]
// does with opt's Func set to it. logf, when not nil, receives a line
// before each run that names the function and the metric the comparison
// measures. No function is an input error naming Func, or Predictions,
// which checks predictions instead (see [ScoreSensitivity]).
func RunEach(ctx context.Context, funcs []string, opt Options, logf func(format string, args ...any)) ([]*Result, error) {
	if len(funcs) == 0 {
		return nil, mbopt.Errorf("%s is required: the function to slow down (or %s N: the N largest functions' predicted detectable slowdowns)", FieldFunc, FieldPredictions)
	}
	var results []*Result
	for _, fn := range funcs {
		opt.Func = fn
		if logf != nil {
			logf("mutate: sizing %s's slowdown under Valgrind; the comparison measures %s", fn, opt.Compare.Settings.RunMetric().Choice())
		}
		res, err := Run(ctx, opt)
		if err != nil {
			return nil, err
		}
		results = append(results, res)
	}
	return results, nil
}

// checkSlowdown reports whether s is a slowdown a mutant can add.
func checkSlowdown(s float64) error {
	if !(s > 0) || math.IsInf(s, 0) {
		return mbopt.Errorf("%s %g: give the slowdown as a positive fraction of the function's own cost (0.1 is +10%%)", FieldSlowdown, s)
	}
	return nil
}

// checkSchedule reports whether a mutant's comparison s plans the
// measurements a verdict needs (compare.Settings.Planned). With fewer,
// every result is too few to judge, so every mutant would read as not
// caught and every prediction as missed, whatever the benchmarks
// measured: 2 trials of 3 runs moved BenchmarkEncode +1.50% [+1.49%,
// +1.52%] and reported it unchanged.
func checkSchedule(s compare.Settings) error {
	if planned, needed := s.Planned(); planned < needed {
		return mbopt.Errorf("%s × %s × %s plan %s per version, under the %d a verdict needs: no mutant could be caught; plan at least %d (the default 3 trials of 3 runs do)",
			compare.FieldSettingsTrials, compare.FieldSettingsRuns, compare.FieldSettingsCount, textutil.Plural(planned, "measurement"), needed, needed)
	}
	return nil
}

// A mutant is a function found and sized, ready to be slowed down by any
// amount: [Run] makes one mutant of it, [ScoreSensitivity] two.
type mutant struct {
	opt   Options
	site  *Site
	file  string // module-relative
	by    string // the sizing benchmark's id
	sized Sizing
}

// prepare finds Options.Func and sizes its mutants (Options.Slowdown is
// not read).
func prepare(ctx context.Context, opt Options) (*mutant, error) {
	if opt.Compare.Base != "" || opt.Compare.HeadFiles != nil || opt.Compare.AA {
		return nil, mbopt.Errorf("%s: a mutant is compared with the code it came from: leave Base, AA and HeadFiles unset", FieldCompare)
	}
	if err := checkSchedule(opt.Compare.Settings); err != nil {
		return nil, err
	}
	dir := opt.Compare.Dir
	if dir == "" {
		dir = "."
	}
	site, err := Find(ctx, dir, opt.Func)
	if err != nil {
		return nil, err
	}
	root, err := moduleRoot(ctx, dir)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(root, site.File)
	if err != nil {
		return nil, err
	}
	z, by, err := size(ctx, site, opt, root)
	if err != nil {
		return nil, err
	}
	return &mutant{opt: opt, site: site, file: filepath.ToSlash(rel), by: by, sized: z}, nil
}

// run compares the unchanged code with m slowed down by slowdown.
func (m *mutant) run(ctx context.Context, slowdown float64) (*Result, error) {
	res := &Result{Function: m.site.Function, Slowdown: slowdown, File: m.file, SizedBy: m.by, Sizing: m.sized, Iterations: m.sized.Iterations(slowdown)}
	res.Added = m.sized.Slowdown(res.Iterations)
	co := m.opt.Compare
	co.Base = co.Head
	if co.Base == "" {
		co.Base = "HEAD"
	}
	co.Head = co.Base
	co.HeadFiles = map[string][]byte{res.File: m.site.Source(res.Iterations)}
	rep, err := compare.Run(ctx, co)
	if err != nil {
		return nil, err
	}
	res.Report = rep
	for _, r := range rep.Results {
		if r.Status == compare.Compared && r.Verdict == benchstats.DefiniteRegression {
			res.Caught = true
			res.CaughtBy = append(res.CaughtBy, r.ID)
		}
	}
	return res, nil
}

// size sizes the mutant with Options.SizeBenchmark, or with the first
// benchmark of the function's package that calls it.
func size(ctx context.Context, s *Site, opt Options, root string) (Sizing, string, error) {
	env := append(os.Environ(), opt.Compare.Env...)
	o := SizeOptions{ModuleDir: root, BenchPackage: s.Package, Env: env}
	if opt.SizeBenchmark != "" {
		o.Benchmark = opt.SizeBenchmark
		if pkg, name, ok := benchname.SplitID(opt.SizeBenchmark); ok {
			o.BenchPackage, o.Benchmark = pkg, name
		}
		z, err := Size(ctx, s, o)
		if err != nil {
			return Sizing{}, "", mbopt.Errorf("%s %s: %w", FieldSizeBenchmark, opt.SizeBenchmark, err)
		}
		return z, o.BenchPackage + "." + o.Benchmark, nil
	}
	names, err := benchmarks(ctx, s, opt.Compare.Bench, root, env)
	if err != nil {
		return Sizing{}, "", err
	}
	var tried []string
	for _, name := range names {
		o.Benchmark = name
		z, err := Size(ctx, s, o)
		if err == nil {
			return z, s.Package + "." + name, nil
		}
		if ctx.Err() != nil {
			return Sizing{}, "", ctx.Err()
		}
		tried = append(tried, name)
	}
	if len(tried) == 0 {
		return Sizing{}, "", mbopt.Errorf("package %s has no benchmark that matches the comparison's pattern to measure %s's cost: name one that calls it with %s", s.Package, s.Function, FieldSizeBenchmark)
	}
	return Sizing{}, "", mbopt.Errorf("no benchmark of package %s calls %s (tried %v): name one that does, in any package, with %s", s.Package, s.Function, tried, FieldSizeBenchmark)
}

// benchmarks returns the top-level benchmarks of the site's package that
// match the -bench pattern bench ("" matches all), sorted.
func benchmarks(ctx context.Context, s *Site, bench, root string, env []string) ([]string, error) {
	re, err := regexp.Compile(bench)
	if err != nil {
		return nil, mbopt.Errorf("%s %q: %v", FieldCompareBench, bench, err)
	}
	tmp, remove, err := tmpdir.Make("mbopt-mutate-")
	if err != nil {
		return nil, err
	}
	defer remove()
	bin := filepath.Join(tmp, "list.test")
	if err := Build(ctx, root, s.Package, bin, "", env); err != nil {
		return nil, err
	}
	tops, res := testbin.List(ctx, s.Dir, env, time.Minute, bin)
	if res.Err != nil || res.TimedOut {
		return nil, fmt.Errorf("listing the benchmarks of %s: %s", s.Package, testbin.Failure(res.Output, 8))
	}
	var out []string
	for _, t := range tops {
		if re.MatchString(t) {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out, nil
}

// moduleRoot returns the root directory of the main module of dir.
func moduleRoot(ctx context.Context, dir string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-m", "-f", "{{.Dir}}")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", mbopt.Errorf("%s: %s is not in a Go module: %v", FieldCompare, dir, err)
	}
	return strings.TrimSpace(string(out)), nil
}
