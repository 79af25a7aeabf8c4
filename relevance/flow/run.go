package flow

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/dirlock"
	"github.com/mbopt/mbopt/internal/statedir"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/manifest"
)

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
			return nil, mbopt.Errorf("%s: %w", FieldAppOut, err)
		}
		state.ignore()
		unlock, err := dirlock.Lock(appOut)
		var le *dirlock.LockedError
		switch {
		case errors.As(err, &le):
			return nil, mbopt.Errorf("%s: %w: another mbopt run is taking its application profiles there; wait for it to finish", FieldAppOut, err)
		case err != nil:
			return nil, mbopt.Errorf("%s: %w", FieldAppOut, err)
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
