package compare

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/compare/engine"
	"github.com/mbopt/mbopt/internal/benchname"
	"github.com/mbopt/mbopt/internal/textutil"
)

// A comparison is the judging of one engine run: the settings as run and
// the engine's raw results. Each step takes the options it needs as
// arguments.
type comparison struct {
	s     Settings // as run: a budget's schedule
	raw   *engine.Raw
	notes *[]string // where the steps' notes go: raw's before the report has them, else the report's
}

// note adds a note to the report's.
func (c *comparison) note(s string) { *c.notes = append(*c.notes, s) }

// Run compares the benchmarks of two revisions of the module in opt.Dir
// and returns the report; see the package documentation for the method.
//
// It measures with package engine (engine.Run): it checks out each
// revision with git worktree into a temporary directory (see
// [TempPrefix]), builds each package's test binary once per revision, runs
// the RMIT schedule and writes the raw results to [BaseFile] and
// [HeadFile] in opt.Out (atomically). It then computes the statistics
// from those files with [Analyze], finds the culprits of the changes on
// the kept test binaries, and confirms the application impact
// (Options.Confirm). A benchmark that exists in only one revision is a
// result with status Added or Removed; a package that does not build, or a
// benchmark that fails, in a version is a result with status BuildFailed
// or Failed: none of them is an error.
//
// Run fails with an [*mbopt.Error] naming the field for bad options
// (see package mbopt), and with ctx's error when ctx is canceled; it leaves no
// worktree and no temporary directory behind either way.
func Run(ctx context.Context, opt Options) (*Report, error) {
	start := time.Now()
	s, err := opt.check()
	if err != nil {
		return nil, err
	}
	raw, err := engine.Run(ctx, opt.plan(s))
	if err != nil {
		return nil, err
	}
	defer raw.Close()
	c := &comparison{raw: raw, notes: &raw.Notes}
	rep, err := c.judge(s, opt.Relevance.Impacts)
	if err != nil {
		return nil, err
	}
	// The steps on the kept test binaries: the culprits of each change,
	// kept with a shard's record for the merge, and the application
	// measured where an estimate calls for it.
	rec := c.shardRecord(rep, s, opt.Relevance.Application != nil)
	if err := c.culprits(ctx, rep, opt.Explain, opt.Relevance.Application); err != nil {
		return nil, err
	}
	if rec != nil {
		rec.addExplained(rep.Results, raw.Out)
	}
	if err := writeShardRecord(raw.Out, rec); err != nil {
		return nil, err
	}
	if opt.Confirm.Enabled() {
		if err := c.confirm(ctx, rep, opt.Confirm); err != nil {
			return nil, err
		}
	}
	c.finish(rep, opt.Relevance.Affected)
	rep.Wall = time.Since(start)
	return rep, nil
}

// Judge returns the report of the raw results of an engine run
// (engine.Run, with the schedule s.Schedule gives it): [Analyze]'s
// verdicts on raw.Files with s (its Trials, Runs and Count those the
// engine ran, raw.Schedule) and rel.Impacts, the failures the files cannot
// hold (BuildFailed, Failed), each benchmark's caveats, raw's notes and
// the untouched marks of rel.Affected, sorted by [SortResults]. It is [Run] without the steps
// that run on the kept test binaries (culprit functions, a confirming
// workload): a caller that needs only the verdicts, such as a bisect's
// steps, runs the engine and then Judge. It fails with an [*mbopt.Error]
// for bad settings.
func Judge(raw *engine.Raw, s Settings, rel Relevance) (*Report, error) {
	s.Metric = recorded(s.Metric)
	s = s.withDefaults()
	if err := s.check(); err != nil {
		return nil, err
	}
	c := &comparison{raw: raw, notes: &raw.Notes}
	rep, err := c.judge(s, rel.Impacts)
	if err != nil {
		return nil, err
	}
	c.finish(rep, rel.Affected)
	return rep, nil
}

// Explain is the step after [Judge] that finds culprit functions on the
// test binaries raw keeps (rep is Judge's report of raw): for rep's
// definite and potential changes in the comparison's metric, and for the
// benchmarks names names (full names or ids) whatever their verdict
// (Result.Culprits, Explained, and the Profiles it writes under raw.Out's
// [CulpritDir]); with app, their application impact (Result.AppImpact).
// [Run] runs it with Options.Explain and Relevance.Application. A
// benchmark whose profiles cannot be taken, and a name that matches no
// result, get a note in rep.Notes; ctx's end and a missing Valgrind are
// errors.
func Explain(ctx context.Context, raw *engine.Raw, rep *Report, names []string, app *callgraph.Application) error {
	c := &comparison{s: rep.Settings, raw: raw, notes: &rep.Notes}
	return c.culprits(ctx, rep, names, app)
}

// ConfirmImpact is the step after [Explain] that measures the application
// workload conf on both versions with raw's kept worktrees and test
// binaries, into rep.AppMeasured, when some result's estimated
// application impact passes rep.Settings.AppImpactThreshold (see
// [Confirm]); a note in rep.Notes says when none did, or why the workload
// could not be measured. [Run] runs it with Options.Confirm. It fails with
// an [*mbopt.Error] for a bad conf, and with ctx's end or a missing
// Valgrind.
func ConfirmImpact(ctx context.Context, raw *engine.Raw, rep *Report, conf Confirm) error {
	if err := conf.check(); err != nil || !conf.Enabled() {
		return err
	}
	c := &comparison{s: rep.Settings, raw: raw, notes: &rep.Notes}
	return c.confirm(ctx, rep, conf)
}

// judge analyzes the raw files with s, as the engine ran them, and
// impacts (may be nil), and marks the failures and caveats the files
// cannot hold.
func (c *comparison) judge(s Settings, impacts map[string]callgraph.Impact) (*Report, error) {
	raw := c.raw
	c.s = s
	c.s.Trials, c.s.Runs, c.s.Count = raw.Schedule.Trials, raw.Schedule.Runs, raw.Schedule.Count
	rep, err := Analyze(raw.Files[:], c.s, impacts)
	if err != nil {
		return nil, fmt.Errorf("analyzing the raw results: %w", err)
	}
	rep.Module, rep.Base, rep.Head, rep.Out = raw.Module, raw.Base, raw.Head, raw.Out
	rep.Raw = map[string]string{"base": BaseFile, "head": HeadFile}
	rep.Results = c.failures(rep.Results)
	for i := range rep.Results {
		r := &rep.Results[i]
		cs := raw.Caveats[r.ID]
		if len(cs) == 0 {
			continue
		}
		// The engine's caveats join the judge's (imprecise, amortized),
		// whose imprecise caveat gives the engine's reasons.
		merged := slices.Clone(cs)
		for _, c := range r.Caveats {
			if strings.HasPrefix(c, CaveatImprecise) && r.MinDetectableEffect != nil {
				c = imprecise(*r.MinDetectableEffect, cs)
			}
			merged = append(merged, c)
		}
		slices.Sort(merged)
		r.Caveats = slices.Compact(merged)
	}
	return rep, nil
}

// finish gives rep the notes, the untouched marks of affected (nil:
// unknown), the report's order and what the engine saved.
func (c *comparison) finish(rep *Report, affected map[string]bool) {
	raw := c.raw
	rep.Notes = raw.Notes
	if n := markUntouched(rep.Results, affected); n > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%s in benchmarks that cover none of the changed functions: likely noise (marked untouched); the gate still counts them", textutil.Plural(n, "detection")))
	}
	SortResults(rep.Results)
	rep.Saved = raw.Saved
	rep.GoVersion = raw.GoVersion
	if c.s.UntilStable > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("until-stable %.3g: stopped %s early, saving about %s",
			c.s.UntilStable, textutil.Plural(raw.Stopped, "benchmark"), raw.Saved.Round(100*time.Millisecond)))
	}
}

// Check reports the first option [Run] refuses before it runs anything, as
// an [*mbopt.Error] naming it: the settings (Settings.Check), AA with a
// Base or the work tree, the confirmation's workload, OnlyAffected without
// what the change affected. (The engine checks the plan, such as the
// shards, as it starts.)
func (opt Options) Check() error {
	_, err := opt.check()
	return err
}

// check checks the options before anything runs, and returns the
// settings with the defaults filled in. With AA, Base becomes the head;
// with OnlyAffected, Benchmarks keeps the affected ones.
func (opt *Options) check() (Settings, error) {
	if opt.AA {
		aaErr := func(format string, args ...any) error {
			return &mbopt.Error{Struct: "Options", Format: format, Args: args}
		}
		switch {
		case opt.Base != "":
			return Settings{}, aaErr("%s compares the head with itself: leave %s unset", FieldAA, FieldBase)
		case opt.Head == Worktree:
			return Settings{}, aaErr("%s calibrates on a commit: %s worktree has uncommitted changes that the history cannot name", FieldAA, FieldHead)
		}
		opt.Base = cmp.Or(opt.Head, "HEAD")
	}
	s := opt.Settings.forRun().withDefaults()
	if err := s.check(); err != nil {
		return s, err
	}
	if err := opt.Confirm.check(); err != nil {
		return s, err
	}
	if opt.Confirm.Enabled() && opt.Relevance.Application == nil {
		return s, FieldConfirm.Errorf("confirms the estimated application impact, which needs the application's reference profile (%s)", FieldRelevanceApplication)
	}
	if opt.OnlyAffected {
		if opt.Relevance.Affected == nil || len(opt.Benchmarks) == 0 {
			return s, FieldOnlyAffected.Errorf("OnlyAffected needs the Benchmarks and which of them the change affected (Relevance.Affected)")
		}
		all := opt.Benchmarks
		opt.Benchmarks = slices.DeleteFunc(slices.Clone(all), func(b Benchmark) bool {
			return !opt.Relevance.Affected[benchname.ID(b.Package, benchname.Top(b.Name))]
		})
		if len(opt.Benchmarks) == 0 {
			return s, FieldOnlyAffected.Errorf("the change touches none of the functions the %s cover, so nothing needs comparing", textutil.Plural(len(all), "benchmark"))
		}
	}
	return s, nil
}

// plan returns the engine's plan of the comparison with settings s.
func (opt *Options) plan(s Settings) engine.Plan {
	requested := opt.Benchmarks // before a shard takes its share
	return engine.Plan{
		Dir: opt.Dir, Base: opt.Base, Head: opt.Head,
		Benchmarks: opt.Benchmarks, Bench: opt.Bench, Packages: opt.Packages,
		Planned: func(tops []Benchmark) error {
			if len(requested) > 0 {
				tops = requested
			}
			return checkExplain(opt.Explain, tops)
		},
		Schedule:   s.schedule(),
		BuildFlags: opt.BuildFlags, HeadFiles: opt.HeadFiles, Env: opt.Env, GoCmd: opt.GoCmd, Timeout: opt.Timeout, CacheDir: opt.CacheDir,
		Shard: opt.Shard, TrialShard: opt.TrialShard, ShardCosts: opt.ShardCosts,
		Out: opt.Out, Progress: opt.Progress,
	}
}
