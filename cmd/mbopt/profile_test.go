package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/cmd/mbopt/internal/cli"
	"github.com/mbopt/mbopt/internal/flagbind"
	"github.com/mbopt/mbopt/relevance/collect"
	"github.com/mbopt/mbopt/relevance/manifest"
	"github.com/mbopt/mbopt/relevance/shard"
	"github.com/mbopt/mbopt/testkit/cmpfixture"
)

// parseProfile runs the profile command's flag parsing and validation and
// returns the options it would run with.
func parseProfile(t *testing.T, args ...string) (*profileOptions, error) {
	t.Helper()
	var got *profileOptions
	s := &streams{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	cmd := profileCmd(s, func(_ context.Context, _ *streams, o *profileOptions) error {
		got = o
		return nil
	})
	cmd.SetArgs(args)
	cmd.SetOut(s.Out)
	cmd.SetErr(s.Err)
	err := cmd.Execute()
	return got, err
}

func TestProfileFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want profileOptions
	}{
		{"defaults", nil, profileOptions{Config: collect.Config{Out: "profiles", Source: "profile", Timeout: collect.DefaultTimeout, DiscoveryTimeout: collect.DefaultDiscoveryTimeout}, sub: true}},
		{"cover", []string{"--source", "cover"}, profileOptions{Config: collect.Config{Out: "profiles", Source: "cover", Timeout: collect.DefaultTimeout, DiscoveryTimeout: collect.DefaultDiscoveryTimeout}, sub: true}},
		{"cover, scope all", []string{"--source", "cover", "--scope", "all"}, profileOptions{Config: collect.Config{Out: "profiles", Source: "cover", Scope: "all", Timeout: collect.DefaultTimeout, DiscoveryTimeout: collect.DefaultDiscoveryTimeout}, sub: true}},
		{"cover, scope timed", []string{"--source", "cover", "--scope", "timed"}, profileOptions{Config: collect.Config{Out: "profiles", Source: "cover", Scope: "timed", Timeout: collect.DefaultTimeout, DiscoveryTimeout: collect.DefaultDiscoveryTimeout}, sub: true}},
		{"cover with benchtime", []string{"--source", "cover", "--benchtime", "3x"}, profileOptions{Config: collect.Config{Out: "profiles", BenchTime: "3x", Source: "cover", Timeout: collect.DefaultTimeout, DiscoveryTimeout: collect.DefaultDiscoveryTimeout}, sub: true}},
		{"everything", []string{"./a/...", "./b", "--out", "o", "--bench", "Encode/n=1", "--benchtime", "100x",
			"--timeout", "90s", "-j", "3", "--sub=false", "--tags", "x,y", "--mod", "vendor", "--force", "--strict", "-C", ".",
			"--skip", "Slow/n=1000", "--retry-failed", "--discovery-timeout", "30s"},
			profileOptions{Config: collect.Config{Patterns: []string{"./a/...", "./b"}, Out: "o", Bench: "Encode/n=1", BenchTime: "100x", Source: "profile",
				Timeout: 90 * time.Second, DiscoveryTimeout: 30 * time.Second, Jobs: 3, Tags: "x,y", Mod: "vendor", Force: true, Dir: ".",
				Skip: "Slow/n=1000", RetryFailed: true}, sub: false, strict: true}},
		{"duration benchtime", []string{"--benchtime", "10s"}, profileOptions{Config: collect.Config{Out: "profiles", BenchTime: "10s", Source: "profile", Timeout: collect.DefaultTimeout, DiscoveryTimeout: collect.DefaultDiscoveryTimeout}, sub: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseProfile(t, tt.args...)
			require.NoError(t, err)
			// The benchtime the collection runs at: the flag's when
			// given, else (BenchTime left zero) the source's default.
			effective, ok := map[string]string{"defaults": "1s", "cover": "10x", "cover, scope all": "1x", "cover, scope timed": "10x"}[tt.name]
			if !ok {
				effective = tt.want.BenchTime
			}
			assert.Equal(t, effective, got.EffectiveBenchTime())
			assert.Equal(t, tt.want, *got)
		})
	}
}

func TestProfileShardFlags(t *testing.T) {
	costs := t.TempDir()
	require.NoError(t, (&manifest.Manifest{Module: "m", Benchmarks: []manifest.Entry{
		{ID: "m.BenchmarkA", Status: manifest.StatusOK, Profile: "a.pprof", WallSeconds: 2}}}).Write(costs))
	for _, tt := range []struct {
		name  string
		args  []string
		env   map[string]string
		want  shard.Spec
		costs map[string]float64
	}{
		{"none", nil, nil, shard.Spec{}, nil},
		{"matrix", []string{"--shard", "1/3"}, nil, shard.Spec{Index: 1, Count: 3}, nil},
		{"indexed job", []string{"--shard", "/3"}, map[string]string{"JOB_COMPLETION_INDEX": "2"}, shard.Spec{Index: 2, Count: 3}, nil},
		{"environment", nil, map[string]string{"MBOPT_SHARD": "0/4"}, shard.Spec{Index: 0, Count: 4}, nil},
		{"costs from a directory", []string{"--shard", "0/2", "--shard-costs", costs}, nil, shard.Spec{Index: 0, Count: 2}, map[string]float64{"m.BenchmarkA": 2}},
		{"costs from a file", []string{"--shard", "0/2", "--shard-costs", filepath.Join(costs, "manifest.json")}, nil, shard.Spec{Index: 0, Count: 2}, map[string]float64{"m.BenchmarkA": 2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("JOB_COMPLETION_INDEX", tt.env["JOB_COMPLETION_INDEX"])
			t.Setenv("MBOPT_SHARD", tt.env["MBOPT_SHARD"])
			got, err := parseProfile(t, tt.args...)
			require.NoError(t, err)
			cfg := got.collectConfig()
			assert.Equal(t, tt.want, cfg.Shard)
			assert.Equal(t, tt.costs, cfg.ShardCosts)
		})
	}
}

func TestProfileFlagErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--bench", "(x"}, "--bench: pattern"},
		{[]string{"--skip", "a/(x"}, "--skip: pattern"},
		{[]string{"--benchtime", "fast"}, `--benchtime: invalid value "fast"`},
		{[]string{"--benchtime", "0x"}, `--benchtime: invalid value "0x"`},
		{[]string{"--benchtime", "-1s"}, `--benchtime: invalid value "-1s"`},
		{[]string{"--timeout", "0s"}, "--timeout must be positive"},
		{[]string{"--discovery-timeout", "0s"}, "--discovery-timeout must be positive"},
		{[]string{"-j", "-2"}, "-j must be 0 (one per CPU) or a positive count, not -2"},
		{[]string{"--mod", "vendored"}, "valid values are {mod|readonly|vendor}"},
		{[]string{"--source", "cover", "--scope", "loop"}, `--scope: unknown scope "loop": valid values are {timed|all}`},
		{[]string{"-C", "does-not-exist"}, "-C does-not-exist: not a directory"},
		{[]string{"--out", ""}, "--out must name a directory"},
		{[]string{"--shard", "3"}, "--shard: shard \"3\": want K/N"},
		{[]string{"--shard", "/3"}, "--shard: shard \"/3\": the index comes from JOB_COMPLETION_INDEX, which is not set"},
		{[]string{"--shard-costs", "x"}, "--shard-costs needs --shard"},
		{[]string{"--shard", "0/2", "--shard-costs", "does-not-exist"}, "--shard-costs: stat does-not-exist"},
	}
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("MBOPT_SHARD", "")
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, err := parseProfile(t, tt.args...)
			require.Error(t, err)
			assert.Contains(t, flagbind.Word(err, nil).Error(), tt.want, "as mbopt prints it")
			var ie *mbopt.Error
			assert.True(t, errors.As(err, &ie), "%v is an input error (exit 2)", err)
		})
	}
}

// fakeCollect returns a collect function that reports a fixed sequence of
// events, advancing *clock by one second before each, and returns m.
func fakeCollect(clock *time.Time, m *manifest.Manifest) func(context.Context, collect.Config) (*manifest.Manifest, error) {
	return func(_ context.Context, cfg collect.Config) (*manifest.Manifest, error) {
		tick := func(ev collect.Event) {
			*clock = clock.Add(time.Second)
			cfg.Progress(ev)
		}
		tick(collect.Event{Kind: collect.EventBuild, Package: "m/a", Done: 1, Total: 2})
		tick(collect.Event{Kind: collect.EventBuild, Package: "m/broken", Err: errors.New("building test binary: x.go:1: oops"), Done: 2, Total: 2})
		tick(collect.Event{Kind: collect.EventDiscover, Package: "m/a", Name: "BenchmarkA", Done: 1, Total: 1})
		n := len(m.Benchmarks)
		done := 0
		for i := range m.Benchmarks {
			e := m.Benchmarks[i]
			if e.Status == manifest.StatusBuildFailed {
				done++
				tick(collect.Event{Kind: collect.EventFinish, Package: e.Package, Name: e.Name, Entry: &e, Done: done, Total: n})
			}
		}
		for i := range m.Benchmarks {
			e := m.Benchmarks[i]
			if e.Status == manifest.StatusBuildFailed {
				continue
			}
			tick(collect.Event{Kind: collect.EventStart, Package: e.Package, Name: e.Name, Done: done, Total: n})
			done++
			tick(collect.Event{Kind: collect.EventFinish, Package: e.Package, Name: e.Name, Entry: &e, Done: done, Total: n})
		}
		return m, nil
	}
}

var fakeManifest = &manifest.Manifest{Benchmarks: []manifest.Entry{
	{ID: "m/a.BenchmarkA/x", Package: "m/a", Name: "BenchmarkA/x", Status: manifest.StatusOK, WallSeconds: 1.25},
	{ID: "m/a.BenchmarkA/y", Package: "m/a", Name: "BenchmarkA/y", Status: manifest.StatusFailed, WallSeconds: 0.5, Error: "panic: boom\n\tat m/a.BenchmarkA"},
	{ID: "m/a.BenchmarkB", Package: "m/a", Name: "BenchmarkB", Status: manifest.StatusTimeout, WallSeconds: 60, Error: "timed out after 1m0s while running BenchmarkB"},
	{ID: "m/broken.BenchmarkC", Package: "m/broken", Name: "BenchmarkC", Status: manifest.StatusBuildFailed, Error: "x.go:1: oops"},
	{ID: "m/broken.BenchmarkD", Package: "m/broken", Name: "BenchmarkD", Status: manifest.StatusBuildFailed, Error: "x.go:1: oops"},
}}

func TestProfileProgressLines(t *testing.T) {
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out, errb bytes.Buffer
	o := &profileOptions{Config: collect.Config{Out: "profiles"}, now: func() time.Time { return clock }, collectRun: fakeCollect(&clock, fakeManifest)}
	err := runProfile(t.Context(), &streams{Out: &out, Err: &errb}, o)
	require.NoError(t, err, "one benchmark succeeded")
	assert.Equal(t, "profiles\n", out.String(), "stdout carries only the output directory")
	assert.Equal(t, `[1/5] build-failed    0.0s  m/broken.BenchmarkC: x.go:1: oops
[2/5] build-failed    0.0s  m/broken.BenchmarkD: x.go:1: oops
[3/5] ok              1.2s  m/a.BenchmarkA/x
[4/5] failed          0.5s  m/a.BenchmarkA/y: panic: boom
[5/5] timeout        60.0s  m/a.BenchmarkB: timed out after 1m0s while running BenchmarkB
profiled 5 benchmarks in 11s: 1 ok, 1 failed, 1 timeout, 2 build-failed
4 did not succeed:
  failed        m/a.BenchmarkA/y: panic: boom
  timeout       m/a.BenchmarkB: timed out after 1m0s while running BenchmarkB
  build-failed  m/broken (2 benchmarks): x.go:1: oops
details: the manifest and logs in profiles
`, errb.String())

	o.strict = true
	clock = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	err = runProfile(t.Context(), &streams{Out: &out, Err: &errb}, o)
	require.Error(t, err)
	assert.Equal(t, "--strict: 4 of 5 benchmarks did not succeed", flagbind.Word(err, nil).Error(), "as mbopt prints it")
}

func TestProfileProgressBar(t *testing.T) {
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out, errb bytes.Buffer
	o := &profileOptions{Config: collect.Config{Out: "p"}, terminal: true, width: 200, now: func() time.Time { return clock }, collectRun: fakeCollect(&clock, fakeManifest)}
	require.NoError(t, runProfile(t.Context(), &streams{Out: &out, Err: &errb}, o))
	got := errb.String()
	assert.Contains(t, got, "\r\033[Kbuilding test binaries 2/2")
	assert.Contains(t, got, "\r\033[K[=========               ] 2/5  ok 0  failed 2  ETA --  m/a.BenchmarkA/x")
	// Three benchmarks ran in 2s each after the first start: 2s per
	// benchmark, one left after the fourth.
	assert.Contains(t, got, "\r\033[K[===================     ] 4/5  ok 1  failed 3  ETA 2s  m/a.BenchmarkA/y")
	assert.NotContains(t, got, "] ok ", "successes are not logged on a terminal")
	assert.Contains(t, got, "\r\033[K[2/5] build-failed")
	assert.True(t, strings.HasSuffix(got, "details: the manifest and logs in p\n"), "the bar is cleared before the summary:\n%q", got)
}

func TestProfileNothingSucceeded(t *testing.T) {
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m := &manifest.Manifest{Benchmarks: fakeManifest.Benchmarks[1:]}
	var out, errb bytes.Buffer
	o := &profileOptions{Config: collect.Config{Out: "p"}, now: func() time.Time { return clock }, collectRun: fakeCollect(&clock, m)}
	err := runProfile(t.Context(), &streams{Out: &out, Err: &errb}, o)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no benchmark was profiled")
}

// TestProfileCommandFaults runs `mbopt profile` on the faults fixture module.
func TestProfileCommandFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs testdata/faults")
	}
	t.Setenv("CI", "true")
	out := filepath.Join(t.TempDir(), "prof")
	code, stdout, stderr := run(t, "profile", "-C", "../../testdata/faults", "./healthy", "./panics", "./broken",
		"--out", out, "--benchtime", "1x", "-j", "2")
	require.Equal(t, cli.OK, code, stderr)
	assert.Equal(t, out+"\n", stdout)
	for _, want := range []string{
		"ok  ", "example.com/faults/healthy.BenchmarkSub/with_space",
		"build-failed  example.com/faults/broken (1 benchmark): broken/broken.go:5:17: cannot use",
		"failed        example.com/faults/panics.BenchmarkPanic: panic: boom",
		"skipped", "example.com/faults/panics.BenchmarkSkip",
	} {
		assert.Contains(t, stderr, want)
	}
	m, err := manifest.Load(out)
	require.NoError(t, err)
	assert.Equal(t, 8, m.Count(manifest.StatusOK), stderr)

	code, _, stderr = run(t, "profile", "-C", "../../testdata/faults", "./healthy", "./panics", "./broken",
		"--out", out, "--benchtime", "1x", "--strict")
	assert.Equal(t, cli.Internal, code)
	assert.Contains(t, stderr, "8 ok, 1 skipped")
	assert.Contains(t, stderr, "reused from an earlier run")
	assert.Contains(t, stderr, "mbopt: --strict: 4 of 13 benchmarks did not succeed")

	code, _, stderr = run(t, "profile", "-C", "../../testdata/faults", "./nobench", "--out", out)
	assert.Equal(t, cli.BadInput, code)
	assert.Contains(t, stderr, "no benchmarks found")
	_, err = os.Stat(out)
	require.NoError(t, err)
}

// TestProfileHeartbeatAndSlowParents checks the lines of a long collection:
// a heartbeat line per EventRunning, in a log and on a terminal alike, and
// the summary's note about a benchmark whose sub-benchmark processes each
// repeat a long setup.
func TestProfileHeartbeatAndSlowParents(t *testing.T) {
	leaf := func(name string, wall float64) manifest.Entry {
		return manifest.Entry{ID: "m/a." + name, Package: "m/a", Name: name, Status: manifest.StatusOK, WallSeconds: wall, NsPerOp: 1e6, Iterations: 1000, BenchTime: "1s"}
	}
	m := &manifest.Manifest{Benchmarks: []manifest.Entry{leaf("BenchmarkA/x", 12), leaf("BenchmarkA/y", 14)}}
	collectRun := func(_ context.Context, cfg collect.Config) (*manifest.Manifest, error) {
		cfg.Progress(collect.Event{Kind: collect.EventDiscoverStart, Package: "m/a", Name: "BenchmarkA"})
		cfg.Progress(collect.Event{Kind: collect.EventRunning, Package: "m/a", Name: "BenchmarkA", Phase: collect.PhaseDiscovery, Elapsed: 30*time.Second + 4*time.Millisecond})
		for i := range m.Benchmarks {
			e := m.Benchmarks[i]
			cfg.Progress(collect.Event{Kind: collect.EventStart, Package: e.Package, Name: e.Name, Done: i, Total: 2})
			cfg.Progress(collect.Event{Kind: collect.EventRunning, Package: e.Package, Name: e.Name, Phase: collect.PhaseMeasurement, Elapsed: time.Minute})
			cfg.Progress(collect.Event{Kind: collect.EventFinish, Package: e.Package, Name: e.Name, Entry: &e, Done: i + 1, Total: 2})
		}
		return m, nil
	}
	for _, terminal := range []bool{false, true} {
		clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		var out, errb bytes.Buffer
		o := &profileOptions{Config: collect.Config{Out: "p"}, terminal: terminal, width: 200, now: func() time.Time { return clock }, collectRun: collectRun}
		require.NoError(t, runProfile(t.Context(), &streams{Out: &out, Err: &errb}, o))
		got := errb.String()
		assert.Equal(t, !terminal, strings.Contains(got, "  finding the sub-benchmarks of m/a.BenchmarkA (a -benchtime 1x run, its setup included)\n"), "terminal %v: a discovery's start is logged, not shown on a terminal", terminal)
		assert.Contains(t, got, "  still running after 30s (discovery): m/a.BenchmarkA\n", "terminal %v", terminal)
		assert.Contains(t, got, "  still running after 1m0s (measurement): m/a.BenchmarkA/x\n", "terminal %v", terminal)
		assert.Contains(t, got, "note: the 2 sub-benchmark processes of m/a.BenchmarkA took 12.0-14.0 s each for a benchtime of 1s, 24 s in all outside their timed loops: each runs again what BenchmarkA does before b.Run; collect it as one unit (--sub=false) or leave it out (--skip '^BenchmarkA$')\n", "terminal %v", terminal)
	}
}

// TestProfileWithoutValgrind: --source instructions on a machine without
// valgrind is bad input naming --source, as compare's and bisect's
// --metric instructions are (issue 31: it exited 1).
func TestProfileWithoutValgrind(t *testing.T) {
	dir, _ := cmpfixture.HelperRepo(t, cmpfixture.HelperVariant{})
	bin := t.TempDir() // PATH: git and go, no valgrind
	for _, tool := range []string{"git", "go"} {
		p, err := exec.LookPath(tool)
		require.NoError(t, err)
		require.NoError(t, os.Symlink(p, filepath.Join(bin, tool)))
	}
	t.Setenv("PATH", bin)
	t.Chdir(dir)
	code, stdout, stderr := run(t, "profile", "--source", "instructions", "--out", filepath.Join(t.TempDir(), "out"))
	assert.Equal(t, cli.BadInput, code, stderr)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "--source: ")
	assert.Contains(t, stderr, "apt-get install valgrind")
}
