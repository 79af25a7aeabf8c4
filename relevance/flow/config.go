package flow

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/statedir"
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
}

// The fields of a [Config] that input errors name, besides those of
// analysis.Config.
const (
	FieldAppCommand   mbopt.Field = "AppCommand"
	FieldAppOut       mbopt.Field = "AppOut"
	FieldAppPGO       mbopt.Field = "AppPGO"
	FieldAppRuns      mbopt.Field = "AppRuns"
	FieldAppSeconds   mbopt.Field = "AppSeconds"
	FieldAppTimeout   mbopt.Field = "AppTimeout"
	FieldAppURL       mbopt.Field = "AppURL"
	FieldAppWorkloads mbopt.Field = "AppWorkloads"
	FieldCollectDir   mbopt.Field = "Collect.Dir"
	FieldCollectOut   mbopt.Field = "Collect.Out"
)

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

// Check checks cfg as [Run] does before it runs anything, the
// collection's settings included: an [*mbopt.Error] naming the first
// setting no run can use. It creates nothing.
func (cfg Config) Check() error {
	_, _, _, err := cfg.validate()
	return err
}

// validate checks cfg and returns the module directory, the output
// directory and the application profiles' directory. It creates nothing.
func (cfg *Config) validate() (dir, out, appOut string, err error) {
	dir = cfg.Collect.Dir
	if dir == "" {
		dir = "."
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", "", "", mbopt.Errorf("%s: not a directory (%s is the module's directory)", dir, FieldCollectDir)
	}
	if len(cfg.Micro) > 0 {
		return "", "", "", mbopt.Errorf("%s must be empty: the pipeline profiles the benchmarks itself; analyse existing profiles with package analysis (mbopt analyze)", analysis.FieldMicro)
	}
	if len(cfg.App) == 0 && cfg.AppURL == "" && !cfg.AppPGO && cfg.AppCommand == "" && len(cfg.AppWorkloads) == 0 {
		return "", "", "", mbopt.Errorf("no application profile: give %s, %s, %s, %s or %s",
			analysis.FieldApp, FieldAppURL, FieldAppPGO, FieldAppCommand, FieldAppWorkloads)
	}
	if cfg.AppSeconds < 0 {
		return "", "", "", mbopt.Errorf("%s must be positive, not %d", FieldAppSeconds, cfg.AppSeconds)
	}
	if cfg.AppTimeout < 0 {
		return "", "", "", mbopt.Errorf("%s must be positive, not %v", FieldAppTimeout, cfg.AppTimeout)
	}
	if cfg.AppRuns < 0 {
		return "", "", "", mbopt.Errorf("%s must be positive, not %d", FieldAppRuns, cfg.AppRuns)
	}
	if cfg.AppCommand != "" && !strings.Contains(cfg.AppCommand, reference.Placeholder) {
		return "", "", "", mbopt.Errorf("%s %q: it must contain %s where the CPU profile path goes", FieldAppCommand, cfg.AppCommand, reference.Placeholder)
	}
	names := map[string]bool{}
	for i, w := range cfg.AppWorkloads {
		switch {
		case !analysis.ValidScenarioName(w.Name):
			return "", "", "", mbopt.Errorf("%s[%d].Name %q: a scenario name is a letter or digit followed by letters, digits, '_', '.' and '-'", FieldAppWorkloads, i, w.Name)
		case names[w.Name]:
			return "", "", "", mbopt.Errorf("%s: two workloads are named %q; give each its own scenario name", FieldAppWorkloads, w.Name)
		case !strings.Contains(w.Command, reference.Placeholder):
			return "", "", "", mbopt.Errorf("%s[%d] (%s) %q: it must contain %s where the CPU profile path goes", FieldAppWorkloads, i, w.Name, w.Command, reference.Placeholder)
		}
		names[w.Name] = true
	}
	if len(cfg.AppWorkloads) > 0 || len(cfg.Scenarios) > 0 {
		var unnamed []any
		if len(cfg.App) > 0 && len(cfg.Scenarios) == 0 {
			unnamed = append(unnamed, analysis.FieldApp)
		}
		if cfg.AppURL != "" {
			unnamed = append(unnamed, FieldAppURL)
		}
		if cfg.AppPGO {
			unnamed = append(unnamed, FieldAppPGO)
		}
		if cfg.AppCommand != "" {
			unnamed = append(unnamed, FieldAppCommand)
		}
		if len(unnamed) > 0 {
			return "", "", "", mbopt.Errorf("the application profiles are named scenarios, but "+strings.TrimSuffix(strings.Repeat("%s, ", len(unnamed)), ", ")+
				" would add unnamed ones: give every application profile a scenario name or none", unnamed...)
		}
	}
	if cfg.AppRuns > 1 && cfg.AppCommand == "" {
		return "", "", "", mbopt.Errorf("%s repeats the workload of %s, which is not set", FieldAppRuns, FieldAppCommand)
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
			FieldAppOut, appOut, FieldCollectOut, out)
	}
	for _, app := range cfg.App {
		if filepath.Dir(abs(app)) == abs(appOut) {
			return "", "", "", mbopt.Errorf("%s %s is in %s %s, where Run writes the profiles it takes: copy it elsewhere first",
				analysis.FieldApp, app, FieldAppOut, appOut)
		}
	}
	// The collection's own settings (collect.Config.Check), before any
	// application profile is taken.
	cc := cfg.Collect
	cc.Dir, cc.Out = dir, out
	if err := cc.Check(); err != nil {
		return "", "", "", err
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
