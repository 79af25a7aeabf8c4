// Package pipeline runs mbopt end to end on a Go module, as the command
// "mbopt run" does: it gets the application (reference) profile, profiles
// every benchmark of the module ([collect]), and analyses both
// ([analysis]).
//
// The application profile comes from any of four sources, merged into one
// application graph: existing profile files, a capture from a running
// program's net/http/pprof endpoint, the module's default.pgo files (Go's
// PGO profiles) and a workload command that writes a CPU profile (see
// package reference). It is taken first, so a broken source fails in
// seconds rather than after the whole suite ran.
package pipeline

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/mbopt/mbopt/analysis"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/collect"
	"github.com/mbopt/mbopt/manifest"
	"github.com/mbopt/mbopt/reference"

	"github.com/mbopt/mbopt/internal/textutil"
)

// Defaults of the Config fields whose zero value means a default.
const (
	// DefaultAppSeconds is the length of an AppURL capture.
	DefaultAppSeconds = 30
	// DefaultAppTimeout bounds an AppCommand workload.
	DefaultAppTimeout = 10 * time.Minute
)

// Config says what to run. Errors about a field are *analysis.FieldError
// values naming it (as "Config.AppURL", "Config.Collect.Out", ...).
type Config struct {
	// Config configures the analysis. App lists existing application
	// profiles (it may be empty when another source below is set), and
	// Micro must be empty: the benchmark profiles are the ones collected.
	// Dir, when empty, is Collect.Dir.
	analysis.Config

	// Collect configures the collection. Collect.Dir is the module's
	// directory ("" is the current directory); Collect.Out, when empty,
	// is Collect.Dir/.mbopt/profiles. The application profiles taken from
	// AppURL and AppCommand are written into Collect.Out as well.
	Collect collect.Config

	// AppURL, when set, is a running program's net/http/pprof base URL or
	// full profile URL, captured for AppSeconds.
	AppURL string
	// AppSeconds is the length of the AppURL capture; 0 means
	// DefaultAppSeconds.
	AppSeconds int
	// AppPGO adds the module's default.pgo files.
	AppPGO bool
	// AppCommand, when set, is a workload command line run in the module's
	// directory with sh -c; it must write a CPU profile where
	// reference.Placeholder stands.
	AppCommand string
	// AppTimeout bounds the AppCommand workload; 0 means
	// DefaultAppTimeout.
	AppTimeout time.Duration
	// AppRuns runs the AppCommand workload that many times, one after
	// the other, and merges the profiles (app-cmd-1.pprof, ...); 0 means
	// once. Each run gets its number, from 1, in the environment variable
	// MBOPT_APP_RUN. Result.AppRuns then says how many functions every
	// run saw and how many only some did: a measure of how stable the
	// workload's profile is.
	AppRuns int

	// Collector runs the collection; nil means collect.Collect. A front
	// end sets it to show progress and a summary around collect.Collect.
	Collector func(context.Context, collect.Config) (*manifest.Manifest, error)
	// Logf, when not nil, receives one line (without newline) per step
	// taken for the application profile.
	Logf func(format string, args ...any)
	// Stderr receives the workload command's output; nil discards it.
	Stderr io.Writer
}

// Result is the outcome of [Run].
type Result struct {
	// Manifest records the collection (also in Collect.Out).
	Manifest *manifest.Manifest
	// Report is the analysis of the application profiles (in
	// Report.AppProfiles: App, then the default.pgo files, the capture and
	// the workload's profiles) against the collected benchmark profiles.
	Report *analysis.Report
	// AppRuns compares the workload's runs; nil unless Config.AppRuns
	// is 2 or more.
	AppRuns *RunStability
}

// RunStability compares the application profiles of repeated runs of one
// workload (Config.AppRuns): a function seen in only some runs is one whose
// coverage depends on chance. Function names are normalised as in package
// callgraph, and project functions are those of Report.Modules.
type RunStability struct {
	// Files are the runs' profiles, in run order.
	Files []string
	// Seen counts the functions seen in any run; Every those seen in
	// every run, so Seen − Every were seen in only some.
	Seen, Every int
	// ProjectSeen and ProjectEvery count the project functions among them.
	ProjectSeen, ProjectEvery int
	// PerRun[i] counts the functions run i+1 saw, ProjectPerRun[i] the
	// project functions.
	PerRun, ProjectPerRun []int
}

// Some returns Seen − Every: the functions seen in only some runs.
func (s *RunStability) Some() int { return s.Seen - s.Every }

// ProjectSome returns ProjectSeen − ProjectEvery.
func (s *RunStability) ProjectSome() int { return s.ProjectSeen - s.ProjectEvery }

// CompareRuns loads each profile in files as one run of a workload and
// counts the functions seen in every run and in only some, project
// functions (of modules) apart. Errors are callgraph.Load's.
func CompareRuns(files []string, modules []string, limits callgraph.Limits) (*RunStability, error) {
	s := &RunStability{Files: files}
	times := map[string]int{}
	project := map[string]bool{}
	for _, f := range files {
		g, err := callgraph.Load([]string{f}, callgraph.Options{Modules: modules, NoEdges: true, Limits: limits})
		if err != nil {
			return nil, err
		}
		n, p := 0, 0
		for _, node := range g.Nodes {
			times[node.Name]++
			project[node.Name] = node.Project
			n++
			if node.Project {
				p++
			}
		}
		s.PerRun = append(s.PerRun, n)
		s.ProjectPerRun = append(s.ProjectPerRun, p)
	}
	for name, k := range times {
		s.Seen++
		if project[name] {
			s.ProjectSeen++
		}
		if k == len(files) {
			s.Every++
			if project[name] {
				s.ProjectEvery++
			}
		}
	}
	return s, nil
}

// A CollectionError says that the collection did not give what the
// analysis needs: no benchmark was profiled, or, with Config.Strict, some
// benchmark did not succeed. It is not an input error: the manifest and
// the logs in Out say what went wrong.
type CollectionError struct {
	// Out is the collection's directory.
	Out string
	// Failed counts the benchmarks that did not succeed, of Total.
	Failed, Total int
	// Strict reports that the error is Config.Strict's (some profiles
	// were collected).
	Strict bool
}

// Error returns the message with the Strict field named as Go code names it.
func (e *CollectionError) Error() string { return e.Text(analysis.Field.String) }

// Text returns the message with the Strict field named by name.
func (e *CollectionError) Text(name func(analysis.Field) string) string {
	if e.Strict {
		return fmt.Sprintf("%s: %d of %s did not succeed", name("Strict"), e.Failed, textutil.Plural(e.Total, "benchmark"))
	}
	return fmt.Sprintf("no benchmark was profiled (logs in %s)", filepath.Join(e.Out, "logs"))
}

func fieldErrorf(format string, args ...any) error {
	return &analysis.FieldError{Format: format, Args: args}
}

// validate checks cfg and returns the module directory and the output
// directory.
func (cfg *Config) validate() (dir, out string, err error) {
	dir = cfg.Collect.Dir
	if dir == "" {
		dir = "."
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", "", fieldErrorf("%s: not a directory (%s is the module's directory)", dir, analysis.Field("Collect.Dir"))
	}
	if len(cfg.Micro) > 0 {
		return "", "", fieldErrorf("%s must be empty: the pipeline profiles the benchmarks itself (run package analysis on existing profiles)", analysis.Field("Micro"))
	}
	if len(cfg.App) == 0 && cfg.AppURL == "" && !cfg.AppPGO && cfg.AppCommand == "" {
		return "", "", fieldErrorf("no application profile: give %s, %s, %s or %s",
			analysis.Field("App"), analysis.Field("AppURL"), analysis.Field("AppPGO"), analysis.Field("AppCommand"))
	}
	if cfg.AppSeconds < 0 {
		return "", "", fieldErrorf("%s must be positive, not %d", analysis.Field("AppSeconds"), cfg.AppSeconds)
	}
	if cfg.AppTimeout < 0 {
		return "", "", fieldErrorf("%s must be positive, not %v", analysis.Field("AppTimeout"), cfg.AppTimeout)
	}
	if cfg.AppRuns < 0 {
		return "", "", fieldErrorf("%s must be positive, not %d", analysis.Field("AppRuns"), cfg.AppRuns)
	}
	if cfg.AppRuns > 1 && cfg.AppCommand == "" {
		return "", "", fieldErrorf("%s repeats the workload of %s, which is not set", analysis.Field("AppRuns"), analysis.Field("AppCommand"))
	}
	out = cfg.Collect.Out
	if out == "" {
		out = filepath.Join(dir, ".mbopt", "profiles")
	}
	return dir, out, nil
}

// Run gets the application profiles, collects the benchmark profiles into
// Collect.Out and analyses them. A bad setting or application source is an
// error matching analysis.ErrInput; a collection without the profiles the
// analysis needs is a *[CollectionError]; errors of the collection itself
// are returned as Collector returned them; when ctx ends, Run returns an
// error matching ctx.Err().
func Run(ctx context.Context, cfg Config) (*Result, error) {
	dir, out, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fieldErrorf("%s: %w", analysis.Field("Collect.Out"), err)
	}
	logf := cfg.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}

	apps, runs, err := cfg.appProfiles(ctx, dir, out, logf)
	if err != nil {
		return nil, err
	}

	collector := cfg.Collector
	if collector == nil {
		collector = collect.Collect
	}
	cc := cfg.Collect
	cc.Dir, cc.Out = dir, out
	m, err := collector(ctx, cc)
	if err != nil {
		return nil, err
	}
	if m.Count(manifest.StatusOK) == 0 {
		return nil, &CollectionError{Out: out, Failed: len(m.Problems()), Total: len(m.Benchmarks)}
	}
	if n := len(m.Problems()); cfg.Strict && n > 0 {
		return nil, &CollectionError{Out: out, Failed: n, Total: len(m.Benchmarks), Strict: true}
	}

	ac := cfg.Config
	ac.App = apps
	ac.Micro = []string{out}
	if ac.Dir == "" {
		ac.Dir = dir
	}
	rep, err := analysis.Run(ctx, ac)
	if err != nil {
		return nil, err
	}
	res := &Result{Manifest: m, Report: rep}
	if len(runs) > 1 {
		// The analysis read these files already, so they are valid.
		if res.AppRuns, err = CompareRuns(runs, rep.Modules, cfg.Limits); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// appProfiles returns the application profile files: App, then those it
// takes from the other sources, in the order of the Config fields; and the
// workload's profiles, one per run.
func (cfg *Config) appProfiles(ctx context.Context, dir, out string, logf func(string, ...any)) (apps, runs []string, err error) {
	apps = append([]string(nil), cfg.App...)
	if cfg.AppPGO {
		pgo, err := reference.FindPGO(dir)
		if err != nil {
			return nil, nil, fieldErrorf("%s: %w; give the application profile with %s, %s or %s instead",
				analysis.Field("AppPGO"), err, analysis.Field("App"), analysis.Field("AppURL"), analysis.Field("AppCommand"))
		}
		logf("application profile from %s", textutil.Plural(len(pgo), "default.pgo file"))
		apps = append(apps, pgo...)
	}
	if cfg.AppURL != "" {
		seconds := cfg.AppSeconds
		if seconds == 0 {
			seconds = DefaultAppSeconds
		}
		path := filepath.Join(out, "app-url.pprof")
		logf("capturing %ds of CPU profile from %s", seconds, cfg.AppURL)
		if err := reference.Capture(ctx, cfg.AppURL, seconds, path); err != nil {
			return nil, nil, sourceError(ctx, "AppURL", err)
		}
		apps = append(apps, path)
	}
	if cfg.AppCommand != "" {
		timeout := cfg.AppTimeout
		if timeout == 0 {
			timeout = DefaultAppTimeout
		}
		stderr := cfg.Stderr
		if stderr == nil {
			stderr = io.Discard
		}
		n := max(cfg.AppRuns, 1)
		for run := 1; run <= n; run++ {
			path := filepath.Join(out, "app-cmd.pprof")
			if n > 1 {
				path = filepath.Join(out, fmt.Sprintf("app-cmd-%d.pprof", run))
				logf("running the workload, run %d of %d: %s", run, n, cfg.AppCommand)
			} else {
				logf("running the workload: %s", cfg.AppCommand)
			}
			start := time.Now()
			if err := reference.Run(ctx, cfg.AppCommand, dir, path, timeout, stderr, fmt.Sprintf("MBOPT_APP_RUN=%d", run)); err != nil {
				return nil, nil, sourceError(ctx, "AppCommand", err)
			}
			logf("workload done in %s", time.Since(start).Round(100*time.Millisecond))
			apps = append(apps, path)
			runs = append(runs, path)
		}
	}
	return apps, runs, nil
}

// sourceError classifies the failure of an application source: the end of
// ctx is not the input's fault.
func sourceError(ctx context.Context, field analysis.Field, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %w", ctx.Err(), err)
	}
	return fieldErrorf("%s: %w", field, err)
}
