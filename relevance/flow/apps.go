package flow

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/atomicfile"
	"github.com/mbopt/mbopt/internal/textutil"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/reference"
)

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
				FieldAppPGO, err, analysis.FieldApp, FieldAppURL, FieldAppCommand)
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
