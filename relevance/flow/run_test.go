package flow_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/callgraph"
	"github.com/mbopt/mbopt/relevance/analysis"
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/flow"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/testkit/proftest"
)

// fixture is a module directory with the Figure 6.2 application profile
// (app.pprof and cmd/app/default.pgo) and a Collector that "profiles" the
// fixture's two benchmarks (and a failing third) without running go test.
type fixture struct {
	dir, app string
	got      collect.Config // what the Collector was given
}

func newFixture(t *testing.T) *fixture {
	app, _, _ := proftest.Figure62()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+proftest.Figure62Module+"\n"), 0o644))
	f := &fixture{dir: dir, app: filepath.Join(dir, "app.pprof")}
	proftest.WriteFile(t, f.app, app)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "cmd", "app"), 0o755))
	proftest.WriteFile(t, filepath.Join(dir, "cmd", "app", "default.pgo"), app)
	return f
}

// collector returns the fake Collector; with ok false every benchmark
// fails.
func (f *fixture) collector(t *testing.T, ok bool) func(context.Context, collect.Config) (*manifest.Manifest, error) {
	return func(ctx context.Context, cfg collect.Config) (*manifest.Manifest, error) {
		f.got = cfg
		if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
			return nil, err
		}
		_, b1, b2 := proftest.Figure62()
		m := &manifest.Manifest{Module: proftest.Figure62Module}
		for i, b := range []*profile.Profile{b1, b2} {
			name := []string{"BenchmarkOne", "BenchmarkTwo"}[i]
			e := manifest.Entry{ID: proftest.Figure62Module + "/app." + name, Package: proftest.Figure62Module + "/app", Dir: "app", Name: name, Status: manifest.StatusFailed, Error: "boom"}
			if ok {
				e.Status, e.Error, e.Profile = manifest.StatusOK, "", name+".pprof"
				proftest.WriteFile(t, filepath.Join(cfg.Out, e.Profile), b)
			}
			m.Benchmarks = append(m.Benchmarks, e)
		}
		m.Benchmarks = append(m.Benchmarks, manifest.Entry{ID: proftest.Figure62Module + "/app.BenchmarkBad", Package: proftest.Figure62Module + "/app",
			Dir: "app", Name: "BenchmarkBad", Status: manifest.StatusFailed, Error: "panic: boom"})
		return m, m.Write(cfg.Out)
	}
}

// configured makes a fixture and the Config cfg returns for it, run in the
// fixture's directory and with its succeeding Collector unless cfg sets
// them.
func configured(t *testing.T, cfg func(f *fixture) flow.Config) (*fixture, flow.Config) {
	f := newFixture(t)
	c := cfg(f)
	if c.Collect.Dir == "" {
		c.Collect.Dir = f.dir
	}
	if c.Collector == nil {
		c.Collector = f.collector(t, true)
	}
	return f, c
}

func TestRunSources(t *testing.T) {
	tests := []struct {
		name string
		cfg  func(f *fixture) flow.Config
		apps func(f *fixture, out string) []string
	}{
		{"file", func(f *fixture) flow.Config {
			return flow.Config{Config: analysis.Config{App: []string{f.app}}}
		}, func(f *fixture, out string) []string { return []string{f.app} }},
		{"default.pgo", func(f *fixture) flow.Config {
			return flow.Config{AppPGO: true}
		}, func(f *fixture, out string) []string {
			return []string{filepath.Join(f.dir, "cmd", "app", "default.pgo")}
		}},
		{"workload command", func(f *fixture) flow.Config {
			return flow.Config{AppCommand: "cp app.pprof {profile}"}
		}, func(f *fixture, out string) []string {
			return []string{filepath.Join(f.dir, ".mbopt", "app", "cmd.pprof")}
		}},
		{"all merged, in field order", func(f *fixture) flow.Config {
			return flow.Config{Config: analysis.Config{App: []string{f.app}}, AppPGO: true, AppCommand: "cp app.pprof {profile}"}
		}, func(f *fixture, out string) []string {
			return []string{f.app, filepath.Join(f.dir, "cmd", "app", "default.pgo"), filepath.Join(f.dir, ".mbopt", "app", "cmd.pprof")}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, cfg := configured(t, tt.cfg)
			var log []string
			cfg.Logf = func(format string, args ...any) { log = append(log, format) }
			res, err := flow.Run(context.Background(), cfg)
			require.NoError(t, err)
			out := filepath.Join(f.dir, ".mbopt", "profiles")
			assert.Equal(t, out, f.got.Out, "Out defaults to DIR/.mbopt/profiles")
			assert.Equal(t, f.dir, f.got.Dir)
			assert.Equal(t, tt.apps(f, out), res.Report.AppProfiles)
			assert.Equal(t, []string{proftest.Figure62Module}, res.Report.Modules, "the manifest's module")
			assert.Len(t, res.Report.Coverage.Sets, 2)
			assert.Equal(t, 3, len(res.Manifest.Benchmarks))
			require.Len(t, res.Report.Skipped, 1, "the failed benchmark")
			assert.Equal(t, proftest.Figure62Module+"/app.BenchmarkBad", res.Report.Skipped[0].ID)
			if cfg.AppCommand != "" {
				assert.Contains(t, log, "running %s: %s (output in %s)")
			}
		})
	}
}

func TestRunErrors(t *testing.T) {
	tests := []struct {
		name   string
		cfg    func(f *fixture) flow.Config
		fields []mbopt.Field // of an mbopt.Error; nil for another error
		want   string
	}{
		{"no source", func(f *fixture) flow.Config { return flow.Config{} },
			[]mbopt.Field{"App", "AppURL", "AppPGO", "AppCommand", "AppWorkloads"}, "no application profile: give Config.App, Config.AppURL, Config.AppPGO, Config.AppCommand or Config.AppWorkloads"},
		{"micro given", func(f *fixture) flow.Config {
			return flow.Config{Config: analysis.Config{App: []string{f.app}, Micro: []string{"x"}}}
		}, []mbopt.Field{"Micro"}, "Config.Micro must be empty"},
		{"not a directory", func(f *fixture) flow.Config {
			c := flow.Config{Config: analysis.Config{App: []string{f.app}}}
			c.Collect.Dir = f.app
			return c
		}, []mbopt.Field{"Collect.Dir"}, "app.pprof: not a directory (Config.Collect.Dir is the module's directory)"},
		{"negative seconds", func(f *fixture) flow.Config {
			return flow.Config{AppURL: "http://localhost:1", AppSeconds: -1}
		}, []mbopt.Field{"AppSeconds"}, "Config.AppSeconds must be positive, not -1"},
		{"no default.pgo", func(f *fixture) flow.Config {
			require.NoError(t, os.RemoveAll(filepath.Join(f.dir, "cmd")))
			return flow.Config{AppPGO: true}
		}, []mbopt.Field{"AppPGO", "App", "AppURL", "AppCommand"}, "no default.pgo below"},
		{"negative runs", func(f *fixture) flow.Config {
			return flow.Config{AppCommand: "cp app.pprof {profile}", AppRuns: -1}
		}, []mbopt.Field{"AppRuns"}, "Config.AppRuns must be positive, not -1"},
		{"negative timeout", func(f *fixture) flow.Config {
			return flow.Config{AppCommand: "cp app.pprof {profile}", AppTimeout: -1}
		}, []mbopt.Field{"AppTimeout"}, "Config.AppTimeout must be positive, not -1ns"},
		{"runs without a workload", func(f *fixture) flow.Config {
			return flow.Config{Config: analysis.Config{App: []string{f.app}}, AppRuns: 2}
		}, []mbopt.Field{"AppRuns", "AppCommand"}, "Config.AppRuns repeats the workload of Config.AppCommand, which is not set"},
		{"workload fails", func(f *fixture) flow.Config {
			return flow.Config{AppCommand: "exit 3 # {profile}"}
		}, []mbopt.Field{"AppCommand"}, "exit status 3"},
		{"nothing profiled", func(f *fixture) flow.Config {
			return flow.Config{Config: analysis.Config{App: []string{f.app}}, Collector: f.collector(t, false)}
		}, nil, "no benchmark was profiled (logs in "},
		{"strict", func(f *fixture) flow.Config {
			return flow.Config{Config: analysis.Config{App: []string{f.app}, Strict: true}}
		}, nil, "Config.Strict: 1 of 3 benchmarks did not succeed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, cfg := configured(t, tt.cfg)
			_, err := flow.Run(context.Background(), cfg)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			var fe *mbopt.Error
			if tt.fields == nil {
				var ce *collect.CollectionError
				assert.ErrorAs(t, err, &ce)
				assert.False(t, errors.Is(err, mbopt.ErrInput), "the collection's failure is not bad input")
				return
			}
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, tt.fields, fe.Fields())
			assert.ErrorIs(t, err, mbopt.ErrInput)
			flags := fe.Text(func(f mbopt.Field) string { return "--" + strings.ToLower(string(f)) })
			assert.NotContains(t, flags, "Config.", "a front end names every field its way")
		})
	}
}

func TestRunCanceled(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := flow.Run(ctx, flow.Config{AppCommand: "sleep 5; cp app.pprof {profile}", Collect: collect.Config{Dir: f.dir}})
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
	assert.False(t, errors.Is(err, mbopt.ErrInput), "an interrupted workload is not bad input")
}

// The committed example has three application profiles of one workload
// (app-ingest, app-query and the mixed app); a fake workload copies one by
// its run number, so three runs see different functions.
func TestRunAppRuns(t *testing.T) {
	f := newFixture(t)
	example, err := filepath.Abs("../../testdata/profiles/example")
	require.NoError(t, err)
	names := []string{"app-ingest", "app-query", "app"}
	workload := `case "$MBOPT_APP_RUN" in 1) f=app-ingest;; 2) f=app-query;; *) f=app;; esac; cp "` + example + `/$f.pprof" {profile}`
	var log []string
	res, err := flow.Run(context.Background(), flow.Config{
		Config:     analysis.Config{Modules: []string{"example.com/tinytsdb"}},
		Collect:    collect.Config{Dir: f.dir},
		Collector:  f.collector(t, true),
		AppCommand: workload, AppRuns: 3,
		Logf: func(format string, args ...any) { log = append(log, fmt.Sprintf(format, args...)) },
	})
	require.NoError(t, err)
	appDir := filepath.Join(f.dir, ".mbopt", "app")
	runs := []string{filepath.Join(appDir, "cmd-1.pprof"), filepath.Join(appDir, "cmd-2.pprof"), filepath.Join(appDir, "cmd-3.pprof")}
	assert.Equal(t, runs, res.Report.AppProfiles, "the runs are merged")
	assert.Contains(t, log, "running the workload, run 2 of 3: "+workload+" (output in "+filepath.Join(appDir, "cmd-2.log")+")")
	for i, run := range runs {
		got, err := os.ReadFile(run)
		require.NoError(t, err)
		want, err := os.ReadFile(filepath.Join(example, names[i]+".pprof"))
		require.NoError(t, err)
		assert.Equal(t, want, got, "run %d got its profile", i+1)
	}

	// The figures, counted here from the three committed profiles.
	seen := map[string]int{}
	project := map[string]bool{}
	var perRun []int
	for _, n := range names {
		g, err := callgraph.Load([]string{filepath.Join(example, n+".pprof")}, callgraph.Options{Modules: []string{"example.com/tinytsdb"}})
		require.NoError(t, err)
		perRun = append(perRun, g.Len())
		for _, node := range g.Nodes {
			seen[node.Name]++
			project[node.Name] = node.Project
		}
	}
	every, projectSeen, projectEvery := 0, 0, 0
	for name, k := range seen {
		if k == 3 {
			every++
		}
		if project[name] {
			projectSeen++
			if k == 3 {
				projectEvery++
			}
		}
	}
	s := res.AppRuns
	require.NotNil(t, s)
	assert.Equal(t, runs, s.Files)
	assert.Equal(t, perRun, s.PerRun)
	assert.Equal(t, len(seen), s.Seen)
	assert.Equal(t, every, s.Every)
	assert.Equal(t, projectSeen, s.ProjectSeen)
	assert.Equal(t, projectEvery, s.ProjectEvery)
	assert.Positive(t, s.Some(), "ingest and query see different functions")
	assert.Equal(t, res.Report.Coverage.App.Len(), s.Seen, "the merged application has every function any run saw")
	t.Logf("3 runs: %d functions seen, %d in every run, %d in only some; project %d, %d, %d",
		s.Seen, s.Every, s.Some(), s.ProjectSeen, s.ProjectEvery, s.ProjectSome())
}

// Hand-checked: main.main and a in every run, b and c in one each.
func TestCompareRuns(t *testing.T) {
	dir := t.TempDir()
	const m = "example.com/m"
	var files []string
	for i, leaves := range [][]string{{"a", "b"}, {"a"}, {"a", "c"}} {
		var stacks []proftest.Stack
		for _, l := range leaves {
			stacks = append(stacks, proftest.Stack{Frames: []string{"main.main", m + "." + l}, Nanos: 1e7})
		}
		path := filepath.Join(dir, fmt.Sprintf("run%d.pprof", i+1))
		proftest.WriteFile(t, path, proftest.Profile(stacks...))
		files = append(files, path)
	}
	s, err := flow.CompareRuns(files, []string{m}, callgraph.Limits{})
	require.NoError(t, err)
	assert.Equal(t, &flow.RunStability{
		Files: files, Seen: 4, Every: 2, ProjectSeen: 3, ProjectEvery: 1,
		PerRun: []int{3, 2, 3}, ProjectPerRun: []int{2, 1, 2},
	}, s)
	assert.Equal(t, 2, s.Some())
	assert.Equal(t, 2, s.ProjectSome())

	_, err = flow.CompareRuns([]string{filepath.Join(dir, "missing.pprof")}, nil, callgraph.Limits{})
	assert.ErrorContains(t, err, "missing.pprof")
}

// TestRunFiles: the profiles Run takes go to DIR/.mbopt/app, beside (not
// inside) the benchmark profiles, with the workload's output in a log;
// .mbopt/.gitignore is written because Run created .mbopt; and
// Result.Analysis repeats the analysis from the saved files.
func TestRunFiles(t *testing.T) {
	f := newFixture(t)
	res, err := flow.Run(context.Background(), flow.Config{
		Collect:    collect.Config{Dir: f.dir},
		AppCommand: "echo workload-says-hello; echo to-stderr >&2; cp app.pprof {profile}",
		Collector:  f.collector(t, true),
	})
	require.NoError(t, err)
	appDir := filepath.Join(f.dir, ".mbopt", "app")
	want := flow.AppProfile{Source: "AppCommand", File: filepath.Join(appDir, "cmd.pprof"), Log: filepath.Join(appDir, "cmd.log")}
	assert.Equal(t, []flow.AppProfile{want}, res.Taken)
	assert.FileExists(t, want.File)
	log, err := os.ReadFile(want.Log)
	require.NoError(t, err)
	assert.Equal(t, "$ echo workload-says-hello; echo to-stderr >&2; cp app.pprof {profile}\nworkload-says-hello\nto-stderr\n", string(log))

	out := filepath.Join(f.dir, ".mbopt", "profiles")
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	for _, e := range entries {
		assert.NotContains(t, e.Name(), "cmd", "no application profile among the benchmark profiles")
	}
	gi, err := os.ReadFile(filepath.Join(f.dir, ".mbopt", ".gitignore"))
	require.NoError(t, err)
	assert.Equal(t, "*\n", string(gi))

	assert.Equal(t, []string{want.File}, res.Analysis.App)
	assert.Equal(t, []string{out}, res.Analysis.Micro)
	assert.Equal(t, res.Report.Modules, res.Analysis.Modules)
	again, err := analysis.Run(context.Background(), res.Analysis)
	require.NoError(t, err)
	assert.Equal(t, res.Report.Suite, again.Suite, "the saved files give the same suite")
	assert.Equal(t, res.Report.Coverage.Project, again.Coverage.Project)

	// A second run into the existing .mbopt keeps whatever .gitignore the
	// user left there (here: none).
	require.NoError(t, os.Remove(filepath.Join(f.dir, ".mbopt", ".gitignore")))
	_, err = flow.Run(context.Background(), flow.Config{
		Collect: collect.Config{Dir: f.dir}, AppCommand: "cp app.pprof {profile}", Collector: f.collector(t, true),
	})
	require.NoError(t, err)
	assert.NoFileExists(t, filepath.Join(f.dir, ".mbopt", ".gitignore"), "Run did not create .mbopt this time")
}

// TestRunWorkloads: each named workload's profile is a scenario, merged
// with an App scenario of the same name.
func TestRunWorkloads(t *testing.T) {
	f := newFixture(t)
	_, b1, _ := proftest.Figure62()
	other := filepath.Join(f.dir, "other.pprof")
	proftest.WriteFile(t, other, b1)
	res, err := flow.Run(context.Background(), flow.Config{
		Config: analysis.Config{App: []string{f.app}, Scenarios: []analysis.ScenarioSpec{{Name: "read", Files: []string{f.app}}}},
		AppWorkloads: []flow.Workload{
			{Name: "write", Command: "cp other.pprof {profile}", Weight: 2, Weighted: true},
			{Name: "read", Command: "cp app.pprof {profile}"},
		},
		Collect:   collect.Config{Dir: f.dir},
		Collector: f.collector(t, true),
	})
	require.NoError(t, err)
	appDir := filepath.Join(f.dir, ".mbopt", "app")
	write1, read1 := filepath.Join(appDir, "write.pprof"), filepath.Join(appDir, "read.pprof")
	assert.Equal(t, []string{f.app, write1, read1}, res.Report.AppProfiles)
	assert.Equal(t, []analysis.ScenarioSpec{
		{Name: "read", Files: []string{f.app, read1}},
		{Name: "write", Files: []string{write1}, Weight: 2, Weighted: true},
	}, res.Analysis.Scenarios)
	require.NotNil(t, res.Report.Scenarios)
	assert.Equal(t, []string{"read", "write"}, res.Report.Scenarios.Names)
	assert.Equal(t, []float64{1, 2}, res.Report.Scenarios.Weights)
	require.Len(t, res.Taken, 2)
	assert.Equal(t, flow.AppProfile{Source: "AppWorkloads", Scenario: "write", File: write1, Log: filepath.Join(appDir, "write.log")}, res.Taken[0])
}

// TestRunValidates: a bad Config is refused before anything is created or
// run.
func TestRunValidates(t *testing.T) {
	const marker = "touch ran; cp app.pprof {profile}"
	tests := []struct {
		name   string
		cfg    func(f *fixture) flow.Config
		fields []mbopt.Field
		want   string
	}{
		{"workload and unnamed sources", func(f *fixture) flow.Config {
			return flow.Config{Config: analysis.Config{App: []string{f.app}}, AppPGO: true, AppCommand: marker,
				AppWorkloads: []flow.Workload{{Name: "a", Command: marker}}}
		}, []mbopt.Field{"App", "AppPGO", "AppCommand"}, "the application profiles are named scenarios, but Config.App, Config.AppPGO, Config.AppCommand would add unnamed ones"},
		{"scenarios and a capture", func(f *fixture) flow.Config {
			return flow.Config{Config: analysis.Config{App: []string{f.app}, Scenarios: []analysis.ScenarioSpec{{Name: "a", Files: []string{f.app}}}}, AppURL: "http://127.0.0.1:1"}
		}, []mbopt.Field{"AppURL"}, "would add unnamed ones"},
		{"bad name", func(f *fixture) flow.Config {
			return flow.Config{AppWorkloads: []flow.Workload{{Name: "a b", Command: marker}}}
		}, []mbopt.Field{"AppWorkloads"}, `Config.AppWorkloads[0].Name "a b": a scenario name is`},
		{"duplicate name", func(f *fixture) flow.Config {
			return flow.Config{AppWorkloads: []flow.Workload{{Name: "a", Command: marker}, {Name: "a", Command: marker}}}
		}, []mbopt.Field{"AppWorkloads"}, `two workloads are named "a"`},
		{"no placeholder", func(f *fixture) flow.Config {
			return flow.Config{AppWorkloads: []flow.Workload{{Name: "a", Command: marker}, {Name: "b", Command: "touch ran"}}}
		}, []mbopt.Field{"AppWorkloads"}, `Config.AppWorkloads[1] (b) "touch ran": it must contain {profile}`},
		{"no placeholder, plain", func(f *fixture) flow.Config {
			return flow.Config{AppCommand: "touch ran"}
		}, []mbopt.Field{"AppCommand"}, `Config.AppCommand "touch ran": it must contain {profile}`},
		{"app inside out", func(f *fixture) flow.Config {
			return flow.Config{AppCommand: marker, AppOut: filepath.Join(f.dir, "p", "app"), Collect: collect.Config{Out: filepath.Join(f.dir, "p")}}
		}, []mbopt.Field{"AppOut", "Collect.Out"}, "overlap: the application profiles go beside the benchmark profiles, not inside"},
		{"same directory", func(f *fixture) flow.Config {
			return flow.Config{AppCommand: marker, AppOut: filepath.Join(f.dir, "p"), Collect: collect.Config{Out: filepath.Join(f.dir, "p") + "/"}}
		}, []mbopt.Field{"AppOut", "Collect.Out"}, "overlap"},
		{"App file in AppOut", func(f *fixture) flow.Config {
			return flow.Config{Config: analysis.Config{App: []string{f.app}}, AppCommand: marker, AppOut: f.dir, Collect: collect.Config{Out: filepath.Join(f.dir, "..", "elsewhere")}}
		}, []mbopt.Field{"App", "AppOut"}, "where Run writes the profiles it takes"},
		{"a bad collection setting", func(f *fixture) flow.Config {
			return flow.Config{AppCommand: marker, Collect: collect.Config{BenchTime: "fast"}}
		}, nil, `invalid value "fast"`}, // the error's Field is BenchTime
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, cfg := configured(t, tt.cfg)
			_, err := flow.Run(context.Background(), cfg)
			require.Error(t, err)
			assert.ErrorContains(t, err, tt.want)
			var fe *mbopt.Error
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, tt.fields, fe.Fields())
			assert.NoDirExists(t, filepath.Join(f.dir, ".mbopt"), "nothing created")
			assert.NoDirExists(t, filepath.Join(f.dir, "p"), "nothing created")
			assert.NoFileExists(t, filepath.Join(f.dir, "ran"), "no workload ran")
		})
	}
}

// TestRunLocked: a second Run on a module whose application profiles
// directory is in use fails at once, before its workload runs.
func TestRunLocked(t *testing.T) {
	f := newFixture(t)
	appDir := filepath.Join(f.dir, ".mbopt", "app")
	require.NoError(t, os.MkdirAll(appDir, 0o755))
	// Another Run holds the lock while its workload runs.
	started, release := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() {
		_, err := flow.Run(context.Background(), flow.Config{
			Collect: collect.Config{Dir: f.dir}, AppCommand: "cp app.pprof {profile}",
			Collector: func(ctx context.Context, cfg collect.Config) (*manifest.Manifest, error) {
				close(started)
				<-release
				return f.collector(t, true)(ctx, cfg)
			},
		})
		first <- err
	}()
	<-started
	_, err := flow.Run(context.Background(), flow.Config{
		Collect: collect.Config{Dir: f.dir}, AppCommand: "touch ran; cp app.pprof {profile}", Collector: f.collector(t, true),
	})
	close(release)
	require.Error(t, err)
	assert.ErrorIs(t, err, mbopt.ErrInput)
	assert.ErrorContains(t, err, filepath.Join(appDir, ".mbopt.lock")+" is locked by another mbopt (pid ")
	assert.ErrorContains(t, err, "wait for it to finish")
	assert.NoFileExists(t, filepath.Join(f.dir, "ran"), "the second workload did not run")
	require.NoError(t, <-first)
}

// TestRunWorkloadFails: the error of a failing workload names its log and
// quotes the end of its output.
func TestRunWorkloadFails(t *testing.T) {
	f := newFixture(t)
	_, err := flow.Run(context.Background(), flow.Config{
		Collect: collect.Config{Dir: f.dir}, Collector: f.collector(t, true),
		AppCommand: "for i in $(seq 1 12); do echo line$i; done; echo 'bad flag -x' >&2; exit 2 # {profile}",
	})
	require.Error(t, err)
	log := filepath.Join(f.dir, ".mbopt", "app", "cmd.log")
	assert.ErrorContains(t, err, "exit status 2; its output is in "+log+", ending:\n    ...\n    line4\n")
	assert.True(t, strings.HasSuffix(err.Error(), "\n    line12\n    bad flag -x"), "%q", err)
	data, rerr := os.ReadFile(log)
	require.NoError(t, rerr)
	assert.Contains(t, string(data), "line1\n")
}
