package flow

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/dirlock"
	"github.com/mbopt/mbopt/internal/statedir"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/relevance/reference"
)

// StateDir is the directory, in the module's directory, that holds what
// Run collects by default (see the package documentation).
const StateDir = statedir.Name

// Defaults of the Config fields whose zero value means a default.
const (
	// DefaultAppSeconds is the length of an AppURL capture.
	DefaultAppSeconds = 30
	// DefaultAppTimeout bounds each workload command.
	DefaultAppTimeout = 10 * time.Minute
)

// Config says what to run. Errors about a field are *mbopt.Error
// values naming it (as "Config.AppURL", "Config.Collect.Out", ...).
type Config struct {
	// Config configures the analysis. App lists existing application
	// profiles (it may be empty when another source below is set), and
	// Micro must be empty: the benchmark profiles are the ones collected.
	// Dir, when empty, is Collect.Dir.
	analysis.Config

	// Collect configures the collection. Collect.Dir is the module's
	// directory ("" is the current directory); Collect.Out, when empty,
	// is Collect.Dir/.mbopt/profiles.
	Collect collect.Config
	// AppOut is the directory for the application profiles Run takes
	// (from AppURL, AppCommand and AppWorkloads) and the workloads' logs;
	// empty means Collect.Dir/.mbopt/app. It may not be Collect.Out, nor
	// lie inside it or around it.
	AppOut string

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
	// AppWorkloads are workload commands, run like AppCommand, each of
	// whose profile is a named scenario (see analysis.ScenarioSpec): a
	// Name that Config.Scenarios already has adds the profile to that
	// scenario. With AppWorkloads or Config.Scenarios every application
	// profile must belong to a scenario, so AppURL, AppPGO, AppCommand
	// and unnamed App files cannot be added.
	AppWorkloads []Workload
	// AppTimeout bounds each workload (AppCommand and AppWorkloads); 0
	// means DefaultAppTimeout.
	AppTimeout time.Duration
	// AppRuns runs the AppCommand workload that many times, one after
	// the other, and merges the profiles (cmd-1.pprof, ...); 0 means
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
	// Chosen reports whether the caller chose the setting named f (for
	// mbopt run, whether its flag was given) rather than leaving its
	// default; nil means the settings that are not zero were chosen (see
	// mbopt.Chosen). A chosen AppSeconds, AppTimeout or AppRuns of 0 is
	// refused, as a negative one is.
	Chosen func(f mbopt.Field) bool
}

// Workload is a named workload command; see Config.AppWorkloads.
type Workload struct {
	// Name is the scenario's name (see analysis.ValidScenarioName),
	// unique among Config.AppWorkloads.
	Name string
	// Command is the command line, run with sh -c in the module's
	// directory; it must write a CPU profile where reference.Placeholder
	// stands.
	Command string
	// Weight is the scenario's weight, used when Config.Scenarios does not
	// have the scenario already; see analysis.ScenarioSpec.
	Weight float64
	// Weighted reports that Weight was set by the user.
	Weighted bool
}

// AppProfile is an application profile that Run took and wrote.
type AppProfile struct {
	// Source is the Config field it came from: "AppURL", "AppCommand" or
	// "AppWorkloads".
	Source mbopt.Field
	// Scenario is its scenario's name; empty unless Source is
	// AppWorkloads.
	Scenario string
	// File is the profile, in Config.AppOut.
	File string
	// Log is the workload's output (stdout and stderr), in Config.AppOut;
	// empty for AppURL.
	Log string
}

// Result is the outcome of [Run].
type Result struct {
	// Manifest records the collection (also in Collect.Out).
	Manifest *manifest.Manifest
	// Analysis is the analysis's Config as run: App and Scenarios list
	// every application profile, those Run took included, Micro the
	// collection's directory and Modules the project modules of Report.
	// Package analysis, run with it, repeats the analysis from the saved
	// files without profiling anything.
	Analysis analysis.Config
	// Taken lists the application profiles Run took and wrote, in the
	// order of Report.AppProfiles.
	Taken []AppProfile
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

// validate checks cfg and returns the module directory, the output
// directory and the application profiles' directory. It creates nothing.
func (cfg *Config) validate() (dir, out, appOut string, err error) {
	dir = cfg.Collect.Dir
	if dir == "" {
		dir = "."
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", "", "", mbopt.Errorf("%s: not a directory (%s is the module's directory)", dir, mbopt.Field("Collect.Dir"))
	}
	if len(cfg.Micro) > 0 {
		return "", "", "", mbopt.Errorf("%s must be empty: the pipeline profiles the benchmarks itself; analyse existing profiles with package analysis (mbopt analyze)", mbopt.Field("Micro"))
	}
	if len(cfg.App) == 0 && cfg.AppURL == "" && !cfg.AppPGO && cfg.AppCommand == "" && len(cfg.AppWorkloads) == 0 {
		return "", "", "", mbopt.Errorf("no application profile: give %s, %s, %s, %s or %s",
			mbopt.Field("App"), mbopt.Field("AppURL"), mbopt.Field("AppPGO"), mbopt.Field("AppCommand"), mbopt.Field("AppWorkloads"))
	}
	if cfg.AppSeconds < 0 || cfg.AppSeconds == 0 && mbopt.Chosen(cfg.Chosen, "AppSeconds", true) {
		return "", "", "", mbopt.Errorf("%s must be positive, not %d", mbopt.Field("AppSeconds"), cfg.AppSeconds)
	}
	if cfg.AppTimeout < 0 || cfg.AppTimeout == 0 && mbopt.Chosen(cfg.Chosen, "AppTimeout", true) {
		return "", "", "", mbopt.Errorf("%s must be positive, not %v", mbopt.Field("AppTimeout"), cfg.AppTimeout)
	}
	if cfg.AppRuns < 0 || cfg.AppRuns == 0 && mbopt.Chosen(cfg.Chosen, "AppRuns", true) {
		return "", "", "", mbopt.Errorf("%s must be positive, not %d", mbopt.Field("AppRuns"), cfg.AppRuns)
	}
	if cfg.AppCommand != "" && !strings.Contains(cfg.AppCommand, reference.Placeholder) {
		return "", "", "", mbopt.Errorf("%s %q: it must contain %s where the CPU profile path goes", mbopt.Field("AppCommand"), cfg.AppCommand, reference.Placeholder)
	}
	names := map[string]bool{}
	for i, w := range cfg.AppWorkloads {
		switch {
		case !analysis.ValidScenarioName(w.Name):
			return "", "", "", mbopt.Errorf("%s[%d].Name %q: a scenario name is a letter or digit followed by letters, digits, '_', '.' and '-'", mbopt.Field("AppWorkloads"), i, w.Name)
		case names[w.Name]:
			return "", "", "", mbopt.Errorf("%s: two workloads are named %q; give each its own scenario name", mbopt.Field("AppWorkloads"), w.Name)
		case !strings.Contains(w.Command, reference.Placeholder):
			return "", "", "", mbopt.Errorf("%s[%d] (%s) %q: it must contain %s where the CPU profile path goes", mbopt.Field("AppWorkloads"), i, w.Name, w.Command, reference.Placeholder)
		}
		names[w.Name] = true
	}
	if len(cfg.AppWorkloads) > 0 || len(cfg.Scenarios) > 0 {
		var unnamed []any
		if len(cfg.App) > 0 && len(cfg.Scenarios) == 0 {
			unnamed = append(unnamed, mbopt.Field("App"))
		}
		if cfg.AppURL != "" {
			unnamed = append(unnamed, mbopt.Field("AppURL"))
		}
		if cfg.AppPGO {
			unnamed = append(unnamed, mbopt.Field("AppPGO"))
		}
		if cfg.AppCommand != "" {
			unnamed = append(unnamed, mbopt.Field("AppCommand"))
		}
		if len(unnamed) > 0 {
			return "", "", "", mbopt.Errorf("the application profiles are named scenarios, but "+strings.TrimSuffix(strings.Repeat("%s, ", len(unnamed)), ", ")+
				" would add unnamed ones: give every application profile a scenario name or none", unnamed...)
		}
	}
	if cfg.AppRuns > 1 && cfg.AppCommand == "" {
		return "", "", "", mbopt.Errorf("%s repeats the workload of %s, which is not set", mbopt.Field("AppRuns"), mbopt.Field("AppCommand"))
	}
	out = cfg.Collect.Out
	if out == "" {
		out = filepath.Join(dir, StateDir, "profiles")
	}
	appOut = cfg.AppOut
	if appOut == "" {
		appOut = filepath.Join(dir, StateDir, "app")
	}
	if within(out, appOut) || within(appOut, out) {
		return "", "", "", mbopt.Errorf("%s %s and %s %s overlap: the application profiles go beside the benchmark profiles, not inside",
			mbopt.Field("AppOut"), appOut, mbopt.Field("Collect.Out"), out)
	}
	for _, app := range cfg.App {
		if filepath.Dir(abs(app)) == abs(appOut) {
			return "", "", "", mbopt.Errorf("%s %s is in %s %s, where Run writes the profiles it takes: copy it elsewhere first",
				mbopt.Field("App"), app, mbopt.Field("AppOut"), appOut)
		}
	}
	return dir, out, appOut, nil
}

// abs returns the absolute form of path, or path when there is none.
func abs(path string) string {
	if a, err := filepath.Abs(path); err == nil {
		return a
	}
	return path
}

// within reports whether path is dir or lies below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(abs(dir), abs(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// writesApp reports whether Run writes application profiles.
func (cfg *Config) writesApp() bool {
	return cfg.AppURL != "" || cfg.AppCommand != "" || len(cfg.AppWorkloads) > 0
}

// Run gets the application profiles, collects the benchmark profiles into
// Collect.Out and analyses them. A bad setting or application source is an
// error matching mbopt.ErrInput (so is AppOut locked by another Run); a
// collection without the profiles the analysis needs is a
// *collect.CollectionError; errors of the collection itself are returned as
// Collector returned them; when ctx ends, Run returns an error matching
// ctx.Err().
func Run(ctx context.Context, cfg Config) (*Result, error) {
	dir, out, appOut, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	logf := cfg.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	state := newStateDir(dir)
	defer state.ignore()

	res := &Result{}
	ac := cfg.Config
	if cfg.writesApp() {
		if err := os.MkdirAll(appOut, 0o755); err != nil {
			return nil, mbopt.Errorf("%s: %w", mbopt.Field("AppOut"), err)
		}
		state.ignore()
		unlock, err := dirlock.Lock(appOut)
		var le *dirlock.LockedError
		switch {
		case errors.As(err, &le):
			return nil, mbopt.Errorf("%s: %w: another mbopt run is taking its application profiles there; wait for it to finish", mbopt.Field("AppOut"), err)
		case err != nil:
			return nil, mbopt.Errorf("%s: %w", mbopt.Field("AppOut"), err)
		}
		defer unlock()
	}
	runs, err := cfg.appProfiles(ctx, dir, appOut, logf, &ac, res)
	if err != nil {
		return nil, err
	}

	collector := cfg.Collector
	if collector == nil {
		collector = collect.Collect
	}
	cc := cfg.Collect
	cc.Dir, cc.Out = dir, out
	// The collection creates Out once its own checks pass; its first
	// event comes after that.
	progress := cc.Progress
	cc.Progress = func(ev collect.Event) {
		state.ignore()
		if progress != nil {
			progress(ev)
		}
	}
	m, err := collector(ctx, cc)
	state.ignore()
	if err != nil {
		return nil, err
	}
	res.Manifest = m
	if err := collect.Succeeded(m, out, cfg.Strict); err != nil {
		return nil, err
	}

	ac.Micro = []string{out}
	if ac.Dir == "" {
		ac.Dir = dir
	}
	rep, err := analysis.Run(ctx, ac)
	if err != nil {
		return nil, err
	}
	res.Report = rep
	res.Analysis = ac
	res.Analysis.Modules = rep.Modules
	if len(runs) > 1 {
		// The analysis read these files already, so they are valid.
		if res.AppRuns, err = CompareRuns(runs, rep.Modules, cfg.Limits); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// stateDir writes StateDir/.gitignore when this run created StateDir.
type stateDir struct {
	path    string
	existed bool
	mu      sync.Mutex
	done    bool
}

func newStateDir(dir string) *stateDir {
	path := filepath.Join(dir, StateDir)
	_, err := os.Lstat(path)
	return &stateDir{path: path, existed: err == nil}
}

// ignore writes path/.gitignore ("*": ignore everything, this file too)
// once, when path exists now but did not when Run began. A failure to
// write it costs nothing but a dirty git status, so it is not an error.
func (s *stateDir) ignore() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.existed || s.done {
		return
	}
	if fi, err := os.Stat(s.path); err != nil || !fi.IsDir() {
		return
	}
	s.done = true
	statedir.Ignore(s.path)
}

// appProfiles takes the application profiles: App, then those from the
// other sources, in the order of the Config fields. It sets ac.App and
// ac.Scenarios, records what it wrote in res.Taken and returns the
// AppCommand workload's profiles, one per run.
func (cfg *Config) appProfiles(ctx context.Context, dir, appOut string, logf func(string, ...any), ac *analysis.Config, res *Result) (runs []string, err error) {
	ac.App = append([]string(nil), cfg.App...)
	ac.Scenarios = append([]analysis.ScenarioSpec(nil), cfg.Scenarios...)
	for i := range ac.Scenarios {
		ac.Scenarios[i].Files = append([]string(nil), ac.Scenarios[i].Files...)
	}
	if cfg.AppPGO {
		pgo, err := reference.FindPGO(dir)
		if err != nil {
			return nil, mbopt.Errorf("%s: %w; give the application profile with %s, %s or %s instead",
				mbopt.Field("AppPGO"), err, mbopt.Field("App"), mbopt.Field("AppURL"), mbopt.Field("AppCommand"))
		}
		logf("application profile from %s", textutil.Plural(len(pgo), "default.pgo file"))
		ac.App = append(ac.App, pgo...)
	}
	if cfg.AppURL != "" {
		seconds := cfg.AppSeconds
		if seconds == 0 {
			seconds = DefaultAppSeconds
		}
		path := filepath.Join(appOut, "url.pprof")
		logf("capturing %ds of CPU profile from %s", seconds, cfg.AppURL)
		if err := reference.Capture(ctx, cfg.AppURL, seconds, path); err != nil {
			return nil, sourceError(ctx, "AppURL", err)
		}
		ac.App = append(ac.App, path)
		res.Taken = append(res.Taken, AppProfile{Source: "AppURL", File: path})
	}
	if cfg.AppCommand != "" {
		n := max(cfg.AppRuns, 1)
		for run := 1; run <= n; run++ {
			name, what := "cmd", "the workload"
			if n > 1 {
				name, what = fmt.Sprintf("cmd-%d", run), fmt.Sprintf("the workload, run %d of %d", run, n)
			}
			p, err := cfg.workload(ctx, dir, appOut, name, what, cfg.AppCommand, logf, fmt.Sprintf("MBOPT_APP_RUN=%d", run))
			if err != nil {
				return nil, sourceError(ctx, "AppCommand", err)
			}
			p.Source = "AppCommand"
			ac.App = append(ac.App, p.File)
			res.Taken = append(res.Taken, p)
			runs = append(runs, p.File)
		}
	}
	for _, w := range cfg.AppWorkloads {
		p, err := cfg.workload(ctx, dir, appOut, w.Name, "workload "+w.Name, w.Command, logf)
		if err != nil {
			return nil, sourceError(ctx, "AppWorkloads", fmt.Errorf("scenario %s: %w", w.Name, err))
		}
		p.Source, p.Scenario = "AppWorkloads", w.Name
		ac.App = append(ac.App, p.File)
		res.Taken = append(res.Taken, p)
		added := false
		for i := range ac.Scenarios {
			if ac.Scenarios[i].Name == w.Name {
				ac.Scenarios[i].Files = append(ac.Scenarios[i].Files, p.File)
				added = true
			}
		}
		if !added {
			ac.Scenarios = append(ac.Scenarios, analysis.ScenarioSpec{Name: w.Name, Files: []string{p.File}, Weight: w.Weight, Weighted: w.Weighted})
		}
	}
	return runs, nil
}

// maxLogLines bounds the workload output quoted in an error.
const maxLogLines = 10

// workload runs command with the extra environment env, writing its
// profile to appOut/name.pprof and its output to appOut/name.log (kept
// whatever happens); what names it in the log lines. A failure quotes the
// last lines of the output and names the log.
func (cfg *Config) workload(ctx context.Context, dir, appOut, name, what, command string, logf func(string, ...any), env ...string) (AppProfile, error) {
	timeout := cfg.AppTimeout
	if timeout == 0 {
		timeout = DefaultAppTimeout
	}
	p := AppProfile{File: filepath.Join(appOut, name+".pprof"), Log: filepath.Join(appOut, name+".log")}
	log, err := atomicfile.Create(p.Log)
	if err != nil {
		return p, err
	}
	defer log.Cleanup()
	var output bytes.Buffer
	fmt.Fprintf(&output, "$ %s\n", command)
	logf("running %s: %s (output in %s)", what, command, p.Log)
	start := time.Now()
	runErr := reference.Run(ctx, command, dir, p.File, timeout, &output, env...)
	_, werr := log.Write(output.Bytes())
	if cerr := log.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = log.Commit()
	}
	if runErr != nil {
		if werr != nil {
			return p, runErr
		}
		return p, fmt.Errorf("%w; its output is in %s%s", runErr, p.Log, lastLines(output.Bytes(), maxLogLines))
	}
	if werr != nil {
		return p, werr
	}
	logf("workload done in %s", time.Since(start).Round(100*time.Millisecond))
	return p, nil
}

// lastLines returns up to n last lines of output (after its "$ command"
// line), each on a new line and indented, or "" when there are none.
func lastLines(output []byte, n int) string {
	_, body, _ := bytes.Cut(output, []byte("\n"))
	lines := strings.Split(strings.TrimRight(string(body), "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return ""
	}
	var b strings.Builder
	if len(lines) > n {
		fmt.Fprintf(&b, ", ending:\n    ...")
		lines = lines[len(lines)-n:]
	} else {
		b.WriteString(":")
	}
	for _, l := range lines {
		b.WriteString("\n    " + l)
	}
	return b.String()
}

// sourceError classifies the failure of an application source: the end of
// ctx is not the input's fault.
func sourceError(ctx context.Context, field mbopt.Field, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %w", ctx.Err(), err)
	}
	return mbopt.Errorf("%s: %w", field, err)
}
